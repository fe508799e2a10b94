import Foundation
import RepairMinderKit
import RepairMinderModels
import TestSupport
import Testing

/// Rows of seed 001's test table the other suites covered only in part (issue 41): a wrong
/// 2FA code and a network error as the screens show them, and the credentials stored at login
/// and all removed at logout, through the app model against the real server.
@MainActor
@Suite struct Seed001TableTests {
    /// "Invalid 2FA code: wrong code → error message shown."
    @Test func aWrongTwoFactorCodeShowsTheServersMessage() async throws {
        let server = try await LiveServer()
        try await server.run { url in try await Self.wrongCode(server, url) }
    }

    static func wrongCode(_ server: LiveServer, _ url: URL) async throws {
        let app = AppModel(api: server.client(url))
        app.roles.select(.staff)
        await app.launch()
        let login = StaffLoginViewModel(auth: app.staff)
        login.email = "admin@acme.test"
        login.password = "correct horse battery"
        await login.submit()
        #expect(app.screen == .staffSecondFactor)
        let right = try await server.latestCode(to: "admin@acme.test")
        let screen = TwoFactorViewModel(auth: app.staff)
        await screen.codeChanged(right == "000000" ? "111111" : "000000")
        #expect(screen.errorMessage == "Invalid verification code")
        #expect(screen.code.isEmpty)
        #expect(app.screen == .staffSecondFactor)
        await screen.codeChanged(right)
        #expect(screen.errorMessage == nil)
        #expect(app.screen == .staffMain)
    }

    /// "Network error: no connection → appropriate error message": the login screen says the
    /// server cannot be reached, and nothing is stored.
    @Test func noConnectionSaysTheServerCannotBeReached() async throws {
        // Port 1 of loopback: nothing listens there, so the connection is refused at once; the
        // SDK's retries of a network failure do not wait.
        let store = InMemoryCredentialStore()
        let url = try #require(URL(string: "http://127.0.0.1:1"))
        let app = AppModel(api: APIClient(baseURL: url, store: store, sleep: { _ in }))
        app.roles.select(.staff)
        let login = StaffLoginViewModel(auth: app.staff)
        login.email = "admin@acme.test"
        login.password = "correct horse battery"
        await login.submit()
        #expect(login.errorMessage?.hasPrefix("Cannot reach the server") == true)
        #expect(!login.isLoading)
        #expect(try store.read(.staff) == nil)
    }

    /// "Keychain save: login → token stored securely"; "Keychain clear: logout → all
    /// credentials removed" (the role chosen stays: the app opens on the staff login again).
    @Test func loginStoresTheTokensAndLogoutRemovesThemAll() async throws {
        let server = try await LiveServer()
        try await server.run { url in try await Self.storeAndClear(server, url) }
    }

    static func storeAndClear(_ server: LiveServer, _ url: URL) async throws {
        let store = InMemoryCredentialStore()
        let app = AppModel(api: server.client(url, store: store))
        app.roles.select(.staff)
        await app.launch()
        try await app.staff.login(email: "admin@acme.test", password: "correct horse battery")
        try await app.staff.requestEmailCode()
        try await app.staff.verifySecondFactor(code: try await server.latestCode(to: "admin@acme.test"))
        let saved = try #require(try store.read(.staff))
        let credentials = try JSONDecoder().decode(StaffCredentials.self, from: saved)
        #expect(!credentials.accessToken.isEmpty && !credentials.refreshToken.isEmpty)
        #expect(credentials.accessTokenExpiresAt > Date())
        #expect(try store.read(.staffProfile) != nil)
        await app.staff.logout()
        #expect(app.screen == .staffLogin)
        for key in CredentialKey.allCases where key != .role && key != .biometricLock {
            #expect(try store.read(key) == nil, "\(key) is still stored")
        }
    }
}
