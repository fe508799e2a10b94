import Foundation
import Observation

/// An opt-in lock in front of the stored session, as Auth0's and Supabase's SDKs offer: with it
/// on, the app asks for Face ID or Touch ID before it uses the session at launch, and again
/// when it comes back after `lockAfter` in the background. Until then `AppModel.screen` is
/// `.locked` and nothing is sent with the session.
///
/// The setting is kept in the credential store (the Keychain on a phone,
/// `BiometricLockSetting`), not in `UserDefaults`. With `guardsCredentials` (on by default
/// where the store can, `setEnabled(_:guardingCredentials:)`) the lock is more than a screen:
/// the staff session's refresh token is stored under `SecAccessControl` `.biometryCurrentSet`
/// and its access token kept in memory only, so after a launch the Keychain itself asks for
/// Face ID before anything can use the session (`APIClient.unlockStaffSession()`).
@MainActor @Observable
public final class BiometricLock {
    /// The `UserDefaults` key where versions before the setting moved to the credential store
    /// kept it; read once to carry it over, then removed.
    public static let enabledKey = "com.repairminder.kit.biometric-lock"

    /// Seconds on a clock that only moves forward and counts sleep (not the wall clock, which a
    /// person holding the phone could set back to skip the lock).
    public nonisolated static let monotonicSeconds: @Sendable () -> TimeInterval = {
        let elapsed = ContinuousClock.now - clockStart
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
    private nonisolated static let clockStart = ContinuousClock.now

    /// Whether the lock is on (the Settings switch).
    public private(set) var isEnabled = false
    /// Whether the staff session's credentials are guarded by the Keychain too.
    public private(set) var guardsCredentials = false
    /// Whether the app is locked now.
    public private(set) var isLocked = false
    /// Why the last unlock or enabling failed, for the screen; nil otherwise.
    public private(set) var problem: String?
    /// How long the app may stay in the background before it locks again.
    public let lockAfter: TimeInterval
    @ObservationIgnored private let authenticator: any DeviceOwnerAuthenticator
    @ObservationIgnored private var api: APIClient?
    @ObservationIgnored private let legacyDefaults: UserDefaults?
    @ObservationIgnored private let now: @Sendable () -> TimeInterval
    @ObservationIgnored private var wentToBackgroundAt: TimeInterval?

    /// - Parameters:
    ///   - api: whose credential store keeps the setting and whose session the lock guards;
    ///     `AppModel` gives its own when it is nil.
    ///   - legacyDefaults: where an older version kept the setting, carried over once.
    public init(
        authenticator: any DeviceOwnerAuthenticator, lockAfter: TimeInterval = 5 * 60, api: APIClient? = nil,
        legacyDefaults: UserDefaults? = .standard, now: @escaping @Sendable () -> TimeInterval = BiometricLock.monotonicSeconds
    ) {
        self.authenticator = authenticator
        self.lockAfter = lockAfter
        self.legacyDefaults = legacyDefaults
        self.now = now
        if let api { attach(api) }
    }

    /// Keeps the setting in `api`'s credential store and guards its session (`AppModel` calls it).
    func attach(_ api: APIClient) {
        guard self.api == nil else { return }
        self.api = api
        readSetting()
    }

    /// The setting as stored, carrying over one an older version left in `UserDefaults`.
    private func readSetting() {
        guard let store = api?.store else { return }
        if let legacyDefaults, legacyDefaults.object(forKey: Self.enabledKey) != nil, (try? store.biometricLockSetting()) == nil {
            let setting = BiometricLockSetting(isEnabled: legacyDefaults.bool(forKey: Self.enabledKey), guardsCredentials: false)
            if (try? store.saveBiometricLockSetting(setting)) != nil { legacyDefaults.removeObject(forKey: Self.enabledKey) }
        }
        // An unreadable store leaves the lock as it was: the launch says the store is unreadable.
        guard let setting = try? store.biometricLockSetting() else { return }
        isEnabled = setting.isEnabled
        guardsCredentials = setting.guardsCredentials
    }

    /// "Face ID" or "Touch ID"; nil: this device cannot offer the lock.
    public var biometryName: String? { authenticator.biometryName }

    /// Turns the lock on once the person passed the prompt (so they know it works), or off.
    /// On, it guards the staff session's credentials too (`guardingCredentials`, where the
    /// store can: the Keychain); off, they go back to an ordinary Keychain item.
    public func setEnabled(_ enabled: Bool, guardingCredentials: Bool = true) async {
        problem = nil
        guard enabled else { return await remember(false, guarding: false) }
        guard let name = biometryName else {
            problem = "This device has no Face ID or Touch ID set up."
            return
        }
        guard await passes(reason: "Turn on \(name) for Repair Minder") else { return }
        await remember(true, guarding: guardingCredentials && api?.store.supportsBiometricProtection == true)
    }

    private func remember(_ enabled: Bool, guarding: Bool) async {
        guard let api else {
            isEnabled = enabled
            return
        }
        do {
            // The session moves first: a setting that says "guarded" always describes it.
            try await api.guardStaffCredentials(guarding)
            try api.store.saveBiometricLockSetting(BiometricLockSetting(isEnabled: enabled, guardsCredentials: guarding))
            isEnabled = enabled
            guardsCredentials = guarding
        } catch {
            problem = "The setting could not be saved: \(error.localizedDescription)"
        }
    }

    /// Asks for Face ID or Touch ID; a pass unlocks the app.
    @discardableResult
    public func unlock() async -> Bool {
        guard isLocked else { return true }
        if await passes(reason: "Unlock Repair Minder") {
            unlocked()
            return true
        }
        return false
    }

    /// The Keychain's own prompt passed (a guarded session was read): the app is open.
    func unlocked() {
        isLocked = false
        problem = nil
    }

    /// The Keychain's prompt for a guarded session was cancelled or failed.
    func unlockFailed(_ error: any Error) {
        problem = switch error {
        case CredentialAccessError.cancelled, CredentialAccessError.notRecognised: "Not recognised. Try again, or sign out."
        default: "\(biometryName ?? "Face ID") is not available: \(error.localizedDescription)"
        }
    }

    /// Locks at launch when the lock is on and there is a session to protect.
    func lockAtLaunch(hasSession: Bool) {
        // Read again: a process started before the first unlock (iOS prewarming) may have read
        // the settings before they could be.
        readSetting()
        isLocked = isEnabled && hasSession
    }

    /// The app went to the background: the clock for `lockAfter` starts.
    func wentToBackground() {
        if wentToBackgroundAt == nil { wentToBackgroundAt = now() }
    }

    /// The app is back: locked when it was away `lockAfter` or longer with a session.
    func cameToForeground(hasSession: Bool) {
        defer { wentToBackgroundAt = nil }
        guard isEnabled, hasSession, let since = wentToBackgroundAt, now() - since >= lockAfter else { return }
        isLocked = true
    }

    /// Signing out from the lock screen ends the lock with the session.
    func sessionEnded() {
        isLocked = false
    }

    private func passes(reason: String) async -> Bool {
        do {
            if try await authenticator.authenticate(reason: reason) { return true }
            problem = "Not recognised. Try again, or sign out."
        } catch {
            problem = "\(biometryName ?? "Face ID") is not available: \(error.localizedDescription)"
        }
        return false
    }
}
