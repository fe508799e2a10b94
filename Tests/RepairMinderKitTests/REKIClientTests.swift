import Foundation
import RepairMinderKit
import RepairMinderModels
import RepairMinderServer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// REKI against the real server: a client written as seed 002 writes it, unchanged in style,
/// and the SDK's `REKIClient` (docs/API.md §10).
@Suite struct REKIClientTests {
    static let email = "reki.user@example.com"
    static let password = "violet kettle 1987"

    /// The reset token of the newest link mailed to `email`.
    private func resetToken(_ server: LiveServer, to email: String) async throws -> String {
        let text = try #require(try await Mailbox.messages(to: email, settings: server.settings).last?.text)
        return try #require(text.firstMatch(of: /reset-password\?token=([0-9a-f]{64})/).map { String($0.1) })
    }

    @Test func seed002sClientWorksUnchanged() async throws {
        let server = try await LiveServer()
        try await server.run { url in
            let app = Seed002Client(baseURL: url.absoluteString)
            let registered = try await app.register(email: Self.email, password: Self.password)
            #expect(registered.user.email == Self.email)
            let me: Seed002Client.User = try await app.makeAuthenticatedRequest(endpoint: "/auth/me", token: registered.access_token)
            #expect(me.id == registered.user.id)
            let refreshed = try await app.refreshAccessToken(registered.refresh_token)
            #expect(refreshed.refresh_token != registered.refresh_token)
            try await app.logout(accessToken: refreshed.access_token)
            await #expect(throws: Seed002Client.AuthError.refreshFailed) { _ = try await app.refreshAccessToken(refreshed.refresh_token) }
            try await app.forgotPassword(email: Self.email)
            try await app.resetPassword(token: try await resetToken(server, to: Self.email), newPassword: "amber lantern 2031")
            await #expect(throws: Seed002Client.AuthError.loginFailed) { _ = try await app.login(email: Self.email, password: Self.password) }
            let signedIn = try await app.login(email: Self.email, password: "amber lantern 2031")
            let again: Seed002Client.User = try await app.makeAuthenticatedRequest(endpoint: "/auth/me", token: signedIn.access_token)
            #expect(again.email == Self.email)
        }
    }

    @Test func deleteAccountEndsTheSessionHereAndThere() async throws {
        let server = try await LiveServer()
        try await server.run { url in
            let store = InMemoryCredentialStore()
            let client = server.rekiClient(url, store: store)
            _ = try await client.register(email: Self.email, password: Self.password)
            let tokens = try #require(try store.rekiCredentials())
            await #expect(throws: APIError.self) { try await client.deleteAccount(password: "not it") }
            #expect(try await client.isSignedIn)
            try await client.deleteAccount(password: Self.password)
            #expect(try await client.isSignedIn == false)
            #expect(try await Self.post(url, "/auth/refresh", ["refreshToken": tokens.refreshToken]) == 401)
            _ = try await client.register(email: Self.email, password: Self.password)
        }
    }

    @Test func registerMeRefreshLogout() async throws {
        let server = try await LiveServer()
        try await server.run { url in
            let transport = ObservingTransport()
            let store = InMemoryCredentialStore()
            let client = server.rekiClient(url, store: store, transport: transport)
            let user = try await client.register(email: " Reki.User@Example.com ", password: Self.password)
            #expect(user.email == Self.email)
            #expect(try await client.isSignedIn)
            #expect(try await client.me() == user)
            #expect(transport.count("/auth/refresh") == 0)
            // The access token runs out: the next call refreshes first, once for all callers.
            server.clock.advance(by: 15 * 60)
            let users = try await withThrowingTaskGroup(of: REKIUser.self) { group in
                for _ in 0..<8 { group.addTask { try await client.me() } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(users.allSatisfy { $0 == user })
            #expect(transport.count("/auth/refresh") == 1)
            let beforeLogout = try #require(try store.rekiCredentials())
            try await client.logout()
            #expect(try await client.isSignedIn == false)
            await #expect(throws: APIError.notSignedIn) { _ = try await client.me() }
            // The server ended the session too.
            #expect(try await Self.post(url, "/auth/refresh", ["refreshToken": beforeLogout.refreshToken]) == 401)
        }
    }

    @Test func aRefusedRefreshEndsTheSessionAndANetworkFailureKeepsIt() async throws {
        let server = try await LiveServer()
        try await server.run { url in
            let transport = ObservingTransport()
            let store = InMemoryCredentialStore()
            let client = server.rekiClient(url, store: store, transport: transport)
            try await client.register(email: Self.email, password: Self.password)
            server.clock.advance(by: 15 * 60)
            transport.setDown("/auth/refresh", true)
            await #expect(throws: APIError.self) { _ = try await client.me() }
            #expect(try await client.isSignedIn)
            transport.setDown("/auth/refresh", false)
            // Someone else used the refresh token long ago: reuse, the server ends the family.
            let stolen = try #require(try store.rekiCredentials()).refreshToken
            #expect(try await Self.post(url, "/auth/refresh", ["refreshToken": stolen]) == 200)
            server.clock.advance(by: 60)
            await #expect(throws: APIError.sessionExpired(code: nil)) { _ = try await client.me() }
            #expect(try await client.isSignedIn == false)
        }
    }

    @Test func failuresCarryREKIsMessages() async throws {
        let server = try await LiveServer()
        try await server.run { url in
            let client = server.rekiClient(url)
            try await client.register(email: Self.email, password: Self.password)
            await #expect(throws: APIError.server(status: 409, message: "Email already exists", code: nil)) {
                try await client.register(email: Self.email, password: Self.password)
            }
            await #expect(throws: APIError.server(status: 400, message: "This password is too common. Choose another.", code: nil)) {
                try await client.register(email: "other@example.com", password: "password123")
            }
            await #expect(throws: APIError.unauthorized(message: "Invalid credentials", code: nil)) {
                try await client.login(email: Self.email, password: "not the password")
            }
            #expect(try await client.requestPasswordReset(email: "nobody@example.com") == "If the email exists, a password reset link has been sent")
            await #expect(throws: APIError.server(status: 400, message: "Invalid or expired reset token", code: nil)) {
                try await client.resetPassword(token: String(repeating: "0", count: 64), newPassword: "amber lantern 2031")
            }
            try await client.requestPasswordReset(email: Self.email)
            try await client.resetPassword(token: try await resetToken(server, to: Self.email), newPassword: "amber lantern 2031")
            #expect(try await client.isSignedIn == false)
            #expect(try await client.login(email: Self.email, password: "amber lantern 2031").email == Self.email)
        }
    }

    /// A JSON POST's status, outside any client.
    static func post(_ url: URL, _ path: String, _ body: [String: String]) async throws -> Int {
        var request = URLRequest(url: url.appendingPathComponent(path))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }
}

extension LiveServer {
    func rekiClient(_ baseURL: URL, store: any CredentialStore = InMemoryCredentialStore(), transport: any HTTPTransport = URLSessionTransport())
        -> REKIClient
    {
        let clock = self.clock
        return REKIClient(baseURL: baseURL, store: store, transport: transport, now: { Date(timeIntervalSince1970: clock.now) })
    }
}
