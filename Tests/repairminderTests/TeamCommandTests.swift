import Foundation
import RepairMinderServer
import TestSupport
import Testing

/// `repairminder team` and `repairminder invitation accept` against a live `serve --demo`.
@Suite struct TeamCommandTests {
    typealias Server = ClientCommandTests.Server

    @Test func anAdminManagesTheTeamAndAnInviteeJoins() throws {
        let server = try Server()
        let login = try server.client(
            ["login", "--staff", "--email", "admin@acme.test", "--server", server.url, "--password-stdin"],
            input: [{ _ in "correct horse battery" }, { _ in try server.latestCode(to: "admin@acme.test") }])
        #expect(login.status == 0, "\(login.error)")

        let invited = try server.client(
            ["team", "invite", "--email", "nia@acme.test", "--first-name", "Nia", "--last-name", "Hire", "--role", "engineer"])
        #expect(invited.status == 0, "\(invited.error)")
        #expect(invited.output.hasPrefix("Invited nia@acme.test as engineer"))
        #expect(try server.client(["team", "invitations"]).output.contains("nia@acme.test  engineer, until "))

        let listed = try server.client(["team", "list", "--matching", "engineer@"])
        #expect(listed.status == 0, "\(listed.error)")
        let line = try #require(listed.output.split(separator: "\n").first { $0.contains("<engineer@acme.test>") })
        let id = String(try #require(line.split(separator: " ").first))
        #expect(listed.output.contains("1 in all"))
        #expect(try server.client(["team", "role", id, "senior_engineer"]).output.contains("senior_engineer, active"))
        #expect(try server.client(["team", "deactivate", id]).output.contains("deactivated"))
        #expect(try server.client(["team", "reactivate", id]).output.contains(", active"))
        #expect(try server.client(["team", "show", id]).output.contains("<engineer@acme.test>  senior_engineer, active"))
        #expect(try server.client(["team", "sessions", id]).output == "No live sessions.\n")
        // The admin's changes, newest first, each naming the admin; then where the page is.
        let activity = try server.client(["team", "activity", id]).output.split(separator: "\n")
        #expect(activity.first?.contains("  Reactivated (by admin@acme.test)") == true, "\(activity)")
        #expect(activity.contains { $0.contains("  Role changed (by admin@acme.test)") }, "\(activity)")
        #expect(activity.last?.hasPrefix("Page 1 of 1, ") == true, "\(activity)")
        // The admin's own: the sign-in above, from this machine.
        let own = try server.client(["activity"]).output.split(separator: "\n")
        #expect(own.contains { $0.contains("  Signed in from 127.0.0.1") }, "\(own)")
        let unknown = try server.client(["team", "show", "00000000-0000-4000-8000-000000000000"])
        #expect(unknown.status == 1)
        #expect(!unknown.error.isEmpty)
        #expect(try server.client(["team", "sign-out", id]).output == "Signed out 0 sessions.\n")
        #expect(try server.client(["team", "reset-factors", id]).output.hasPrefix("Reset. engineer@acme.test signs in"))
        let refused = try server.client(["team", "role", id, "master_admin"])
        #expect(refused.status == 1)
        #expect(refused.error.contains("role must be one of admin, senior_engineer, engineer, office"), "\(refused.error)")
        #expect(try server.client(["team", "list", "--status", "gone"]).status == 2)
        // Issue 50, item 5: an archived member is listed as archived, not active.
        let archived = try server.client(["team", "list", "--status", "archived"])
        #expect(archived.output.contains("<archived@acme.test>  engineer, archived"), "\(archived.output)")

        // The invitee, from the emailed link, on the same machine.
        let outbox = OutboxTransport.path(dataDirectory: server.dataDir)
        var link: String?
        try waitUntilBlocking("the invitation in the outbox", interval: .milliseconds(100)) {
            let text = try OutboxTransport.read(path: outbox).last { $0.to == "nia@acme.test" }?.text ?? ""
            link = text.range(of: #"token=[0-9a-f]{64}"#, options: .regularExpression).map { String(text[$0].dropFirst(6)) }
            return link != nil
        }
        let accepted = try server.client(
            ["invitation", "accept", "--token", try #require(link)], input: [{ _ in "violet kettle 1987 drum" }])
        #expect(accepted.status == 0, "\(accepted.error)")
        #expect(accepted.error.contains("Acme Repairs invites nia@acme.test as engineer."))
        #expect(accepted.error.contains("Joined and signed in as Nia Hire <nia@acme.test>, engineer at Acme Repairs"))
        // An engineer is no admin.
        let engineerTries = try server.client(["team", "list"])
        #expect(engineerTries.status == 1)
        #expect(engineerTries.error.contains("You do not have permission to do this"))
    }
}
