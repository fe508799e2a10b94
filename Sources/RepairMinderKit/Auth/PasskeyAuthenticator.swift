import Foundation
import RepairMinderModels

/// What makes and uses passkeys for the SDK (docs/API.md §11): the platform's authenticator
/// on iOS and macOS (`PlatformPasskeyAuthenticator`), a software one in tests. It takes the
/// server's options as they come and answers in WebAuthn Level 3's JSON, which the SDK sends on.
public protocol PasskeyAuthenticator: Sendable {
    /// Makes a passkey for `options.user` (enrolment).
    func createPasskey(_ options: PublicKeyCredentialCreationOptionsJSON) async throws -> RegistrationResponseJSON
    /// Signs `options.challenge` with one of this site's passkeys (`allowCredentials` empty:
    /// any of them, the person chooses).
    func signIn(_ options: PublicKeyCredentialRequestOptionsJSON) async throws -> AuthenticationResponseJSON
}

/// Why a passkey could not be used on this device.
public enum PasskeyError: Error, Equatable, Sendable {
    /// No authenticator was given to `StaffAuth` (no platform support, or the app did not set one).
    case unavailable
    /// This login offers no passkey (the account has none).
    case notOffered
    /// A sign-in without an address found no passkey for the site on this device: the
    /// password form is the way in (the system was asked not to show the QR code for another).
    case noPasskeyOnDevice
    /// The system could not show its passkey sheet (the app was not in front).
    case notInteractive
    /// The device already holds a passkey for this account: enrolling another adds nothing.
    case alreadyRegistered
    /// The person dismissed the system sheet.
    case cancelled
    /// The authenticator failed; its description.
    case failed(String)

    /// What to tell the person; nil when nothing went wrong (they cancelled).
    public var message: String? {
        switch self {
        case .cancelled: nil
        case .noPasskeyOnDevice: "There is no passkey for Repair Minder on this device. Sign in with your email and password."
        case .notInteractive: "Repair Minder could not show the passkey sheet. Open the app and try again."
        case .alreadyRegistered: "This device already has a passkey for your account."
        case .unavailable, .notOffered, .failed: "This device could not use a passkey. Try again, or use another way to sign in."
        }
    }
}
