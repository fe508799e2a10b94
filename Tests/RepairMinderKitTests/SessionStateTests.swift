import Foundation
import RepairMinderModels
import RepairMinderServer
import TestSupport
import Testing

@testable import RepairMinderKit

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The session state as the single source of truth (issue 17, items 1 and 2), against the
/// real server or an injected transport.
@Suite struct SessionStateTests {
    /// Staff sign-in through `StaffAuth`.
    @MainActor
    static func signIn(_ auth: StaffAuth, server: LiveServer) async throws {
        try await auth.login(email: DemoFixtures.adminEmail, password: DemoFixtures.adminPassword)
        try await auth.requestEmailCode()
        try await auth.verifySecondFactor(code: try await server.latestCode(to: DemoFixtures.adminEmail))
    }

    @Test func everyListenerGetsTheCurrentStateThenEachChange() async throws {
        let server = try await LiveServer()
        try await server.run { url in try await Self.twoListeners(server: server, url: url) }
    }

    @MainActor
    static func twoListeners(server: LiveServer, url: URL) async throws {
        let api = server.client(url)
        let first = StateLog(), second = StateLog()
        let one = Task { @MainActor in for await state in api.authStates() { first.append(state) } }
        let auth = StaffAuth(api: api)
        try await signIn(auth, server: server)
        // A listener that starts late is told the current state first.
        let two = Task { @MainActor in for await state in api.authStates() { second.append(state) } }
        try await second.waitFor(count: 1)
        await auth.logout()
        try await first.waitFor(count: 3)
        try await second.waitFor(count: 2)
        one.cancel()
        two.cancel()
        #expect(first.states == [.signedOut(reason: nil), .signedIn(.staff), .signedOut(reason: .userInitiated)])
        #expect(second.states == [.signedIn(.staff), .signedOut(reason: .userInitiated)])
    }

    @Test func aRefusedRefreshReturnsTheAppToSignInWithANoticeOnce() async throws {
        let server = try await LiveServer()
        try await server.run { url in try await Self.refusedRefresh(server: server, url: url) }
    }

    @MainActor
    static func refusedRefresh(server: LiveServer, url: URL) async throws {
        let store = InMemoryCredentialStore()
        let app = AppModel(api: server.client(url, store: store))
        app.roles.select(.staff)
        await app.launch()
        try await signIn(app.staff, server: server)
        #expect(app.screen == .staffMain)
        // The refresh token is used elsewhere; past the grace window, this app's refresh is reuse.
        let stolen = try #require(try store.staffCredentials()).refreshToken
        _ = try await server.client(url).send(Routes.staffAuth.refresh, RefreshRequest(refreshToken: stolen))
        server.clock.advance(by: 901)
        await #expect(throws: APIError.sessionExpired(code: .tokenReuseDetected)) { _ = try await app.api.send(Routes.staffAuth.me) }
        try await waitUntil { app.screen == .staffLogin }
        #expect(app.notice == "You were signed out because your session was used on another device. Please sign in again.")
        app.dismissNotice()
        #expect(app.notice == nil)
    }

    @Test func aCustomer401OrAnExpiredCustomerTokenEndsTheCustomerSession() async throws {
        let server = try await LiveServer()
        try await server.run { url in try await Self.customerEnds(server: server, url: url) }
    }

    @MainActor
    static func customerEnds(server: LiveServer, url: URL) async throws {
        let transport = ObservingTransport()
        let app = AppModel(api: server.client(url, transport: transport))
        app.roles.select(.customer)
        await app.launch()
        try await app.customer.requestCode(email: "jane@example.test")
        try await app.customer.verify(code: try await server.latestCode(to: "jane@example.test"))
        #expect(app.screen == .customerMain)
        // The server ends the session (the token is refused from now on).
        let token = try #require(try app.api.store.customerCredentials()).token
        var request = URLRequest(url: url.appendingPathComponent("/api/customer/auth/logout"))
        request.httpMethod = "POST"
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        _ = try await URLSession.shared.data(for: request)
        await #expect(throws: APIError.self) { _ = try await app.api.send(Routes.customerAuth.me) }
        try await waitUntil { app.screen == .customerLogin }
        #expect(app.notice == "Your session has ended. Please sign in again.")
        #expect(try app.api.store.customerCredentials() == nil)

        // Signed in again, then the token's lifetime (7 days on the web) passes on this device's
        // clock: the session ends without asking the server.
        try await app.customer.requestCode(email: "jane@example.test")
        try await app.customer.verify(code: try await server.latestCode(to: "jane@example.test"))
        #expect(app.screen == .customerMain)
        server.clock.advance(by: 7 * 24 * 3600 + 1)
        let asked = transport.count("/api/customer/auth/me")
        await #expect(throws: APIError.sessionExpired(code: .tokenExpired)) { _ = try await app.api.send(Routes.customerAuth.me) }
        #expect(transport.count("/api/customer/auth/me") == asked)
        try await waitUntil { app.screen == .customerLogin }
    }

    @Test(arguments: [
        (500, #"{"success":false,"error":"An unexpected error occurred","code":"INTERNAL_ERROR"}"#),
        (503, "<html>bad gateway</html>"),
        (429, #"{"success":false,"error":"Too many requests","code":"RATE_LIMITED"}"#),
        (200, #"{"success":true,"data":{"unexpected":true}}"#),
    ])
    func restoreKeepsTheSessionWhenTheServerDoesNotRefuseIt(status: Int, body: String) async throws {
        let server = try await LiveServer()
        try await server.run { url in try await Self.restoreKeeps(server: server, url: url, status: status, body: body) }
    }

    @MainActor
    static func restoreKeeps(server: LiveServer, url: URL, status: Int, body: String) async throws {
        let store = InMemoryCredentialStore()
        try await signIn(StaffAuth(api: server.client(url, store: store)), server: server)
        let saved = try store.staffCredentials()
        let transport = ObservingTransport()
        transport.setCanned("/api/auth/me", status: status, body: body)
        let restored = StaffAuth(api: server.client(url, store: store, transport: transport))
        try await restored.restoreSession()
        #expect(restored.state.isOffline)
        #expect(try store.staffCredentials() == saved)
    }

    /// An offline launch is not a dead end (issue 28): back in the foreground with the server
    /// answering, the kept session is confirmed.
    @Test func anOfflineLaunchIsCheckedAgainInTheForeground() async throws {
        let server = try await LiveServer()
        try await server.run { url in try await Self.offlineRecheck(server: server, url: url) }
    }

    @MainActor
    static func offlineRecheck(server: LiveServer, url: URL) async throws {
        let store = InMemoryCredentialStore()
        try await signIn(StaffAuth(api: server.client(url, store: store)), server: server)
        let transport = ObservingTransport()
        transport.setDown("/api/auth/me", true)
        let app = AppModel(api: server.client(url, store: store, transport: transport))
        app.roles.select(.staff)
        await app.launch()
        #expect(app.staff.state.isOffline)
        app.appBecameActive()
        try await waitUntil { transport.count("/api/auth/me") >= 2 }
        #expect(app.staff.state.isOffline)
        await #expect(throws: APIError.self) { try await app.staff.reload() }  // still down: an error, not "no login"
        #expect(app.staff.state.isOffline)
        transport.setDown("/api/auth/me", false)
        app.appBecameActive()
        try await waitUntil {
            if case .signedIn = app.staff.state { true } else { false }
        }
        #expect(app.screen == .staffMain)
        app.appWillResignActive()
    }

    @Test func aCancelledRestoreKeepsTheSessionAndAnUnreadableStoreThrows() async throws {
        let server = try await LiveServer()
        try await server.run { url in try await Self.cancelledRestore(server: server, url: url) }
    }

    @MainActor
    static func cancelledRestore(server: LiveServer, url: URL) async throws {
        let store = InMemoryCredentialStore()
        try await signIn(StaffAuth(api: server.client(url, store: store)), server: server)
        let transport = ObservingTransport(), asking = Locked(false)
        transport.beforeSending("/api/auth/me") {
            asking.value = true
            // Held until the launch is cancelled: nothing moves this clock.
            try await TestClock().sleep(for: .seconds(60))
        }
        let restored = StaffAuth(api: server.client(url, store: store, transport: transport))
        let launch = Task { @MainActor in try await restored.restoreSession() }
        // Cancelled while it asks the server, whenever that is on a busy machine.
        try await waitUntil { asking.value }
        launch.cancel()
        try await launch.value
        #expect(restored.state.isOffline)
        #expect(try store.staffCredentials() != nil)

        let broken = StaffAuth(api: server.client(url, store: UnreadableStore()))
        await #expect(throws: UnreadableStore.Locked.self) { try await broken.restoreSession() }
        // Not "signed out", nor a sign-in screen: its own launch state (issue 41).
        let app = AppModel(api: server.client(url, store: UnreadableStore()))
        await app.launch()
        #expect(app.screen == .credentialsUnreadable)
        #expect(app.launchProblem == nil)
    }

    @Test func logoutWinsOverARefreshInFlight() async throws {
        let server = try await LiveServer()
        try await server.run { url in
            let store = InMemoryCredentialStore(), transport = ObservingTransport()
            let api = server.client(url, store: store, transport: transport)
            try await APIClientRefreshTests.signIn(api, server: server)
            server.clock.advance(by: 901)
            // The person signs out just as the refresh goes out; its answer must not sign them in again.
            transport.beforeSending("/api/auth/refresh") { try await api.signedOut(.staff, reason: .userInitiated) }
            await #expect(throws: APIError.notSignedIn) { _ = try await api.send(Routes.staffAuth.me) }
            #expect(transport.count("/api/auth/refresh") == 1)
            #expect(try store.staffCredentials() == nil)
            #expect(api.authState == .signedOut(reason: .userInitiated))
        }
    }

    @Test func aCallerWaitingForTheRefreshCanBeCancelled() async throws {
        let server = try await LiveServer()
        try await server.run { url in
            let transport = ObservingTransport()
            let api = server.client(url, transport: transport)
            try await APIClientRefreshTests.signIn(api, server: server)
            server.clock.advance(by: 901)
            // The refresh is held until the test lets it go; a cancelled caller must not wait for it.
            let refreshing = Locked(false), released = Locked(false)
            transport.beforeSending("/api/auth/refresh") {
                refreshing.value = true
                try await waitUntil("the refresh released") { released.value }
            }
            let first = Task { try await api.send(Routes.staffAuth.me).user.email }
            try await waitUntil { refreshing.value }
            let second = Task { try await api.send(Routes.staffAuth.me).user.email }
            // Cancelled once it waits for the refresh in flight (the first caller waits too).
            try await waitUntil("the second caller joined the refresh") { await api.staffRefreshWaiters == 2 }
            second.cancel()
            await #expect(throws: CancellationError.self) { _ = try await second.value }
            // It ended while the refresh was still held: it did not wait for it.
            #expect(!released.value)
            released.value = true
            #expect(try await first.value == DemoFixtures.adminEmail)
            #expect(transport.count("/api/auth/refresh") == 1)
        }
    }

    @Test func networkFailuresDoNotCountTowardsTheRefreshLimit() async throws {
        let server = try await LiveServer()
        try await server.run { url in
            let transport = ObservingTransport()
            let clock = server.clock
            let api = APIClient(
                baseURL: url, store: InMemoryCredentialStore(), transport: transport, maxRefreshesPerMinute: 1,
                now: { Date(timeIntervalSince1970: clock.now) })
            try await APIClientRefreshTests.signIn(api, server: server)
            server.clock.advance(by: 901)
            transport.setDown("/api/auth/refresh", true)
            for _ in 0..<3 {
                await #expect(throws: APIError.self) { _ = try await api.send(Routes.staffAuth.me) }
            }
            transport.setDown("/api/auth/refresh", false)
            #expect(try await api.send(Routes.staffAuth.me).user.email == DemoFixtures.adminEmail)
            // The one refresh of the minute that reached the server is the limit: a 401 now
            // would need a second one.
            transport.setCanned("/api/auth/me", status: 401, body: #"{"success":false,"error":"Authentication required","code":"UNAUTHORIZED"}"#)
            await #expect(throws: APIError.refreshLimitExceeded) { _ = try await api.send(Routes.staffAuth.me) }
            #expect(transport.count("/api/auth/refresh") == 4)
        }
    }

    /// A device clock an hour ahead of the server's: expiry is planned from `expiresIn` on the
    /// device's own clock, so it does not refresh on every call.
    @Test func aSkewedDeviceClockDoesNotRefreshOnEveryCall() async throws {
        let server = try await LiveServer()
        try await server.run { url in
            let transport = ObservingTransport()
            let clock = server.clock
            let api = APIClient(
                baseURL: url, store: InMemoryCredentialStore(), transport: transport,
                now: { Date(timeIntervalSince1970: clock.now + 3600) })
            try await APIClientRefreshTests.signIn(api, server: server)
            for _ in 0..<3 { _ = try await api.send(Routes.staffAuth.me) }
            #expect(transport.count("/api/auth/refresh") == 0)
        }
    }

    @Test(arguments: [#"{"success":false,"error":"Unauthorized","code":"SOMETHING_NEW"}"#, "Unauthorized"])
    func anyRefusalOfTheRefreshIsFinal(body: String) async throws {
        let server = try await LiveServer()
        try await server.run { url in
            let store = InMemoryCredentialStore(), transport = ObservingTransport()
            let api = server.client(url, store: store, transport: transport)
            try await APIClientRefreshTests.signIn(api, server: server)
            server.clock.advance(by: 901)
            transport.setCanned("/api/auth/refresh", status: 401, body: body)
            await #expect(throws: APIError.self) { _ = try await api.send(Routes.staffAuth.me) }
            #expect(try store.staffCredentials() == nil)
            guard case .signedOut(.sessionRejected) = api.authState else {
                Issue.record("still \(api.authState)")
                return
            }
        }
    }

    @Test func theForegroundRefreshRunsOnlyWhileActive() async throws {
        let server = try await LiveServer()
        try await server.run { url in try await Self.foreground(server: server, url: url) }
    }

    @MainActor
    static func foreground(server: LiveServer, url: URL) async throws {
        let transport = ObservingTransport(), store = InMemoryCredentialStore()
        let app = AppModel(api: server.client(url, store: store, transport: transport), clock: server.clock.sdkClock)
        try await signIn(app.staff, server: server)
        let before = try store.staffCredentials()
        server.clock.advance(by: 850)
        app.appBecameActive()
        #expect(app.isKeepingSessionFresh)
        // Refreshed (and saved) without any request asking for it, then asleep until a minute
        // before the new token expires.
        try await waitUntil { (try? store.staffCredentials()) != before }
        try await waitUntil { server.clock.sleeping == 1 }
        #expect(transport.count("/api/auth/refresh") == 1)
        // The timer fires when the clock reaches it: the next refresh, with no request asking.
        let refreshed = try store.staffCredentials()
        server.clock.advance(by: 850)
        try await waitUntil { (try? store.staffCredentials()) != refreshed }
        try await waitUntil { server.clock.sleeping == 1 }
        #expect(transport.count("/api/auth/refresh") == 2)
        app.appWillResignActive()
        #expect(!app.isKeepingSessionFresh)
        // Nothing left running: the timer is gone, so no refresh while inactive.
        try await waitUntil { server.clock.sleeping == 0 }
        server.clock.advance(by: 901)
        #expect(transport.count("/api/auth/refresh") == 2)
        #expect(try await app.api.refreshIfNeeded() != nil)
        #expect(transport.count("/api/auth/refresh") == 3)
    }
}

/// A credential store whose reads fail, as a locked Keychain's do.
extension StaffAuth.State {
    /// `.offline`, with or without the last signed-in user.
    var isOffline: Bool { if case .offline = self { true } else { false } }
}

struct UnreadableStore: CredentialStore {
    struct Locked: Error {}
    func read(_ key: CredentialKey) throws -> Data? {
        if key == .role { return Data("staff".utf8) }
        throw Locked()
    }
    func write(_ data: Data, for key: CredentialKey) throws { throw Locked() }
    func delete(_ key: CredentialKey) throws { throw Locked() }
}
