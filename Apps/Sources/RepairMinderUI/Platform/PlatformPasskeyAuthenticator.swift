#if canImport(AuthenticationServices)
import AuthenticationServices
import Foundation
import RepairMinderKit
import RepairMinderModels

/// Passkeys from the platform (iCloud Keychain, a password manager, a security key) through
/// `ASAuthorizationPlatformPublicKeyCredentialProvider`. The app's domain must vouch for it
/// (`webcredentials` in `/.well-known/apple-app-site-association`, which the server serves
/// for `--apple-app-ids`), and the app must list `webcredentials:<rp id>` as an associated domain.
@available(iOS 17, macOS 14, *)
public final class PlatformPasskeyAuthenticator: PasskeyAuthenticator {
    private let anchor: @MainActor @Sendable () -> ASPresentationAnchor

    /// - Parameter anchor: the window the system's passkey sheet is shown over.
    public init(anchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor) {
        self.anchor = anchor
    }

    public func createPasskey(_ options: PublicKeyCredentialCreationOptionsJSON) async throws -> RegistrationResponseJSON {
        let challenge = try Self.bytes(options.challenge), userID = try Self.bytes(options.user.id)
        let excluded = try options.excludeCredentials.map { try Self.bytes($0.id) }
        return try await run(
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
            makeRequest: {
                let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: options.rpId)
                let request = provider.createCredentialAssertionRequest(challenge: challenge)
                request.userVerificationPreference = .required
                request.allowedCredentials = allowed.map { ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0) }
                return request
            },
            convert: { credential in
                guard let assertion = credential as? ASAuthorizationPlatformPublicKeyCredentialAssertion else {
                    throw PasskeyError.failed("the authenticator gave no signature")
                }
                return AuthenticationResponseJSON(
                    id: assertion.credentialID.base64URLEncoded(),
                    response: .init(
                        clientDataJSON: assertion.rawClientDataJSON.base64URLEncoded(),
                        authenticatorData: assertion.rawAuthenticatorData.base64URLEncoded(),
                        signature: assertion.signature.base64URLEncoded(), userHandle: assertion.userID.base64URLEncoded()))
            })
    }

    /// Shows the system sheet for the request and converts its answer, on the main actor: the
    /// credential (not Sendable) never leaves it, only the Sendable answer does.
    @MainActor
    private func run<Answer: Sendable>(
        makeRequest: () -> ASAuthorizationRequest, convert: @escaping (ASAuthorizationCredential) throws -> Answer
    ) async throws -> Answer {
        try await AuthorizationSession(anchor: anchor(), convert: convert).perform(makeRequest())
    }

    private static func bytes(_ base64URL: String) throws -> Data {
        guard let data = Data(base64URLEncoded: base64URL) else { throw PasskeyError.failed("the server sent malformed options") }
        return data
    }
}

/// One `ASAuthorizationController` run: its delegate, kept alive until the controller answers,
/// which converts the credential where it arrives (the main actor).
@available(iOS 17, macOS 14, *)
@MainActor
private final class AuthorizationSession<Answer: Sendable>: NSObject, @preconcurrency ASAuthorizationControllerDelegate,
    @preconcurrency ASAuthorizationControllerPresentationContextProviding
{
    private let anchor: ASPresentationAnchor
    private let convert: (ASAuthorizationCredential) throws -> Answer
    private var continuation: CheckedContinuation<Answer, any Error>?
    private var controller: ASAuthorizationController?

    init(anchor: ASPresentationAnchor, convert: @escaping (ASAuthorizationCredential) throws -> Answer) {
        self.anchor = anchor
        self.convert = convert
    }

    func perform(_ request: ASAuthorizationRequest) async throws -> Answer {
        try await withCheckedThrowingContinuation { continuation in
            self.continuation = continuation
            let controller = ASAuthorizationController(authorizationRequests: [request])
            controller.delegate = self
            controller.presentationContextProvider = self
            self.controller = controller
            controller.performRequests()
        }
    }

    private func finish(_ result: Result<Answer, any Error>) {
        continuation?.resume(with: result)
        continuation = nil
        controller = nil
    }

    func authorizationController(controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization) {
        finish(Result { try convert(authorization.credential) })
    }

    func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {
        if (error as? ASAuthorizationError)?.code == .canceled {
            finish(.failure(PasskeyError.cancelled))
        } else {
            finish(.failure(PasskeyError.failed(error.localizedDescription)))
        }
    }

    func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor { anchor }
}
#endif
