/// A mechanism for providing a user-verification preference for passkey requests.
public struct ASAuthorizationPublicKeyCredentialUserVerificationPreference: Hashable, RawRepresentable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public static var required: ASAuthorizationPublicKeyCredentialUserVerificationPreference { standIn() }
    public static var preferred: ASAuthorizationPublicKeyCredentialUserVerificationPreference { standIn() }
    public static var discouraged: ASAuthorizationPublicKeyCredentialUserVerificationPreference { standIn() }
}

/// A mechanism for providing a passkey for authentication, where the passkey is stored on the device.
open class ASAuthorizationPlatformPublicKeyCredentialProvider: NSObject {
    public init(relyingPartyIdentifier: String) { standIn() }
    /// Creates a request to register a new platform credential.
    open func createCredentialRegistrationRequest(challenge: Data, name: String, userID: Data)
        -> ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest
    { standIn() }
    /// Creates a request to authenticate using an existing platform credential.
    open func createCredentialAssertionRequest(challenge: Data) -> ASAuthorizationPlatformPublicKeyCredentialAssertionRequest { standIn() }
}

/// A request to register a new passkey.
open class ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest: ASAuthorizationRequest {
    open var userVerificationPreference: ASAuthorizationPublicKeyCredentialUserVerificationPreference {
        get { standIn() } set { standIn() }
    }
    /// Credentials the authenticator must not already hold (iOS 17.4, macOS 14.4).
    open var excludedCredentials: [ASAuthorizationPlatformPublicKeyCredentialDescriptor] { get { standIn() } set { standIn() } }
}

/// A request to sign in with a passkey.
open class ASAuthorizationPlatformPublicKeyCredentialAssertionRequest: ASAuthorizationRequest {
    open var userVerificationPreference: ASAuthorizationPublicKeyCredentialUserVerificationPreference {
        get { standIn() } set { standIn() }
    }
    /// A list of credentials to allow for assertion.
    open var allowedCredentials: [ASAuthorizationPlatformPublicKeyCredentialDescriptor] { get { standIn() } set { standIn() } }
}

/// A description of a passkey.
open class ASAuthorizationPlatformPublicKeyCredentialDescriptor: NSObject {
    public init(credentialID: Data) { standIn() }
}

/// A passkey that the authenticator made.
open class ASAuthorizationPlatformPublicKeyCredentialRegistration: NSObject, ASAuthorizationCredential {
    open var rawAttestationObject: Data? { standIn() }
    open var rawClientDataJSON: Data { standIn() }
    open var credentialID: Data { standIn() }
}

/// A passkey's signature for a sign-in.
open class ASAuthorizationPlatformPublicKeyCredentialAssertion: NSObject, ASAuthorizationCredential {
    open var rawAuthenticatorData: Data { standIn() }
    open var signature: Data { standIn() }
    open var userID: Data { standIn() }
    open var rawClientDataJSON: Data { standIn() }
    open var credentialID: Data { standIn() }
}
