import Foundation
import Observation

/// An opt-in lock in front of the stored session, as Auth0's and Supabase's SDKs offer: with it
/// on, the app asks for Face ID or Touch ID before it uses the session at launch, and again
/// when it comes back after `lockAfter` in the background. Until then `AppModel.screen` is
/// `.locked` and nothing is sent with the session. The setting is this device's (in
/// `UserDefaults`); the lock keeps a stranger holding an unlocked phone out of the app, it is
/// not a second factor for the server.
@MainActor @Observable
public final class BiometricLock {
    /// The `UserDefaults` key of the setting.
    public static let enabledKey = "com.repairminder.kit.biometric-lock"

    /// Seconds on a clock that only moves forward and counts sleep (not the wall clock, which a
    /// person holding the phone could set back to skip the lock).
    public nonisolated static let monotonicSeconds: @Sendable () -> TimeInterval = {
        let elapsed = ContinuousClock.now - clockStart
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
    private nonisolated static let clockStart = ContinuousClock.now

    /// Whether the lock is on (the Settings switch).
    public private(set) var isEnabled: Bool
    /// Whether the app is locked now.
    public private(set) var isLocked = false
    /// Why the last unlock or enabling failed, for the screen; nil otherwise.
    public private(set) var problem: String?
    /// How long the app may stay in the background before it locks again.
    public let lockAfter: TimeInterval
    @ObservationIgnored private let authenticator: any DeviceOwnerAuthenticator
    @ObservationIgnored private let defaults: UserDefaults
    @ObservationIgnored private let now: @Sendable () -> TimeInterval
    @ObservationIgnored private var wentToBackgroundAt: TimeInterval?

    public init(
        authenticator: any DeviceOwnerAuthenticator, lockAfter: TimeInterval = 5 * 60, defaults: UserDefaults = .standard,
        now: @escaping @Sendable () -> TimeInterval = BiometricLock.monotonicSeconds
    ) {
        self.authenticator = authenticator
        self.lockAfter = lockAfter
        self.defaults = defaults
        self.now = now
        isEnabled = defaults.bool(forKey: Self.enabledKey)
    }

    /// "Face ID" or "Touch ID"; nil: this device cannot offer the lock.
    public var biometryName: String? { authenticator.biometryName }

    /// Turns the lock on once the person passed the prompt (so they know it works), or off.
    public func setEnabled(_ enabled: Bool) async {
        problem = nil
        guard enabled else { return remember(false) }
        guard let name = biometryName else {
            problem = "This device has no Face ID or Touch ID set up."
            return
        }
        if await passes(reason: "Turn on \(name) for Repair Minder") { remember(true) }
    }

    private func remember(_ enabled: Bool) {
        isEnabled = enabled
        defaults.set(enabled, forKey: Self.enabledKey)
    }

    /// Asks for Face ID or Touch ID; a pass unlocks the app.
    @discardableResult
    public func unlock() async -> Bool {
        guard isLocked else { return true }
        if await passes(reason: "Unlock Repair Minder") {
            isLocked = false
            problem = nil
            return true
        }
        return false
    }

    /// Locks at launch when the lock is on and there is a session to protect.
    func lockAtLaunch(hasSession: Bool) {
        // Read again: a process started before the first unlock (iOS prewarming) may have read
        // the settings before they could be.
        isEnabled = defaults.bool(forKey: Self.enabledKey)
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
