import Foundation
import RepairMinderKit
import RepairMinderModels
import RepairMinderServer
import Testing

/// `StaffAuth`'s account lifecycle (docs/API.md §9) against the real server.
@MainActor
@Suite struct AccountLifecycleTests {
    @Test func registerVerifyChangePasswordAndDevices() async throws {
        let server = try await LiveServer()
        try await server.run { url in
            let auth = await StaffAuth(api: server.client(url))
            let email = try await auth.register(
                companyName: " Fixit Phones ", firstName: "Ada", lastName: "Lovelace", email: " ada@fixit.test ",
                password: "violet kettle 1987 drum")
            #expect(email == "ada@fixit.test")
            #expect(await auth.state == .signedOut)
            try await auth.verifyRegistration(email: email, code: try await server.latestCode(to: email))
            guard case .signedIn(let me) = await auth.state else { Issue.record("not signed in"); return }
            #expect(me.company.status == .pendingApproval)
            #expect(me.user.role == .admin)

            // A second device, then this one changes the password: the other is signed out.
            let phone = await StaffAuth(api: server.client(url))
            try await phone.login(email: email, password: "violet kettle 1987 drum")
            try await phone.requestEmailCode()
            try await phone.verifySecondFactor(code: try await server.latestCode(to: email))
            #expect(try await auth.sessions().count == 2)
            #expect(try await auth.sessions().filter(\.current).count == 1)
            try await auth.changePassword(current: "violet kettle 1987 drum", new: "amber lantern 2044 oak")
            #expect(try await auth.sessions().count == 1)
            await #expect(throws: APIError.self) { _ = try await phone.sessions() }

            // Wrong current password and a weak new one are refused with the server's words.
            do {
                try await auth.changePassword(current: "wrong", new: "quiet harbour 1999 fern")
                Issue.record("a wrong current password was accepted")
            } catch APIError.unauthorized(_, let code) {
                #expect(code == .invalidCredentials)
            }
            do {
                try await auth.changePassword(current: "amber lantern 2044 oak", new: "password1")
                Issue.record("a common password was accepted")
            } catch let error as APIError {
                #expect(error.message == "This password is too common. Choose another.")
            }

            // Sign in elsewhere twice, revoke one, then all the others.
            for _ in 1...2 {
                let other = await StaffAuth(api: server.client(url))
                try await other.login(email: email, password: "amber lantern 2044 oak")
                try await other.requestEmailCode()
                try await other.verifySecondFactor(code: try await server.latestCode(to: email))
            }
            let others = try await auth.sessions().filter { !$0.current }
            #expect(others.count == 2)
            try await auth.revokeSession(others[0].id)
            #expect(try await auth.sessions().count == 2)
            #expect(try await auth.signOutOtherDevices() == 1)
            #expect(try await auth.sessions().map(\.current) == [true])

            // The account's own security events, newest first, a page at a time.
            let events = try await auth.activity(limit: 2)
            #expect(events.items.map(\.type) == [.sessionRevoked, .sessionRevoked])
            #expect(events.hasNextPage)
            let all = try await auth.activity(limit: 100).items.map(\.type)
            #expect(all.contains(.passwordChanged))
            #expect(all.last == .registered)
        }
    }

    /// `PushSettingsClient`: the devices and the preferences of the signed-in staff member.
    @Test func aStaffMemberReadsAndChangesTheirNotifications() async throws {
        let server = try await LiveServer()
        try await server.run { url in
            let auth = try await TeamClientTests.signedIn(server, url, DemoFixtures.adminEmail, DemoFixtures.adminPassword)
            let api = await auth.api
            let push = PushSettingsClient(api: api)
            #expect(try await push.devices().isEmpty)
            let token = String(repeating: "ab", count: 32)
            _ = try await PushRegistration.register(token, role: .staff, api: api)
            #expect(try await push.devices().map(\.deviceToken) == [token])
            #expect(try await push.preferences() == PushPreferences())
            let changed = try await push.update(PushPreferencesUpdate(orders: false))
            #expect(changed == PushPreferences(orders: false))
            #expect(try await push.preferences() == changed)
        }
    }

    @Test func aResetSignsOutAndTheNewPasswordSignsIn() async throws {
        let server = try await LiveServer()
        try await server.run { url in
            let auth = await StaffAuth(api: server.client(url))
            try await auth.login(email: DemoFixtures.adminEmail, password: DemoFixtures.adminPassword)
            try await auth.requestEmailCode()
            try await auth.verifySecondFactor(code: try await server.latestCode(to: DemoFixtures.adminEmail))
            try await auth.requestPasswordReset(email: DemoFixtures.adminEmail)
            try await auth.resetPassword(
                email: DemoFixtures.adminEmail, code: try await server.latestCode(to: DemoFixtures.adminEmail),
                newPassword: "quiet harbour 1999 fern")
            #expect(await auth.state == .signedOut)
            try await auth.login(email: DemoFixtures.adminEmail, password: "quiet harbour 1999 fern")
            guard case .awaitingSecondFactor = await auth.state else { Issue.record("the new password did not work"); return }
        }
    }

    /// The screens' view models, driven as a person would.
    @Test func theAccountScreensViewModels() async throws {
        let server = try await LiveServer()
        try await server.run { url in try await Self.driveTheScreens(server, url) }
    }

    private static func driveTheScreens(_ server: LiveServer, _ url: URL) async throws {
        let auth = StaffAuth(api: server.client(url))
        let registration = RegistrationViewModel(auth: auth)
        registration.companyName = "Fixit Phones"
        registration.firstName = "Ada"
        registration.lastName = "Lovelace"
        registration.email = "ada@fixit.test"
        registration.password = "short"
        #expect(registration.passwordHint == "Password must be at least 8 characters")
        #expect(!registration.canSubmit)
        registration.password = "violet kettle 1987 drum"
        #expect(registration.canSubmit)
        await registration.submit()
        #expect(registration.codeSentTo == "ada@fixit.test")
        await registration.codeChanged("000000")
        #expect(registration.errorMessage == "Invalid or expired code")
        #expect(registration.code.isEmpty)
        await registration.codeChanged(try await server.latestCode(to: "ada@fixit.test"))
        guard case .signedIn = auth.state else { Issue.record("registration did not sign in"); return }

        let change = ChangePasswordViewModel(auth: auth)
        #expect(change.hasPassword)
        change.newPassword = "amber lantern 2044 oak"
        change.confirmation = "amber lantern 2044 ok"
        #expect(change.passwordHint == "The two passwords differ")
        change.confirmation = change.newPassword
        #expect(!change.canSubmit)  // the current password is missing
        change.currentPassword = "violet kettle 1987 drum"
        await change.submit()
        #expect(change.confirmationMessage == "Password changed. Your other devices were signed out.", "\(change.errorMessage ?? "")")

        let devices = SignedInDevicesViewModel(auth: auth)
        await devices.load()
        #expect(devices.sessions.count == 1)
        #expect(!devices.hasOtherDevices)

        let forgot = ForgotPasswordViewModel(auth: StaffAuth(api: server.client(url)))
        forgot.email = "ada@fixit.test"
        await forgot.requestCode()
        #expect(forgot.codeRequested)
        forgot.code = try await server.latestCode(to: "ada@fixit.test")
        forgot.newPassword = "ada@fixit.test"
        #expect(forgot.passwordHint == "Password must not be your email address")
        forgot.newPassword = "password1"
        await forgot.reset()
        #expect(forgot.errorMessage == "This password is too common. Choose another.")
        forgot.newPassword = "quiet harbour 1999 fern"
        await forgot.reset()
        #expect(forgot.isDone, "\(forgot.errorMessage ?? "")")
        // The reset signed out every device, the registering one too.
        await devices.load()
        #expect(devices.errorMessage != nil)
    }
}
