#if canImport(AuthenticationServices)
import AuthenticationServices
import Foundation
import RepairMinderKit
import RepairMinderModels

/// Passkeys from the platform (iCloud Keychain, a password manager, a security key) through
/// `ASAuthorizationPlatformPublicKeyCredentialProvider`. The app's domain must vouch for it
/// (`webcredentials` in `/.well-known/apple-app-site-association`, which the server serves
/// for `--apple-app-ids`), and the app must list `webcredentials:<rp id>` as an associated domain.
/// A usernameless sign-in asks for this device's passkeys only and, when it has none, ends
/// at once with `PasskeyError.noPasskeyOnDevice` so the password form stays (`PasskeyRequestPolicy`);
/// cancelling the calling task cancels the system sheet.
@available(iOS 17, macOS 14, *)
public final class PlatformPasskeyAuthenticator: PasskeyAuthenticator {
    private let anchor: @MainActor @Sendable () -> ASPresentationAnchor?

    /// - Parameter anchor: the window the system's passkey sheet is shown over (on iOS
    ///   `ForegroundWindow.keyWindow()`); `nil` when the app has none in front, and then the
    ///   request ends as not interactive without asking the system.
    public init(anchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor?) {
        self.anchor = anchor
    }

    public func createPasskey(_ options: PublicKeyCredentialCreationOptionsJSON) async throws -> RegistrationResponseJSON {
        let challenge = try Self.bytes(options.challenge), userID = try Self.bytes(options.user.id)
        let excluded = try options.excludeCredentials.map { try Self.bytes($0.id) }
        return try await run(
            scope: .anyDevice,
            makeRequest: {
                let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: options.rp.id)
                let request = provider.createCredentialRegistrationRequest(
                    challenge: challenge, name: options.user.name, userID: userID)
                request.userVerificationPreference = .required
                if #available(iOS 17.4, macOS 14.4, *) {
                    request.excludedCredentials = excluded.map { ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0) }
                }
                return request
            },
            convert: { credential in
                guard let registration = credential as? ASAuthorizationPlatformPublicKeyCredentialRegistration,
                    let attestation = registration.rawAttestationObject
                else { throw PasskeyError.failed("the authenticator made no passkey") }
                return RegistrationResponseJSON(
                    id: registration.credentialID.base64URLEncoded(),
                    response: .init(
                        clientDataJSON: registration.rawClientDataJSON.base64URLEncoded(),
                        attestationObject: attestation.base64URLEncoded()))
            })
    }

    public func signIn(_ options: PublicKeyCredentialRequestOptionsJSON) async throws -> AuthenticationResponseJSON {
        let challenge = try Self.bytes(options.challenge)
        let allowed = try options.allowCredentials.map { try Self.bytes($0.id) }
        return try await run(
            scope: PasskeyRequestPolicy.scope(allowedCredentialCount: allowed.count),
            makeRequest: {
                let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: options.rpId)
                let request = provider.createCredentialAssertionRequest(challenge: challenge)
                request.userVerificationPreference = .required
                request.allowedCredentials = allowed.map { ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0) }
                return request
            },
            convert: { credential in
                // Apple's `rawAuthenticatorData`, `signature` and `userID` are `Data!`: bound here, never forced.
                guard let assertion = credential as? ASAuthorizationPlatformPublicKeyCredentialAssertion,
                    let authenticatorData = assertion.rawAuthenticatorData, let signature = assertion.signature,
                    let userID = assertion.userID
                else { throw PasskeyError.failed("the authenticator gave no signature") }
                return AuthenticationResponseJSON(
                    id: assertion.credentialID.base64URLEncoded(),
                    response: .init(
                        clientDataJSON: assertion.rawClientDataJSON.base64URLEncoded(),
                        authenticatorData: authenticatorData.base64URLEncoded(),
                        signature: signature.base64URLEncoded(), userHandle: userID.base64URLEncoded()))
            })
    }

    /// Shows the system sheet for the request and converts its answer, on the main actor: the
    /// credential (not Sendable) never leaves it, only the Sendable answer does.
    @MainActor
    private func run<Answer: Sendable>(
        scope: PasskeyRequestScope, makeRequest: () -> ASAuthorizationRequest,
        convert: @escaping (any ASAuthorizationCredential) throws -> Answer
    ) async throws -> Answer {
        guard let anchor = anchor() else {
            throw PasskeyRequestPolicy.error(for: .notInteractive, scope: .anyDevice, after: .zero, taskCancelled: false)
        }
        return try await AuthorizationSession(anchor: anchor, scope: scope).perform(makeRequest(), convert: convert)
    }

    private static func bytes(_ base64URL: String) throws -> Data {
        guard let data = Data(base64URLEncoded: base64URL) else { throw PasskeyError.failed("the server sent malformed options") }
        return data
    }
}

#endif
