/// Passkeys (WebAuthn Level 3's JSON forms, binary values as base64url without padding) and the
/// bodies of docs/API.md §11.

// MARK: What the server asks the authenticator

/// `PublicKeyCredentialRpEntity`: the relying party, whose id the credential is scoped to.
public struct PublicKeyCredentialRpEntity: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}

extension PublicKeyCredentialRpEntity: WireObject {
    public static let fields: [ResponseField<Self>] = [.init("id", \.id, .nonEmptyText), .init("name", \.name, .nonEmptyText)]
    public static var schema: JSONSchema { .object(fields) }
    public static var example: PublicKeyCredentialRpEntity { .init(id: WireExample.rpId, name: "Repair Minder") }
}

/// `PublicKeyCredentialUserEntityJSON`: `id` is an opaque per-user handle (never the email).
public struct PublicKeyCredentialUserEntityJSON: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var displayName: String
    public init(id: String, name: String, displayName: String) {
        self.id = id
        self.name = name
        self.displayName = displayName
    }
}

extension PublicKeyCredentialUserEntityJSON: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("id", \.id, .base64URL("An opaque handle of the user (32 random bytes), never the email")),
        .init("name", \.name, .email), .init("displayName", \.displayName, .nonEmptyText),
    ]
    public static var schema: JSONSchema { .object(fields) }
    public static var example: PublicKeyCredentialUserEntityJSON {
        .init(id: WireExample.userHandle, name: WireExample.staffEmail, displayName: "Ada Lovelace")
    }
}

/// `PublicKeyCredentialParameters`: a signature algorithm the server takes (a COSE number).
public struct PublicKeyCredentialParameters: Codable, Sendable, Equatable {
    public var type: String
    public var alg: Int
    public init(alg: Int) {
        type = "public-key"
        self.alg = alg
    }
}

extension PublicKeyCredentialParameters: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("type", \.type, .oneOf(["public-key"])), .init("alg", \.alg, .integer(minimum: nil, maximum: nil))
    ]
    public static var schema: JSONSchema { .object(fields) }
    public static var example: PublicKeyCredentialParameters { .init(alg: -7) }
}

/// `PublicKeyCredentialDescriptorJSON`: a credential by id.
public struct PublicKeyCredentialDescriptorJSON: Codable, Sendable, Equatable {
    public var type: String
    public var id: String
    public init(id: String) {
        type = "public-key"
        self.id = id
    }
}

extension PublicKeyCredentialDescriptorJSON: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("type", \.type, .oneOf(["public-key"])), .init("id", \.id, .base64URL("The credential id"))
    ]
    public static var schema: JSONSchema { .object(fields) }
    public static var example: PublicKeyCredentialDescriptorJSON { .init(id: WireExample.credentialId) }
}

/// `AuthenticatorSelectionCriteria`.
public struct AuthenticatorSelectionCriteria: Codable, Sendable, Equatable {
    public var residentKey: String
    public var requireResidentKey: Bool
    public var userVerification: String
    public init(residentKey: String, requireResidentKey: Bool, userVerification: String) {
        self.residentKey = residentKey
        self.requireResidentKey = requireResidentKey
        self.userVerification = userVerification
    }
}

extension AuthenticatorSelectionCriteria: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("residentKey", \.residentKey, .oneOf(["required"])), .init("requireResidentKey", \.requireResidentKey, .boolean),
        .init("userVerification", \.userVerification, .oneOf(["required"])),
    ]
    public static var schema: JSONSchema { .object(fields) }
    public static var example: AuthenticatorSelectionCriteria {
        .init(residentKey: "required", requireResidentKey: true, userVerification: "required")
    }
}

/// `PublicKeyCredentialCreationOptionsJSON`: what `navigator.credentials.create` (or
/// `ASAuthorizationPlatformPublicKeyCredentialProvider`) takes to make a passkey.
public struct PublicKeyCredentialCreationOptionsJSON: Codable, Sendable, Equatable {
    public var rp: PublicKeyCredentialRpEntity
    public var user: PublicKeyCredentialUserEntityJSON
    public var challenge: String
    public var pubKeyCredParams: [PublicKeyCredentialParameters]
    /// Milliseconds.
    public var timeout: Int
    public var excludeCredentials: [PublicKeyCredentialDescriptorJSON]
    public var authenticatorSelection: AuthenticatorSelectionCriteria
    public var attestation: String
    public init(
        rp: PublicKeyCredentialRpEntity, user: PublicKeyCredentialUserEntityJSON, challenge: String,
        pubKeyCredParams: [PublicKeyCredentialParameters], timeout: Int, excludeCredentials: [PublicKeyCredentialDescriptorJSON],
        authenticatorSelection: AuthenticatorSelectionCriteria, attestation: String
    ) {
        self.rp = rp
        self.user = user
        self.challenge = challenge
        self.pubKeyCredParams = pubKeyCredParams
        self.timeout = timeout
        self.excludeCredentials = excludeCredentials
        self.authenticatorSelection = authenticatorSelection
        self.attestation = attestation
    }
}

extension PublicKeyCredentialCreationOptionsJSON: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("rp", \.rp, .ref(PublicKeyCredentialRpEntity.self)),
        .init("user", \.user, .ref(PublicKeyCredentialUserEntityJSON.self)),
        .init("challenge", \.challenge, .base64URL("32 random bytes")),
        .init("pubKeyCredParams", \.pubKeyCredParams, .array(.ref(PublicKeyCredentialParameters.self))),
        .init("timeout", \.timeout, .integer(minimum: 1)),
        .init("excludeCredentials", \.excludeCredentials, .array(.ref(PublicKeyCredentialDescriptorJSON.self))),
        .init("authenticatorSelection", \.authenticatorSelection, .ref(AuthenticatorSelectionCriteria.self)),
        .init("attestation", \.attestation, .oneOf(["none"])),
    ]
    public static var schema: JSONSchema {
        .object(fields, description: "WebAuthn Level 3 PublicKeyCredentialCreationOptionsJSON")
    }
    public static var example: PublicKeyCredentialCreationOptionsJSON {
        .init(
            rp: .example, user: .example, challenge: WireExample.passkeyChallenge,
            pubKeyCredParams: [.init(alg: -7), .init(alg: -8), .init(alg: -257)], timeout: 300_000,
            excludeCredentials: [.example], authenticatorSelection: .example, attestation: "none")
    }
}

/// `PublicKeyCredentialRequestOptionsJSON`: what `navigator.credentials.get` takes to sign in.
public struct PublicKeyCredentialRequestOptionsJSON: Codable, Sendable, Equatable {
    public var challenge: String
    /// Milliseconds.
    public var timeout: Int
    public var rpId: String
    /// Empty for a usernameless sign-in: the authenticator offers its discoverable credentials.
    public var allowCredentials: [PublicKeyCredentialDescriptorJSON]
    public var userVerification: String
    public init(
        challenge: String, timeout: Int, rpId: String, allowCredentials: [PublicKeyCredentialDescriptorJSON],
        userVerification: String
    ) {
        self.challenge = challenge
        self.timeout = timeout
        self.rpId = rpId
        self.allowCredentials = allowCredentials
        self.userVerification = userVerification
    }
}

extension PublicKeyCredentialRequestOptionsJSON: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("challenge", \.challenge, .base64URL("32 random bytes")),
        .init("timeout", \.timeout, .integer(minimum: 1)),
        .init("rpId", \.rpId, .nonEmptyText),
        .init("allowCredentials", \.allowCredentials, .array(.ref(PublicKeyCredentialDescriptorJSON.self))),
        .init("userVerification", \.userVerification, .oneOf(["required"])),
    ]
    public static var schema: JSONSchema {
        .object(fields, description: "WebAuthn Level 3 PublicKeyCredentialRequestOptionsJSON")
    }
    public static var example: PublicKeyCredentialRequestOptionsJSON {
        .init(
            challenge: WireExample.passkeyChallenge, timeout: 300_000, rpId: WireExample.rpId, allowCredentials: [],
            userVerification: "required")
    }
}

// MARK: What the authenticator answers

/// `AuthenticatorAttestationResponseJSON`, the part of it the server reads.
public struct AuthenticatorAttestationResponseJSON: Codable, Sendable, Equatable {
    public var clientDataJSON: String
    public var attestationObject: String
    public init(clientDataJSON: String, attestationObject: String) {
        self.clientDataJSON = clientDataJSON
        self.attestationObject = attestationObject
    }
}

extension AuthenticatorAttestationResponseJSON: WireRequest {
    public static var unknownFields: UnknownFields { .tolerated }
    public static let fields: [RequestField<Self>] = [
        .string("clientDataJSON", \.clientDataJSON, FieldRules.base64URL(maxLength: 4096)),
        .string("attestationObject", \.attestationObject, FieldRules.base64URL(maxLength: 16384)),
    ]
    public static var example: AuthenticatorAttestationResponseJSON {
        .init(
            clientDataJSON: "eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0",
            attestationObject: "o2NmbXRkbm9uZWdhdHRTdG10oGhhdXRoRGF0YUA")
    }
}

/// `RegistrationResponseJSON`: a new passkey (other members, such as `transports` and
/// `clientExtensionResults`, are ignored).
public struct RegistrationResponseJSON: Codable, Sendable, Equatable {
    public var id: String
    public var rawId: String
    public var type: String
    public var response: AuthenticatorAttestationResponseJSON
    public init(id: String, response: AuthenticatorAttestationResponseJSON) {
        self.id = id
        rawId = id
        type = "public-key"
        self.response = response
    }
}

extension RegistrationResponseJSON: WireRequest {
    public static var unknownFields: UnknownFields { .tolerated }
    public static let fields: [RequestField<Self>] = [
        .string("id", \.id, FieldRules.base64URL(maxLength: 1366, description: "The credential id")),
        .string("rawId", \.rawId, FieldRules.base64URL(maxLength: 1366, description: "The credential id again")),
        .string("type", \.type, FieldRules.publicKeyCredentialType),
        .object("response", \.response),
    ]
    public static var bodyDescription: String? { "WebAuthn Level 3 RegistrationResponseJSON (other members are ignored)" }
    public static var example: RegistrationResponseJSON { .init(id: WireExample.credentialId, response: .example) }
}

/// `AuthenticatorAssertionResponseJSON`.
public struct AuthenticatorAssertionResponseJSON: Codable, Sendable, Equatable {
    public var clientDataJSON: String
    public var authenticatorData: String
    public var signature: String
    /// The user handle the passkey was made for; always present for a discoverable credential.
    public var userHandle: String?
    public init(clientDataJSON: String, authenticatorData: String, signature: String, userHandle: String?) {
        self.clientDataJSON = clientDataJSON
        self.authenticatorData = authenticatorData
        self.signature = signature
        self.userHandle = userHandle
    }
}

extension AuthenticatorAssertionResponseJSON: WireRequest {
    public static var unknownFields: UnknownFields { .tolerated }
    public static let fields: [RequestField<Self>] = [
        .string("clientDataJSON", \.clientDataJSON, FieldRules.base64URL(maxLength: 4096)),
        .string("authenticatorData", \.authenticatorData, FieldRules.base64URL(maxLength: 4096)),
        .string("signature", \.signature, FieldRules.base64URL(maxLength: 1024)),
        .optional("userHandle", \.userHandle, FieldRules.base64URL(maxLength: 128)),
    ]
    public static var example: AuthenticatorAssertionResponseJSON {
        .init(
            clientDataJSON: "eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0", authenticatorData: "SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MFAAAAAQ",
            signature: "MEUCIQDx1x7E0pF3aQ", userHandle: WireExample.userHandle)
    }
}

/// `AuthenticationResponseJSON`: a passkey's signature over a sign-in challenge.
public struct AuthenticationResponseJSON: Codable, Sendable, Equatable {
    public var id: String
    public var rawId: String
    public var type: String
    public var response: AuthenticatorAssertionResponseJSON
    public init(id: String, response: AuthenticatorAssertionResponseJSON) {
        self.id = id
        rawId = id
        type = "public-key"
        self.response = response
    }
}

extension AuthenticationResponseJSON: WireRequest {
    public static var unknownFields: UnknownFields { .tolerated }
    public static let fields: [RequestField<Self>] = [
        .string("id", \.id, FieldRules.base64URL(maxLength: 1366, description: "The credential id")),
        .string("rawId", \.rawId, FieldRules.base64URL(maxLength: 1366, description: "The credential id again")),
        .string("type", \.type, FieldRules.publicKeyCredentialType),
        .object("response", \.response),
    ]
    public static var bodyDescription: String? { "WebAuthn Level 3 AuthenticationResponseJSON (other members are ignored)" }
    public static var example: AuthenticationResponseJSON { .init(id: WireExample.credentialId, response: .example) }
}

// MARK: docs/API.md §11

/// `POST /api/auth/passkeys/register/options`' answer.
public struct PasskeyRegistrationOptions: Codable, Sendable, Equatable {
    /// Names the challenge in `register/verify` (it lives 5 minutes, once).
    public var challengeId: String
    public var publicKey: PublicKeyCredentialCreationOptionsJSON
    public init(challengeId: String, publicKey: PublicKeyCredentialCreationOptionsJSON) {
        self.challengeId = challengeId
        self.publicKey = publicKey
    }
}

extension PasskeyRegistrationOptions: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("challengeId", \.challengeId, .nonEmptyText), .init("publicKey", \.publicKey, .ref(PublicKeyCredentialCreationOptionsJSON.self)),
    ]
    public static var schema: JSONSchema { .object(fields) }
    public static var example: PasskeyRegistrationOptions {
        .init(challengeId: WireExample.passkeyChallengeId, publicKey: .example)
    }
}

/// `POST /api/auth/passkeys/register/verify` body.
public struct PasskeyRegistrationRequest: Codable, Sendable, Equatable {
    public var challengeId: String
    /// What the user calls it ("iPhone", "YubiKey"); a default name when left out.
    public var name: String?
    public var credential: RegistrationResponseJSON
    public init(challengeId: String, name: String?, credential: RegistrationResponseJSON) {
        self.challengeId = challengeId
        self.name = name
        self.credential = credential
    }
}

extension PasskeyRegistrationRequest: WireRequest {
    public static let fields: [RequestField<Self>] = [
        .string("challengeId", \.challengeId, FieldRules.identifier),
        .optional("name", \.name, FieldRules.passkeyName),
        .object("credential", \.credential),
    ]
    public static var example: PasskeyRegistrationRequest {
        .init(challengeId: WireExample.passkeyChallengeId, name: "Ada's iPhone", credential: .example)
    }
}

/// A passkey of the signed-in user.
public struct Passkey: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    public var name: String
    public var createdAt: String
    public var lastUsedAt: String?
    /// Whether the authenticator says it is backed up (synced to other devices).
    public var backedUp: Bool
    public init(id: String, name: String, createdAt: String, lastUsedAt: String?, backedUp: Bool) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.backedUp = backedUp
    }
}

extension Passkey: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("id", \.id, .nonEmptyText), .init("name", \.name, .nonEmptyText), .init("createdAt", \.createdAt, .timestamp),
        .init("lastUsedAt", \.lastUsedAt, .nullable(.timestamp)), .init("backedUp", \.backedUp, .boolean),
    ]
    public static var schema: JSONSchema { .object(fields) }
    public static var example: Passkey {
        .init(id: WireExample.deviceTokenId, name: "Ada's iPhone", createdAt: WireExample.timestamp, lastUsedAt: nil, backedUp: true)
    }
}

/// `POST /api/auth/passkeys/login/options`' answer.
public struct PasskeyLoginOptions: Codable, Sendable, Equatable {
    public var challengeId: String
    public var publicKey: PublicKeyCredentialRequestOptionsJSON
    public init(challengeId: String, publicKey: PublicKeyCredentialRequestOptionsJSON) {
        self.challengeId = challengeId
        self.publicKey = publicKey
    }
}

extension PasskeyLoginOptions: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("challengeId", \.challengeId, .nonEmptyText), .init("publicKey", \.publicKey, .ref(PublicKeyCredentialRequestOptionsJSON.self)),
    ]
    public static var schema: JSONSchema { .object(fields) }
    public static var example: PasskeyLoginOptions { .init(challengeId: WireExample.passkeyChallengeId, publicKey: .example) }
}

/// `POST /api/auth/passkeys/login/verify` body.
public struct PasskeyLoginRequest: Codable, Sendable, Equatable {
    public var challengeId: String
    public var credential: AuthenticationResponseJSON
    public init(challengeId: String, credential: AuthenticationResponseJSON) {
        self.challengeId = challengeId
        self.credential = credential
    }
}

extension PasskeyLoginRequest: WireRequest {
    public static let fields: [RequestField<Self>] = [
        .string("challengeId", \.challengeId, FieldRules.identifier),
        .object("credential", \.credential),
    ]
    public static var example: PasskeyLoginRequest { .init(challengeId: WireExample.passkeyChallengeId, credential: .example) }
}
