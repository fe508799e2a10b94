import Foundation
@testable import RepairMinderKit
import RepairMinderModels
import RepairMinderServer
import TestSupport
import Testing

/// What an app leans on the SDK for (issue 41, item 3), against the live server.
@Suite struct AppSDKTests {
    /// A completed staff sign-in's answer, obtained with a client of its own.
    static func staffTokens(server: LiveServer, url: URL) async throws -> StaffTokenResponse {
        let other = server.client(url)
        let challenge = try await other.send(
            Routes.staffAuth.login, LoginRequest(email: DemoFixtures.adminEmail, password: DemoFixtures.adminPassword))
        _ = try await other.send(Routes.staffAuth.requestTwoFactorCode, TwoFactorCodeRequest(userId: challenge.userId, email: challenge.email))
        let code = try await server.latestCode(to: DemoFixtures.adminEmail)
        return try await other.send(Routes.staffAuth.verifyTwoFactorCode, TwoFactorVerifyRequest(userId: challenge.userId, code: code))
    }

    /// A sign-in that lands while a refresh is in flight: the requests waiting for that refresh
    /// carry on with the new session instead of failing with "not signed in".
    @Test func aSignInDuringARefreshCarriesTheWaitingRequestsOn() async throws {
        let server = try await LiveServer()
        try await server.run { url in
            let store = InMemoryCredentialStore(), transport = ObservingTransport()
            let api = server.client(url, store: store, transport: transport)
            try await APIClientRefreshTests.signIn(api, server: server)
            server.clock.advance(by: 901)
            let signedInMeanwhile = Locked<String?>(nil)
            transport.beforeSending("/api/auth/refresh") {
                try await waitUntil("three callers wait for the refresh") { await api.staffRefreshWaiters == 3 }
                let tokens = try await Self.staffTokens(server: server, url: url)
                try await api.signedIn(staff: tokens)
                signedInMeanwhile.value = tokens.token
            }
            let emails = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<3 { group.addTask { try await api.send(Routes.staffAuth.me).user.email } }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(emails == Array(repeating: DemoFixtures.adminEmail, count: 3))
            #expect(transport.count("/api/auth/refresh") == 1)
            // The refresh's own tokens were not written back over the new session.
            #expect(try store.staffCredentials()?.accessToken == signedInMeanwhile.value)
            #expect(api.authState == .signedIn(.staff))
        }
    }

    @Test func aValidAccessTokenIsRefreshedOnceForEveryoneWhoNeedsOne() async throws {
        let server = try await LiveServer()
        try await server.run { url in
            let store = InMemoryCredentialStore(), transport = ObservingTransport()
            let api = server.client(url, store: store, transport: transport)
            await #expect(throws: APIError.notSignedIn) { _ = try await api.validAccessToken() }
            try await APIClientRefreshTests.signIn(api, server: server)
            // Fresh enough: the stored token, no refresh.
            let first = try await api.validAccessToken(minTTL: 600)
            #expect(first == (try store.staffCredentials())?.accessToken)
            #expect(transport.count("/api/auth/refresh") == 0)
            // 100 s left: twenty callers asking for two minutes share one refresh.
            server.clock.advance(by: 800)
            let tokens = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<20 { group.addTask { try await api.validAccessToken(minTTL: 120) } }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(tokens.count == 1)
            let renewed = try #require(tokens.first)
            #expect(renewed != first)
            #expect(transport.count("/api/auth/refresh") == 1)
            #expect(try #require(try store.staffCredentials()).accessTokenExpiresAt.timeIntervalSince(server.clock.date) >= 120)
            // The token works for a request of the app's own.
            let own = InMemoryCredentialStore()
            try own.saveStaff(StaffCredentials(accessToken: renewed, refreshToken: "unused", accessTokenExpiresAt: .distantFuture))
            #expect(try await server.client(url, store: own).send(Routes.staffAuth.me).user.email == DemoFixtures.adminEmail)
        }
    }

    @Test func becomingActiveRefreshesATokenNearExpiryAndInactiveChangesNothing() async throws {
        let server = try await LiveServer()
        try await server.run { url in try await Self.lifecycle(server: server, url: url) }
    }

    @MainActor
    static func lifecycle(server: LiveServer, url: URL) async throws {
        let store = InMemoryCredentialStore(), transport = ObservingTransport()
        let app = AppModel(api: server.client(url, store: store, transport: transport))
        app.roles.select(.staff)
        await app.launch()
        try await SessionStateTests.signIn(app.staff, server: server)
        app.sceneBecameActive()
        #expect(app.isKeepingSessionFresh)
        // A glance at Control Centre: still refreshing in the foreground.
        app.scenePhaseChanged(to: .inactive)
        #expect(app.isKeepingSessionFresh)
        app.scenePhaseChanged(to: .background)
        #expect(!app.isKeepingSessionFresh)
        #expect(transport.count("/api/auth/refresh") == 0)
        // Back after the access token came within a minute of expiry: refreshed at once.
        let before = try #require(try store.staffCredentials())
        server.clock.advance(by: 850)
        app.sceneBecameActive()
        try await waitUntil("the foreground refresh") { transport.count("/api/auth/refresh") == 1 }
        try await waitUntil { (try? store.staffCredentials())?.accessToken != before.accessToken }
        app.sceneMovedToBackground()
        #expect(!app.isKeepingSessionFresh)
    }

    /// The last signed-in customer and shop are there on an offline launch, and gone after sign-out.
    @Test func anOfflineCustomerLaunchKnowsWhoIsSignedIn() async throws {
        let server = try await LiveServer()
        try await server.run { url in try await Self.offlineCustomer(server: server, url: url) }
    }

    @MainActor
    static func offlineCustomer(server: LiveServer, url: URL) async throws {
        let store = InMemoryCredentialStore()
        let auth = CustomerAuth(api: server.client(url, store: store))
        try await auth.requestCode(email: "jane@example.test")
        try await auth.verify(code: try await server.latestCode(to: "jane@example.test"))
        guard case .signedIn(let me) = auth.state else {
            Issue.record("not signed in: \(auth.state)")
            return
        }
        let transport = ObservingTransport()
        transport.setDown("/api/customer/auth/me", true)
        let offline = CustomerAuth(api: server.client(url, store: store, transport: transport))
        try await offline.restoreSession()
        #expect(offline.state == .offline(me))
        await offline.logout()
        #expect(try store.customerProfile() == nil)
        #expect(offline.state == .signedOut)
    }
}
