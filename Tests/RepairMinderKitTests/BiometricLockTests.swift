import Foundation
import RepairMinderKit
import RepairMinderModels
import RepairMinderServer
import TestSupport
import Testing

/// The opt-in Face ID / Touch ID lock (issue 28, item 3), with a scripted authenticator, against
/// the live server: nothing is sent with the session until the person passes.
@MainActor
@Suite struct BiometricLockTests {
    /// Answers as scripted, counting the prompts.
    final class FakeBiometrics: DeviceOwnerAuthenticator, @unchecked Sendable {
        var biometryName: String? = "Face ID"
        var answers: [Bool] = []
        private(set) var prompts: [String] = []
        func authenticate(reason: String) async throws -> Bool {
            prompts.append(reason)
            return answers.isEmpty ? false : answers.removeFirst()
        }
    }

    final class Clock: @unchecked Sendable {
        private let lock = NSLock()
        private var current: TimeInterval = 1000
        var now: TimeInterval { lock.withLock { current } }
        func advance(_ seconds: TimeInterval) { lock.withLock { current += seconds } }
    }

    static func defaults() throws -> (UserDefaults, String) {
        let suite = "BiometricLockTests-\(UUID().uuidString)"
        return (try #require(UserDefaults(suiteName: suite)), suite)
    }

    /// A lock whose setting is in the app's credential store (no `UserDefaults`).
    static func lock(_ biometrics: FakeBiometrics, lockAfter: TimeInterval = 300, now: (@Sendable () -> TimeInterval)? = nil) -> BiometricLock {
        BiometricLock(authenticator: biometrics, lockAfter: lockAfter, legacyDefaults: nil, now: now ?? BiometricLock.monotonicSeconds)
    }

    @Test func aLockedLaunchSendsNothingUntilThePersonPasses() async throws {
        let server = try await LiveServer()
        try await server.run { url in try await Self.lockedLaunch(server: server, url: url) }
    }

    static func lockedLaunch(server: LiveServer, url: URL) async throws {
        let store = InMemoryCredentialStore(), biometrics = FakeBiometrics()
        // First run: sign in, turn the lock on (it asks once, so the person knows it works).
        let first = AppModel(api: server.client(url, store: store), lock: Self.lock(biometrics))
        first.roles.select(.staff)
        await first.launch()
        try await SessionStateTests.signIn(first.staff, server: server)
        biometrics.answers = [true]
        await first.lock?.setEnabled(true)
        #expect(first.lock?.isEnabled == true)
        #expect(biometrics.prompts == ["Turn on Face ID for Repair Minder"])

        // Next launch: locked, and nothing is sent with the stored session until a pass: not
        // /me, not the foreground refresh (the scene turns active first, as SwiftUI does), not
        // the push registration (notifications were allowed before, so the token comes at once).
        let transport = ObservingTransport()
        let push = PushAndDeepLinkTests.FakePushSystem(allows: true, status: .authorized)
        let app = AppModel(
            api: server.client(url, store: store, transport: transport), push: push,
            lock: Self.lock(biometrics))
        push.coordinator = app.push
        app.appBecameActive()
        await app.launch()
        app.appBecameActive()
        #expect(app.screen == .locked)
        biometrics.answers = [false]
        await app.unlock()
        #expect(app.screen == .locked)
        #expect(app.lock?.problem == "Not recognised. Try again, or sign out.")
        // Nothing was started while locked (no timer, no task with the session), so there is
        // nothing to wait for; a request sent later anyway would show in the exact counts
        // after the unlock below.
        #expect(transport.sessionRequests == 0)
        #expect(push.prompts == 0)
        #expect(!app.isKeepingSessionFresh)
        biometrics.answers = [true]
        await app.unlock()
        #expect(app.screen == .staffMain)
        #expect(app.lock?.problem == nil)
        #expect(transport.count("/api/auth/me") == 1)
        try await waitUntil { transport.count("POST", "/api/user/device-token") == 1 }
        #expect(app.isKeepingSessionFresh)
        app.appWillResignActive()
        #expect(transport.count("/api/auth/me") == 1)
        #expect(push.prompts == 0)
        #expect(biometrics.prompts.suffix(2) == ["Unlock Repair Minder", "Unlock Repair Minder"])
    }

    @Test func signingOutFromTheLockEndsTheSession() async throws {
        let server = try await LiveServer()
        try await server.run { url in try await Self.signOutFromLock(server: server, url: url) }
    }

    static func signOutFromLock(server: LiveServer, url: URL) async throws {
        let store = InMemoryCredentialStore(), biometrics = FakeBiometrics()
        try store.saveBiometricLockSetting(BiometricLockSetting(isEnabled: true, guardsCredentials: false))
        let first = AppModel(api: server.client(url, store: store))
        first.roles.select(.staff)
        await first.launch()
        try await SessionStateTests.signIn(first.staff, server: server)
        let stolen = try #require(try store.staffCredentials())

        let app = AppModel(api: server.client(url, store: store), lock: Self.lock(biometrics))
        await app.launch()
        #expect(app.screen == .locked)
        await app.signOutFromLock()
        #expect(app.screen == .staffLogin)
        #expect(try store.staffCredentials() == nil)
        // Ended on the server too: the old refresh token no longer works.
        let other = server.client(url)
        await #expect(throws: APIError.self) {
            _ = try await other.send(Routes.staffAuth.refresh, RefreshRequest(refreshToken: stolen.refreshToken))
        }
    }

    @Test func theAppLocksAgainOnlyAfterLockAfterInTheBackground() async throws {
        let server = try await LiveServer()
        try await server.run { url in try await Self.background(server: server, url: url) }
    }

    static func background(server: LiveServer, url: URL) async throws {
        let clock = Clock(), biometrics = FakeBiometrics()
        let lock = Self.lock(biometrics, now: { clock.now })
        let app = AppModel(api: server.client(url), lock: lock)
        app.roles.select(.staff)
        await app.launch()
        try await SessionStateTests.signIn(app.staff, server: server)
        biometrics.answers = [true]
        await lock.setEnabled(true)

        app.appWillResignActive()
        clock.advance(299)
        app.appBecameActive()
        #expect(app.screen == .staffMain)
        app.appWillResignActive()
        clock.advance(300)
        app.appBecameActive()
        #expect(app.screen == .locked)
        #expect(!app.isKeepingSessionFresh)
        biometrics.answers = [true]
        await app.unlock()
        #expect(app.screen == .staffMain)
        #expect(app.isKeepingSessionFresh)
        app.appWillResignActive()
    }

    @Test func theLockCannotBeTurnedOnWithoutBiometricsOrAPass() async throws {
        let biometrics = FakeBiometrics()
        biometrics.biometryName = nil
        let store = InMemoryCredentialStore()
        let lock = BiometricLock(
            authenticator: biometrics, api: APIClient(baseURL: URL(string: "http://127.0.0.1:9")!, store: store), legacyDefaults: nil)
        await lock.setEnabled(true)
        #expect(!lock.isEnabled)
        #expect(lock.problem == "This device has no Face ID or Touch ID set up.")
        #expect(biometrics.prompts.isEmpty)
        biometrics.biometryName = "Touch ID"
        biometrics.answers = [false]
        await lock.setEnabled(true)
        #expect(!lock.isEnabled)
        #expect(try store.biometricLockSetting() == nil)
        // Off: the app launches straight into the session.
        let app = AppModel(api: APIClient(baseURL: URL(string: "http://127.0.0.1:9")!, store: store), lock: lock)
        await app.launch()
        #expect(app.screen == .roleSelection)
    }
}
