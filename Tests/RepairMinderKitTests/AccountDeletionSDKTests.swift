import Foundation
import RepairMinderKit
import RepairMinderModels
import RepairMinderServer
import Testing

/// Settings → "Delete account" and the export (docs/API.md §9.5), through the SDK's view model
/// against the real server.
@MainActor
@Suite struct AccountDeletionSDKTests {
    static let password = "violet kettle 1987 drum"

    /// A shop's registrant is its only member: asked to close the shop, then signed out with
    /// the notice; the address registers again.
    @Test func theRegistrantDeletesTheirAccountAndClosesTheShop() async throws {
        let server = try await LiveServer()
        try await server.run { url in try await Self.registrantDeletes(server, url) }
    }

    private static func registrantDeletes(_ server: LiveServer, _ url: URL) async throws {
        do {
            let api = server.client(url)
            let auth = StaffAuth(api: api)
            let email = try await auth.register(
                companyName: "Fixit Phones", firstName: "Ada", lastName: "Lovelace", email: "ada@fixit.test", password: password)
            try await auth.verifyRegistration(email: email, code: try await server.latestCode(to: email))

            let export = try await auth.exportAccount()
            #expect(export.user.email == email)
            #expect(export.company.name == "Fixit Phones")
            #expect(export.activity.contains { $0.type == .registered })

            let model = SettingsViewModel(staff: auth).deleteAccountModel()
            #expect(model.hasPassword)
            model.password = "wrong"
            #expect(!model.canSubmit)  // DELETE not typed yet
            model.confirmation = "DELETE"
            await model.submit()
            #expect(model.errorMessage == "Invalid credentials")
            model.password = password
            await model.submit()
            #expect(model.mustCloseShop)
            #expect(model.errorMessage?.hasPrefix("You are the shop's only active member") == true)
            guard case .signedIn = auth.state else { Issue.record("signed out before the shop's closing was confirmed"); return }

            await model.submit()
            #expect(model.errorMessage == nil)
            #expect(auth.state == .signedOut)
            #expect(api.authState == .signedOut(reason: .accountDeleted))
            #expect(api.authState.notice == "Your account has been deleted.")

            let again = StaffAuth(api: server.client(url))
            _ = try await again.register(
                companyName: "Fixit Phones Again", firstName: "Ada", lastName: "Lovelace", email: email, password: password)
            try await again.verifyRegistration(email: email, code: try await server.latestCode(to: email))
            guard case .signedIn(let me) = again.state else { Issue.record("the address could not register again"); return }
            #expect(me.company.name == "Fixit Phones Again")
        }
    }

    /// A customer has no password: a sign-in older than 10 minutes is refused with a way out.
    @Test func aCustomerDeletesTheirAccount() async throws {
        let server = try await LiveServer()
        try await server.run { url in try await Self.customerDeletes(server, url) }
    }

    private static func customerDeletes(_ server: LiveServer, _ url: URL) async throws {
        do {
            let api = server.client(url)
            let auth = CustomerAuth(api: api)
            try await auth.requestCode(email: "jane@example.test")
            try await auth.verify(code: try await server.latestCode(to: "jane@example.test"))
            let model = SettingsViewModel(customer: auth).deleteAccountModel()
            #expect(!model.hasPassword)
            model.confirmation = "DELETE"
            await model.submit()
            #expect(model.errorMessage == nil, "\(model.errorMessage ?? "")")
            #expect(auth.state == .signedOut)
            #expect(api.authState == .signedOut(reason: .accountDeleted))
        }
    }
}
