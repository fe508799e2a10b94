// Declarations as in AuthenticationServices.framework's
// ASAuthorizationPlatformPublicKeyCredentialProvider.h, ...RegistrationRequest.h,
// ...AssertionRequest.h, ...Descriptor.h, ...Registration.h, ...Assertion.h,
// ASAuthorizationPublicKeyCredentialRegistration.h, ASAuthorizationPublicKeyCredentialAssertion.h,
// ASPublicKeyCredential.h and ASAuthorizationPublicKeyCredentialConstants.h (iOS 18 SDK),
// imported to Swift, and Apple's documentation pages of the same names. Optionality as
// imported: the assertion's `rawAuthenticatorData`, `userID` and `signature` have no
// nullability annotation, so they are `Data!`.
import StandInAvailability

/// A mechanism for providing a user-verification preference for passkey requests.
@available(iOS 15.0, macOS 12.0, tvOS 16.0, *)
@available(watchOS, unavailable)
public struct ASAuthorizationPublicKeyCredentialUserVerificationPreference: Hashable, RawRepresentable, @unchecked Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public static var required: ASAuthorizationPublicKeyCredentialUserVerificationPreference { standIn() }
    public static var preferred: ASAuthorizationPublicKeyCredentialUserVerificationPreference { standIn() }
    public static var discouraged: ASAuthorizationPublicKeyCredentialUserVerificationPreference { standIn() }
}

/// A mechanism for providing a passkey for authentication, where the passkey is stored on the device.
@available(iOS 15.0, macOS 12.0, tvOS 16.0, *)
@available(watchOS, unavailable)
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
@available(iOS 15.0, macOS 12.0, tvOS 16.0, *)
@available(watchOS, unavailable)
open class ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest: ASAuthorizationRequest {
    open var userVerificationPreference: ASAuthorizationPublicKeyCredentialUserVerificationPreference {
        get { standIn() } set { standIn() }
    }
    /// Credentials the authenticator must not already hold.
    @available(iOS 17.4, macOS 14.4, visionOS 1.1, *)
    @available(tvOS, unavailable)
    @available(iOS_17_4)
    open var excludedCredentials: [ASAuthorizationPlatformPublicKeyCredentialDescriptor] { get { standIn() } set { standIn() } }
}

/// A request to sign in with a passkey.
@available(iOS 15.0, macOS 12.0, tvOS 16.0, *)
@available(watchOS, unavailable)
open class ASAuthorizationPlatformPublicKeyCredentialAssertionRequest: ASAuthorizationRequest {
    open var userVerificationPreference: ASAuthorizationPublicKeyCredentialUserVerificationPreference {
        get { standIn() } set { standIn() }
    }
    /// A list of credentials to allow for assertion.
    open var allowedCredentials: [ASAuthorizationPlatformPublicKeyCredentialDescriptor] { get { standIn() } set { standIn() } }
}

/// A description of a passkey.
@available(iOS 15.0, macOS 12.0, tvOS 16.0, *)
@available(watchOS, unavailable)
open class ASAuthorizationPlatformPublicKeyCredentialDescriptor: NSObject {
    public init(credentialID: Data) { standIn() }
}

/// A passkey that the authenticator made.
@available(iOS 15.0, macOS 12.0, tvOS 16.0, *)
@available(watchOS, unavailable)
open class ASAuthorizationPlatformPublicKeyCredentialRegistration: NSObject, ASAuthorizationCredential {
    /// The attestation object (nullable in the header).
    open var rawAttestationObject: Data? { standIn() }
    open var rawClientDataJSON: Data { standIn() }
    open var credentialID: Data { standIn() }
}

/// A passkey's signature for a sign-in.
@available(iOS 15.0, macOS 12.0, tvOS 16.0, *)
@available(watchOS, unavailable)
open class ASAuthorizationPlatformPublicKeyCredentialAssertion: NSObject, ASAuthorizationCredential {
    /// Implicitly unwrapped as Apple imports it: bind it (`if let`/`guard let`), never use it as `Data`.
    open var rawAuthenticatorData: Data! { standIn() }
    /// Implicitly unwrapped as Apple imports it: bind it (`if let`/`guard let`), never use it as `Data`.
    open var signature: Data! { standIn() }
    /// Implicitly unwrapped as Apple imports it: bind it (`if let`/`guard let`), never use it as `Data`.
    open var userID: Data! { standIn() }
    open var rawClientDataJSON: Data { standIn() }
    open var credentialID: Data { standIn() }
}
