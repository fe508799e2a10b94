import Foundation
import RepairMinderKit
import RepairMinderModels
import RepairMinderServer
import TestSupport
import Testing

/// The SDK's single-flight refresh against the real server (issue 5).
@Suite struct APIClientRefreshTests {
    /// Staff sign-in through the SDK's endpoints.
    static func signIn(_ api: APIClient, server: LiveServer) async throws {
        let challenge: LoginChallengeResponse = try await api.send(Routes.staffAuth.login, LoginRequest(email: DemoFixtures.adminEmail, password: DemoFixtures.adminPassword))
        _ = try await api.send(Routes.staffAuth.requestTwoFactorCode, TwoFactorCodeRequest(userId: challenge.userId, email: challenge.email))
        let code = try await server.latestCode(to: DemoFixtures.adminEmail)
        let tokens: StaffTokenResponse = try await api.send(Routes.staffAuth.verifyTwoFactorCode, TwoFactorVerifyRequest(userId: challenge.userId, code: code))
        try await api.signedIn(staff: tokens)
    }

    @Test func fiftyConcurrentRequestsWithAnExpiredTokenRefreshOnce() async throws {
        let server = try await LiveServer()
        try await server.run { url in
            let transport = ObservingTransport()
            let api = server.client(url, transport: transport)
            try await Self.signIn(api, server: server)
            server.clock.advance(by: 901)
            let results = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<50 {
                    group.addTask { try await api.send(Routes.staffAuth.me).user.email }
                }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(results.count == 50)
            #expect(results.allSatisfy { $0 == DemoFixtures.adminEmail })
            #expect(transport.count("/api/auth/refresh") == 1)
        }
    }

    /// A 401 that is the request's own answer (a wrong current password) is not about the
    /// access token: no refresh, no replay, the password counted once (issue 28).
    @Test func onlyATokenRefusalTriggersARefresh() async throws {
        let server = try await LiveServer()
        try await server.run { url in
            let transport = ObservingTransport()
            let api = server.client(url, transport: transport)
            try await Self.signIn(api, server: server)
            await #expect(throws: APIError.unauthorized(message: "Invalid credentials", code: .invalidCredentials)) {
                _ = try await api.send(
                    Routes.accountLifecycle.changePassword,
                    ChangePasswordRequest(currentPassword: "not the password", newPassword: "a brand new passphrase 42"))
            }
            #expect(transport.count("/api/users/me/password") == 1)
            #expect(transport.count("/api/auth/refresh") == 0)
            // An access token the server refuses (UNAUTHORIZED) still refreshes and replays once.
            transport.setCanned("/api/auth/me", status: 401, body: #"{"success":false,"error":"Authentication required","code":"UNAUTHORIZED"}"#)
            transport.beforeSending("/api/auth/refresh") { transport.clearCanned("/api/auth/me") }
            #expect(try await api.send(Routes.staffAuth.me).user.email == DemoFixtures.adminEmail)
            #expect(transport.count("/api/auth/refresh") == 1)
            #expect(transport.count("/api/auth/me") == 2)
        }
    }

    @Test func aRejectedRefreshSignsOutAndSaysSo() async throws {
        let server = try await LiveServer()
        try await server.run { url in
            let store = InMemoryCredentialStore()
            let api = server.client(url, store: store)
            var events = api.events.makeAsyncIterator()
            try await Self.signIn(api, server: server)
            #expect(await events.next() == .signedIn(.staff))
            // Someone else uses the refresh token (theft), and the grace window passes.
            let stolen = try #require(try store.staffCredentials()).refreshToken
            let thief = server.client(url)
            _ = try await thief.send(Routes.staffAuth.refresh, RefreshRequest(refreshToken: stolen))
            server.clock.advance(by: 901)
            await #expect(throws: APIError.sessionExpired(code: .tokenReuseDetected)) {
                _ = try await api.send(Routes.staffAuth.me)
            }
            #expect(await events.next() == .signedOut(role: .staff, reason: .sessionRejected(code: .tokenReuseDetected)))
            #expect(try store.staffCredentials() == nil)
        }
    }

    @Test func aServerDownDuringRefreshKeepsTheSession() async throws {
        let server = try await LiveServer()
        try await server.run { url in
            let store = InMemoryCredentialStore()
            let transport = ObservingTransport()
            let api = server.client(url, store: store, transport: transport)
            try await Self.signIn(api, server: server)
            let before = try store.staffCredentials()
            server.clock.advance(by: 901)
            transport.setDown("/api/auth/refresh", true)
            await #expect(throws: APIError.self) { _ = try await api.send(Routes.staffAuth.me) }
            #expect(try store.staffCredentials() == before)
            // Back up: the same session carries on.
            transport.setDown("/api/auth/refresh", false)
            let me: StaffMeResponse = try await api.send(Routes.staffAuth.me)
            #expect(me.user.email == DemoFixtures.adminEmail)
        }
    }

    @Test func quarantineAndRateLimitsArriveTyped() async throws {
        let server = try await LiveServer { $0.loginFailureLimit = 1 }
        try await server.run { url in
            let api = server.client(url)
            await #expect(throws: APIError.unauthorized(message: "Invalid credentials", code: .invalidCredentials)) {
                _ = try await api.send(Routes.staffAuth.login, LoginRequest(email: "nobody@acme.test", password: "x"))
            }
            do {
                _ = try await api.send(Routes.staffAuth.login, LoginRequest(email: "nobody@acme.test", password: "x"))
                Issue.record("expected 429")
            } catch APIError.rateLimited(let retryAfter, _) {
                #expect((retryAfter ?? 0) > 0)
            }
            let suspended = server.client(url)
            let challenge: LoginChallengeResponse = try await suspended.send(Routes.staffAuth.login, LoginRequest(email: "owner@suspended.test", password: "suspended password"))
            _ = try await suspended.send(Routes.staffAuth.requestTwoFactorCode, TwoFactorCodeRequest(userId: challenge.userId, email: challenge.email))
            let tokens = try await suspended.send(
                Routes.staffAuth.verifyTwoFactorCode,
                TwoFactorVerifyRequest(userId: challenge.userId, code: try await server.latestCode(to: "owner@suspended.test")))
            try await suspended.signedIn(staff: tokens)
            do {
                _ = try await suspended.send(Routes.push.deviceTokens)
                Issue.record("expected quarantine")
            } catch APIError.quarantined(let status, let message) {
                #expect(status == .suspended)
                #expect(message == "Your account has been suspended. Please contact support.")
            }
        }
    }
}

extension APIClientRefreshTests {
    @Test(arguments: [
        (429, #"{"success":false,"error":"Too many requests","code":"RATE_LIMITED"}"#),
        (500, #"{"success":false,"error":"An unexpected error occurred","code":"INTERNAL_ERROR"}"#),
        (503, "<html>bad gateway</html>"),
    ])
    func refreshFailuresThatAreNotRefusalsKeepTheSession(status: Int, body: String) async throws {
        let server = try await LiveServer()
        try await server.run { url in
            let store = InMemoryCredentialStore()
            let transport = ObservingTransport()
            let api = server.client(url, store: store, transport: transport)
            try await Self.signIn(api, server: server)
            let before = try store.staffCredentials()
            server.clock.advance(by: 901)
            transport.setCanned("/api/auth/refresh", status: status, body: body)
            do {
                _ = try await api.send(Routes.staffAuth.me)
                Issue.record("expected a failure")
            } catch APIError.rateLimited(let retryAfter, _) {
                #expect(status == 429)
                #expect(retryAfter == 7)
            } catch APIError.server(let code, _, _) {
                #expect(code == status)
            }
            #expect(try store.staffCredentials() == before)
        }
    }

    @Test func aStaleTokenRetriesWithoutASecondRefresh() async throws {
        let server = try await LiveServer()
        try await server.run { url in
            let store = InMemoryCredentialStore()
            let transport = ObservingTransport()
            let clientClock = TestClock()
            let api = APIClient(baseURL: url, store: store, transport: transport, now: { Date(timeIntervalSince1970: clientClock.now) })
            try await Self.signIn(api, server: server)
            // The server's clock moves past the access token's expiry; the client's does not, so it
            // sends the old token. Just before that request leaves, another caller refreshes.
            server.clock.advance(by: 901)
            transport.beforeSending("/api/auth/me") {
                let stale = try #require(try store.staffCredentials())
                let other = server.client(url, transport: transport)
                let refreshed: RefreshResponse = try await other.send(Routes.staffAuth.refresh, RefreshRequest(refreshToken: stale.refreshToken))
                try store.saveStaff(StaffCredentials(
                    accessToken: refreshed.token, refreshToken: refreshed.refreshToken,
                    accessTokenExpiresAt: Date(timeIntervalSince1970: clientClock.now + 900)))
            }
            let me: StaffMeResponse = try await api.send(Routes.staffAuth.me)
            #expect(me.user.email == DemoFixtures.adminEmail)
            // One refresh (the other caller's); the 401 was retried with the stored token.
            #expect(transport.count("/api/auth/refresh") == 1)
            #expect(transport.count("/api/auth/me") == 2)
        }
    }

    @Test func refreshesPerMinuteAreBounded() async throws {
        let server = try await LiveServer { $0.accessTokenTTL = 30 }
        try await server.run { url in
            let store = InMemoryCredentialStore()
            let clock = server.clock
            let api = APIClient(baseURL: url, store: store, maxRefreshesPerMinute: 2, now: { Date(timeIntervalSince1970: clock.now) })
            try await Self.signIn(api, server: server)
            // Every token is within 60 s of expiry (30 s lifetime): each call wants a refresh.
            _ = try await api.send(Routes.staffAuth.me)
            _ = try await api.send(Routes.staffAuth.me)
            await #expect(throws: APIError.refreshLimitExceeded) { _ = try await api.send(Routes.staffAuth.me) }
            #expect(try store.staffCredentials() != nil)
        }
    }
}
