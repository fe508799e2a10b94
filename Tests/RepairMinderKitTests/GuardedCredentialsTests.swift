import Foundation
import RepairMinderKit
import RepairMinderModels
import RepairMinderServer
import TestSupport
import Testing

/// Credentials the OS guards (issue 41, item 2), through the credential-store protocol with a
/// fake Keychain that can be locked and keeps access-controlled items.
@MainActor
@Suite struct GuardedCredentialsTests {
    typealias FakeBiometrics = BiometricLockTests.FakeBiometrics

    static let nowhere = URL(string: "http://127.0.0.1:9")!

    /// A store with a staff session chosen and saved, as a previous launch left it.
    static func storeWithStaffSession() throws -> FakeKeychain {
        let store = FakeKeychain()
        try store.saveRole(.staff)
        try store.saveStaff(StaffCredentials(accessToken: "access", refreshToken: "refresh", accessTokenExpiresAt: Date().addingTimeInterval(600)))
        return store
    }

    @Test func aLockedKeychainIsItsOwnLaunchStateNeverSignedOut() async throws {
        let store = try Self.storeWithStaffSession()
        store.isLocked = true
        let api = APIClient(baseURL: Self.nowhere, store: store, retry: .none)
        #expect(api.authState == .credentialsUnreadable)
        #expect(throws: FakeKeychain.DeviceLocked.self) { try api.storedSessionRole() }
        let app = AppModel(api: api)
        #expect(app.roles.readFailed)
        await app.launch()
        // Neither role selection nor a sign-in screen: the person is told to unlock the device.
        #expect(app.screen == .credentialsUnreadable)
        #expect(AppModel.credentialsUnreadableMessage == "Could not read your sign-in. Unlock your device, then try again.")
        await app.retryReadingCredentials()
        #expect(app.screen == .credentialsUnreadable)

        // Unlocked: "Try again" (or coming back to the foreground) goes on with the launch; the
        // server cannot be reached here, so the session is kept offline, not lost.
        store.isLocked = false
        await app.retryReadingCredentials()
        #expect(app.roles.role == .staff)
        #expect(api.authState == .signedIn(.staff))
        #expect(app.screen == .staffMain)
        #expect(app.staff.state.isOffline)
        #expect(try store.staffCredentials() != nil)
    }

    @Test func theLocksSettingIsInTheCredentialStoreNotUserDefaults() async throws {
        let suite = "GuardedCredentialsTests-\(UUID().uuidString)"
        let defaults = try #require(UserDefaults(suiteName: suite))
        defer { defaults.removePersistentDomain(forName: suite) }
        // What an older version left in UserDefaults is carried over once, then removed.
        defaults.set(true, forKey: BiometricLock.enabledKey)
        let store = FakeKeychain(), biometrics = FakeBiometrics()
        let api = APIClient(baseURL: Self.nowhere, store: store)
        let lock = BiometricLock(authenticator: biometrics, api: api, legacyDefaults: defaults)
        #expect(lock.isEnabled)
        #expect(try store.biometricLockSetting() == BiometricLockSetting(isEnabled: true, guardsCredentials: false))
        #expect(defaults.object(forKey: BiometricLock.enabledKey) == nil)
        await lock.setEnabled(false)
        #expect(try store.biometricLockSetting() == BiometricLockSetting(isEnabled: false, guardsCredentials: false))
        // Turned on, it guards the credentials by default where the store can.
        biometrics.answers = [true]
        await lock.setEnabled(true)
        #expect(try store.biometricLockSetting() == BiometricLockSetting(isEnabled: true, guardsCredentials: true))
        #expect(lock.guardsCredentials)
        // And on a store that cannot (a file, memory) the lock is a screen lock only.
        let plain = BiometricLock(authenticator: biometrics, api: APIClient(baseURL: Self.nowhere, store: InMemoryCredentialStore()), legacyDefaults: nil)
        biometrics.answers = [true]
        await plain.setEnabled(true)
        #expect(plain.isEnabled)
        #expect(!plain.guardsCredentials)
    }

    @Test func aGuardedSessionCannotBeUsedUntilTheKeychainsPromptPasses() async throws {
        let server = try await LiveServer()
        try await server.run { url in try await Self.guardedSession(server: server, url: url) }
    }

    /// A refresh while the phone is locked, when guarded items can be neither read nor written,
    /// keeps the session: its tokens in memory, written when the phone is unlocked, and the
    /// stored session whole meanwhile (issue 52, item 3). Before, the old item was deleted
    /// first: both were lost, and the next launch's refresh looked like a stolen token's reuse.
    @Test func aRefreshWhileThePhoneIsLockedKeepsTheSession() async throws {
        let server = try await LiveServer()
        try await server.run { url in try await Self.lockedPhoneRefresh(server: server, url: url) }
    }

    static func lockedPhoneRefresh(server: LiveServer, url: URL) async throws {
        do {
            let store = FakeKeychain(), biometrics = FakeBiometrics()
            let app = try await Self.signedInWithTheLockOn(server: server, url: url, store: store, biometrics: biometrics)
            let stored = try #require(store.raw(.staffGuarded))

            store.refusesGuardedItems = true
            server.clock.advance(by: 901)
            #expect(try await app.api.send(Routes.staffAuth.me).user.email == DemoFixtures.adminEmail)
            #expect(app.api.staffSessionIsUnsaved)
            #expect(store.raw(.staffGuarded) == stored, "the stored session stays whole")
            // Still locked: the next refresh sends the newest token, which the server takes.
            server.clock.advance(by: 901)
            #expect(try await app.api.send(Routes.staffAuth.me).user.email == DemoFixtures.adminEmail)

            // Unlocked, back in front: the newest is written to the other item, then named.
            store.refusesGuardedItems = false
            app.appBecameActive()
            #expect(!app.api.staffSessionIsUnsaved)
            #expect(store.raw(.staffGuarded) == nil)
            #expect(store.protection(of: .staffGuardedSpare) == .biometryCurrentSet)
            #expect(store.raw(.staffGuardedCurrent) == Data(CredentialKey.staffGuardedSpare.rawValue.utf8))

            // The next launch unlocks that one and refreshes with it: no reuse, the session lives.
            let next = AppModel(api: server.client(url, store: store), lock: BiometricLockTests.lock(biometrics))
            await next.launch()
            store.answer(.pass)
            await next.unlock()
            #expect(next.screen == .staffMain)
            #expect(try await next.api.send(Routes.staffAuth.me).user.email == DemoFixtures.adminEmail)
            // Each later save goes to the other item; one holds the session, named. Signing out clears all three.
            server.clock.advance(by: 901)
            _ = try await next.api.send(Routes.staffAuth.me)
            let held = try #require(Self.guardedHolder(store))
            #expect([CredentialKey.staffGuarded, .staffGuardedSpare].filter { store.raw($0) != nil } == [held])
            await next.staff.logout()
            #expect([CredentialKey.staffGuarded, .staffGuardedSpare, .staffGuardedCurrent].allSatisfy { store.raw($0) == nil })
        }
    }

    /// An app signed in as the demo admin on `store`, with the Face ID lock turned on (so the
    /// session is guarded).
    static func signedInWithTheLockOn(server: LiveServer, url: URL, store: FakeKeychain, biometrics: FakeBiometrics) async throws -> AppModel {
        let app = AppModel(api: server.client(url, store: store), lock: BiometricLockTests.lock(biometrics))
        app.roles.select(.staff)
        await app.launch()
        try await SessionStateTests.signIn(app.staff, server: server)
        biometrics.answers = [true]
        await app.lock?.setEnabled(true)
        return app
    }

    /// The guarded item that holds the session, as the ordinary item names it, when it is guarded.
    static func guardedHolder(_ store: FakeKeychain) -> CredentialKey? {
        let named = store.raw(.staffGuardedCurrent).flatMap { CredentialKey(rawValue: String(decoding: $0, as: UTF8.self)) }
        guard let named, store.protection(of: named) == .biometryCurrentSet else { return nil }
        return named
    }

    static func guardedSession(server: LiveServer, url: URL) async throws {
        let store = FakeKeychain(), biometrics = FakeBiometrics()
        let first = try await Self.signedInWithTheLockOn(server: server, url: url, store: store, biometrics: biometrics)
        #expect(first.api.staffCredentialsAreGuarded)
        // The refresh token is under .biometryCurrentSet; no access token is stored at all.
        #expect(store.protection(of: .staffGuarded) == .biometryCurrentSet)
        #expect(store.raw(.staff) == nil)
        let kept = try JSONDecoder().decode(SessionCredentials.self, from: try #require(store.raw(.staffGuarded)))
        #expect(kept.accessToken.isEmpty)
        #expect(!kept.refreshToken.isEmpty)
        // This launch goes on with the token in memory, and a refresh keeps it guarded.
        #expect(try await first.api.send(Routes.staffAuth.me).user.email == DemoFixtures.adminEmail)
        server.clock.advance(by: 901)
        _ = try await first.api.send(Routes.staffAuth.me)
        #expect(store.raw(.staff) == nil)
        #expect(Self.guardedHolder(store) != nil)
        #expect(store.prompts == 0)

        // Next launch: nothing can use the session before the Keychain's prompt passes.
        let transport = ObservingTransport()
        let app = AppModel(api: server.client(url, store: store, transport: transport), lock: BiometricLockTests.lock(biometrics))
        await app.launch()
        #expect(app.screen == .locked)
        #expect(app.api.staffSessionIsLocked)
        await #expect(throws: CredentialAccessError.sessionLocked) { _ = try await app.api.send(Routes.staffAuth.me) }
        await #expect(throws: CredentialAccessError.sessionLocked) { _ = try await app.api.validAccessToken() }
        #expect(transport.sessionRequests == 0)
        // Cancelled: still locked, and nothing sent.
        let screenPrompts = biometrics.prompts.count
        store.answer(.cancel)
        await app.unlock()
        #expect(app.screen == .locked)
        #expect(app.lock?.problem == "Not recognised. Try again, or sign out.")
        #expect(transport.sessionRequests == 0)
        // Passed: one prompt, the Keychain's (not the lock's as well); the first request refreshes,
        // since no access token was kept.
        store.answer(.pass)
        await app.unlock()
        #expect(store.prompts == 2)
        #expect(biometrics.prompts.count == screenPrompts)
        #expect(app.screen == .staffMain)
        #expect(transport.count("/api/auth/refresh") == 1)
        #expect(transport.count("/api/auth/me") == 1)

        // Turning the lock off moves the session back to an ordinary item.
        await app.lock?.setEnabled(false)
        #expect(!app.api.staffCredentialsAreGuarded)
        #expect([CredentialKey.staffGuarded, .staffGuardedSpare, .staffGuardedCurrent].allSatisfy { store.raw($0) == nil })
        #expect(store.protection(of: .staff) == .standard)
        #expect(try store.staffCredentials()?.accessToken.isEmpty == false)
        #expect(try store.biometricLockSetting() == BiometricLockSetting(isEnabled: false, guardsCredentials: false))

        // On again (the session moves back under biometrics), then signing out clears it all.
        biometrics.answers = [true]
        await app.lock?.setEnabled(true)
        #expect(store.protection(of: .staffGuarded) == .biometryCurrentSet)
        #expect(store.raw(.staff) == nil)
        #expect(try store.staffProfile() != nil)
        await app.staff.logout()
        #expect([CredentialKey.staffGuarded, .staffGuardedSpare, .staffGuardedCurrent].allSatisfy { store.raw($0) == nil })
        #expect(store.raw(.staff) == nil)
        #expect(try store.staffProfile() == nil)
        #expect(app.screen == .staffLogin)
    }
}
