/// Passkeys (docs/API.md §11): WebAuthn Level 3's JSON forms and our bodies.

extension JSONSchema {
    /// Base64url without padding (`FieldRules.base64URL`'s rule).
    static func base64URL(_ description: String) -> JSONSchema {
        FieldRules.base64URL(description: description).schema
    }
}

extension WireExample {
    static let passkeyChallenge = "mE3kVq8s0T1xYb6Rz2Nc4Hw7Jp9Ld5Fa3Gu0Qe8Ko1"
    static let credentialId = "b3Y0ZXJsYXktY3JlZGVudGlhbC1pZC1leGFtcGxl"
    static let userHandle = "c2FtcGxlLXVzZXItaGFuZGxlLTMyLWJ5dGVzLWxvbmc"
    static let passkeyChallengeId = "7b1e4c9a-3d2f-4a8b-9c6e-5f0a1d2b3c4e"
    static let rpId = "acme.test"
}

extension PublicKeyCredentialRpEntity: WireType {
    public static var schema: JSONSchema { .object([.init("id", .nonEmptyText), .init("name", .nonEmptyText)]) }
    public static var example: PublicKeyCredentialRpEntity { .init(id: WireExample.rpId, name: "Repair Minder") }
}

extension PublicKeyCredentialUserEntityJSON: WireType {
    public static var schema: JSONSchema {
        .object([
            .init("id", .base64URL("An opaque handle of the user (32 random bytes), never the email")),
            .init("name", .email), .init("displayName", .nonEmptyText),
        ])
    }
    public static var example: PublicKeyCredentialUserEntityJSON {
        .init(id: WireExample.userHandle, name: WireExample.staffEmail, displayName: "Ada Lovelace")
    }
}

extension PublicKeyCredentialParameters: WireType {
    public static var schema: JSONSchema {
        .object([.init("type", .oneOf(["public-key"])), .init("alg", .integer(minimum: nil, maximum: nil))])
    }
    public static var example: PublicKeyCredentialParameters { .init(alg: -7) }
}

extension PublicKeyCredentialDescriptorJSON: WireType {
    public static var schema: JSONSchema {
        .object([.init("type", .oneOf(["public-key"])), .init("id", .base64URL("The credential id"))])
    }
    public static var example: PublicKeyCredentialDescriptorJSON { .init(id: WireExample.credentialId) }
}

extension AuthenticatorSelectionCriteria: WireType {
    public static var schema: JSONSchema {
        .object([
            .init("residentKey", .oneOf(["required"])), .init("requireResidentKey", .boolean),
            .init("userVerification", .oneOf(["required"])),
        ])
    }
    public static var example: AuthenticatorSelectionCriteria {
        .init(residentKey: "required", requireResidentKey: true, userVerification: "required")
    }
}

extension PublicKeyCredentialCreationOptionsJSON: WireType {
    public static var schema: JSONSchema {
        .object(
            [
                .init("rp", .ref(PublicKeyCredentialRpEntity.self)),
                .init("user", .ref(PublicKeyCredentialUserEntityJSON.self)),
                .init("challenge", .base64URL("32 random bytes")),
                .init("pubKeyCredParams", .array(.ref(PublicKeyCredentialParameters.self))),
                .init("timeout", .integer(minimum: 1)),
                .init("excludeCredentials", .array(.ref(PublicKeyCredentialDescriptorJSON.self))),
                .init("authenticatorSelection", .ref(AuthenticatorSelectionCriteria.self)),
                .init("attestation", .oneOf(["none"])),
            ], description: "WebAuthn Level 3 PublicKeyCredentialCreationOptionsJSON")
    }
    public static var example: PublicKeyCredentialCreationOptionsJSON {
        .init(
            rp: .example, user: .example, challenge: WireExample.passkeyChallenge,
            pubKeyCredParams: [.init(alg: -7), .init(alg: -8), .init(alg: -257)], timeout: 300_000,
            excludeCredentials: [.example], authenticatorSelection: .example, attestation: "none")
    }
}

extension PublicKeyCredentialRequestOptionsJSON: WireType {
    public static var schema: JSONSchema {
        .object(
            [
                .init("challenge", .base64URL("32 random bytes")),
                .init("timeout", .integer(minimum: 1)),
                .init("rpId", .nonEmptyText),
                .init("allowCredentials", .array(.ref(PublicKeyCredentialDescriptorJSON.self))),
                .init("userVerification", .oneOf(["required"])),
            ], description: "WebAuthn Level 3 PublicKeyCredentialRequestOptionsJSON")
    }
    public static var example: PublicKeyCredentialRequestOptionsJSON {
        .init(
            challenge: WireExample.passkeyChallenge, timeout: 300_000, rpId: WireExample.rpId, allowCredentials: [],
            userVerification: "required")
    }
}

extension AuthenticatorAttestationResponseJSON: WireRequest {
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

extension RegistrationResponseJSON: WireRequest {
    public static let fields: [RequestField<Self>] = [
        .string("id", \.id, FieldRules.base64URL(maxLength: 1366, description: "The credential id")),
        .string("rawId", \.rawId, FieldRules.base64URL(maxLength: 1366, description: "The credential id again")),
        .string("type", \.type, FieldRules.publicKeyCredentialType),
        .object("response", \.response),
    ]
    public static var bodyDescription: String? { "WebAuthn Level 3 RegistrationResponseJSON (other members are ignored)" }
    public static var example: RegistrationResponseJSON { .init(id: WireExample.credentialId, response: .example) }
}

extension AuthenticatorAssertionResponseJSON: WireRequest {
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

extension AuthenticationResponseJSON: WireRequest {
    public static let fields: [RequestField<Self>] = [
        .string("id", \.id, FieldRules.base64URL(maxLength: 1366, description: "The credential id")),
        .string("rawId", \.rawId, FieldRules.base64URL(maxLength: 1366, description: "The credential id again")),
        .string("type", \.type, FieldRules.publicKeyCredentialType),
        .object("response", \.response),
    ]
    public static var bodyDescription: String? { "WebAuthn Level 3 AuthenticationResponseJSON (other members are ignored)" }
    public static var example: AuthenticationResponseJSON { .init(id: WireExample.credentialId, response: .example) }
}

extension PasskeyRegistrationOptions: WireType {
    public static var schema: JSONSchema {
        .object([
            .init("challengeId", .nonEmptyText), .init("publicKey", .ref(PublicKeyCredentialCreationOptionsJSON.self)),
        ])
    }
    public static var example: PasskeyRegistrationOptions {
        .init(challengeId: WireExample.passkeyChallengeId, publicKey: .example)
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

extension Passkey: WireType {
    public static var schema: JSONSchema {
        .object([
            .init("id", .nonEmptyText), .init("name", .nonEmptyText), .init("createdAt", .timestamp),
            .init("lastUsedAt", .nullable(.timestamp)), .init("backedUp", .boolean),
        ])
    }
    public static var example: Passkey {
        .init(id: WireExample.deviceTokenId, name: "Ada's iPhone", createdAt: WireExample.timestamp, lastUsedAt: nil, backedUp: true)
    }
}

extension PasskeyLoginOptions: WireType {
    public static var schema: JSONSchema {
        .object([
            .init("challengeId", .nonEmptyText), .init("publicKey", .ref(PublicKeyCredentialRequestOptionsJSON.self)),
        ])
    }
    public static var example: PasskeyLoginOptions { .init(challengeId: WireExample.passkeyChallengeId, publicKey: .example) }
}

extension PasskeyLoginRequest: WireRequest {
    public static let fields: [RequestField<Self>] = [
        .string("challengeId", \.challengeId, FieldRules.identifier),
        .object("credential", \.credential),
    ]
    public static var example: PasskeyLoginRequest { .init(challengeId: WireExample.passkeyChallengeId, credential: .example) }
}
