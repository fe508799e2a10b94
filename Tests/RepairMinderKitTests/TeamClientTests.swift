import Foundation
import RepairMinderKit
import RepairMinderModels
import RepairMinderServer
import TestSupport
import Testing

/// `TeamClient` and invitation acceptance (docs/API.md §12) against the real server.
@MainActor
@Suite struct TeamClientTests {
    static func signedIn(_ server: LiveServer, _ url: URL, _ email: String, _ password: String) async throws -> StaffAuth {
        let auth = StaffAuth(api: server.client(url))
        try await auth.login(email: email, password: password)
        try await auth.requestEmailCode()
        try await auth.verifySecondFactor(code: try await server.latestCode(to: email))
        return auth
    }

    @Test func anAdminInvitesTheInviteeJoinsAndTheAdminManagesThem() async throws {
        let server = try await LiveServer()
        try await server.run { url in
            let admin = try await Self.signedIn(server, url, DemoFixtures.adminEmail, DemoFixtures.adminPassword)
            let team = TeamClient(api: await admin.api)
            let invitation = try await team.invite(email: " Newcomer@Acme.test ", firstName: "Nia", lastName: "Comer", role: .engineer)
            #expect(invitation.email == "newcomer@acme.test")
            #expect(invitation.status == .pending)
            #expect(try await team.invitations().map(\.id) == [invitation.id])

            // The invitee follows the link on another device.
            let mail = try #require(try await Mailbox.messages(to: "newcomer@acme.test", settings: server.settings).last)
            let range = try #require(mail.text.range(of: #"token=[0-9a-f]{64}"#, options: .regularExpression))
            let token = String(mail.text[range].dropFirst("token=".count))
            let invitee = await StaffAuth(api: server.client(url))
            let offer = try await invitee.invitation(token: token)
            #expect(offer.company.name == "Acme Repairs")
            #expect(offer.role == .engineer)
            try await invitee.acceptInvitation(token: token, password: "violet kettle 1987 drum")
            guard case .signedIn(let me) = await invitee.state else { Issue.record("not signed in"); return }
            #expect(me.user.email == "newcomer@acme.test")
            #expect(me.user.role == .engineer)
            #expect(try await team.invitations().isEmpty)

            // The admin finds, promotes and then switches off the new member.
            let found = try await team.members(matching: "comer")
            let member = try #require(found.items.first)
            #expect(found.items.count == 1)
            #expect(member.hasPassword)
            #expect(try await team.setRole(of: member.id, to: .seniorEngineer).user.role == .seniorEngineer)
            #expect(try await team.deactivate(member.id).user.isActive == false)
            let events = try await team.activity(of: member.id).items.map(\.type)
            #expect(events.contains(.roleChanged) && events.contains(.userDeactivated) && events.contains(.invitationAccepted))
            // The member's app is signed out: its refresh is refused.
            await #expect(throws: APIError.self) { _ = try await invitee.sessions() }

            // A member without the permission is refused with the server's words.
            let engineer = try await Self.signedIn(server, url, DemoFixtures.engineerEmail, DemoFixtures.engineerPassword)
            do {
                _ = try await TeamClient(api: await engineer.api).members()
                Issue.record("an engineer listed the team")
            } catch let error as APIError {
                #expect(error.message == "You do not have permission to do this")
            }
        }
    }

    @Test func theTeamScreensDriveTheServer() async throws {
        let server = try await LiveServer()
        try await server.run { url in
            let admin = try await Self.signedIn(server, url, DemoFixtures.adminEmail, DemoFixtures.adminPassword)
            let settings = await SettingsViewModel(staff: admin)
            #expect(await settings.canManageTeam)
            let team = TeamClient(api: await admin.api)
            let screen = await TeamViewModel(team: team)
            await screen.load()
            #expect(await screen.members.count == 5)
            await MainActor.run { screen.status = .active; screen.search = "eli" }
            await screen.load()
            #expect(await screen.members.map(\.user.email) == [DemoFixtures.engineerEmail])

            let form = await InviteMemberViewModel(team: team)
            #expect(await !form.canSend)
            await MainActor.run {
                form.email = "sam@acme.test"
                form.firstName = "Sam"
                form.lastName = "Office"
                form.role = .office
            }
            #expect(await form.canSend)
            await form.send()
            #expect(await form.sent?.role == .office)
            await screen.load()
            #expect(await screen.invitations.map(\.email) == ["sam@acme.test"])

            let member = await MemberViewModel(member: try #require(await screen.members.first), team: team)
            await member.setRole(.seniorEngineer)
            #expect(await member.member.user.role == .seniorEngineer)
            #expect(try await team.sessions(of: member.member.id).isEmpty)
            await member.signOutEverywhere()
            #expect(await member.notice == "Signed out 0 sessions.")
            await member.deactivate()
            #expect(await member.member.user.isActive == false)

            // The invitee opens the link.
            let mail = try #require(try await Mailbox.messages(to: "sam@acme.test", settings: server.settings).last)
            let range = try #require(mail.text.range(of: #"http\S+/invite\?token=[0-9a-f]{64}"#, options: .regularExpression))
            let link = String(mail.text[range])
            guard case .invitation(let token)? = UniversalLink(url: try #require(URL(string: link))) else {
                Issue.record("not an invitation link: \(link)")
                return
            }
            let invitee = await StaffAuth(api: server.client(url))
            let accept = await AcceptInvitationViewModel(token: token, auth: invitee)
            await accept.load()
            #expect(await accept.offer?.company.name == "Acme Repairs")
            #expect(await !accept.canJoin)
            await MainActor.run { accept.skipPassword = true }
            await accept.join()
            guard case .signedIn(let me) = await invitee.state else { Issue.record("not signed in"); return }
            #expect(me.user.role == .office)
            #expect(await !SettingsViewModel(staff: invitee).canManageTeam)
        }
    }

    @Test func onlyAnInvitationLinkWithATokenIsOne() throws {
        #expect(UniversalLink(url: try #require(URL(string: "https://api.acme.test/invite?token=abc"))) == .invitation(token: "abc"))
        #expect(UniversalLink(url: try #require(URL(string: "https://api.acme.test/invite"))) == nil)
        #expect(UniversalLink(url: try #require(URL(string: "https://api.acme.test/invite?token="))) == nil)
        #expect(UniversalLink(url: try #require(URL(string: "https://api.acme.test/reset-password?token=abc"))) == nil)
    }
}
