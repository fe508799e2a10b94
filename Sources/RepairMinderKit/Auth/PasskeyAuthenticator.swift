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
    /// The person dismissed the system sheet.
    case cancelled
    /// The authenticator failed; its description.
    case failed(String)
}
