#if canImport(AuthenticationServices)
// The decisions need no Apple framework; they are compiled where the passkey sheet is.
import RepairMinderKit

/// How one `ASAuthorizationController` request ended, in terms that need no Apple framework,
/// so that the decisions below are tested on Linux too (`PasskeyRequestPolicyTests`).
public enum PasskeyRequestEnd: Equatable, Sendable {
    /// `ASAuthorizationError.canceled`: the person closed the sheet, the app called `cancel()`,
    /// or (asking for passkeys on this device only) the device has none.
    case canceled
    /// `ASAuthorizationError.notInteractive`: the request needed the person and could not ask.
    case notInteractive
    /// `ASAuthorizationError.matchedExcludedCredential` (iOS 18): the device already holds a
    /// passkey the request excluded, that is one already registered for this account.
    case matchedExcludedCredential
    /// Any other failure; its description.
    case failed(String)
}

/// Which passkeys a request offers.
public enum PasskeyRequestScope: Equatable, Sendable {
    /// Only those already on this device (`.preferImmediatelyAvailableCredentials`): with none,
    /// the request fails at once instead of showing the QR code for another device.
    case thisDeviceOnly
    /// Any, including another device's through the QR code sheet, and security keys.
    case anyDevice
}

/// The decisions around a passkey request: what to ask for, and the SDK error for how it ended.
public enum PasskeyRequestPolicy {
    /// A failure that arrives sooner than this after the request started came from the system
    /// (no passkey on this device), not from the person closing the sheet.
    public static let immediateAnswer: Duration = .seconds(1)

    /// What a sign-in asks for: a usernameless one (no allowed credentials) only the passkeys on
    /// this device, so a device with none falls back to the password form; a second factor
    /// (the account's own passkeys) any device's, as the account may keep them elsewhere.
    public static func scope(allowedCredentialCount: Int) -> PasskeyRequestScope {
        allowedCredentialCount == 0 ? .thisDeviceOnly : .anyDevice
    }

    /// Whether the device has no passkey for this site: a request for this device's passkeys
    /// only that was refused at once.
    public static func foundNoPasskeyOnDevice(_ end: PasskeyRequestEnd, scope: PasskeyRequestScope, after elapsed: Duration) -> Bool {
        scope == .thisDeviceOnly && (end == .canceled || end == .notInteractive) && elapsed < immediateAnswer
    }

    /// The SDK's error for how a request ended. `taskCancelled`: the Swift task was cancelled
    /// (and the controller with it), which is quiet like the person's own cancel.
    public static func error(
        for end: PasskeyRequestEnd, scope: PasskeyRequestScope, after elapsed: Duration, taskCancelled: Bool
    ) -> PasskeyError {
        if taskCancelled { return .cancelled }
        if foundNoPasskeyOnDevice(end, scope: scope, after: elapsed) { return .noPasskeyOnDevice }
        switch end {
        case .canceled: return .cancelled
        case .notInteractive: return .notInteractive
        case .matchedExcludedCredential: return .alreadyRegistered
        case .failed(let description): return .failed(description)
        }
    }
}
#endif
