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

/// `PublicKeyCredentialParameters`: a signature algorithm the server takes (a COSE number).
public struct PublicKeyCredentialParameters: Codable, Sendable, Equatable {
    public var type: String
    public var alg: Int
    public init(alg: Int) {
        type = "public-key"
        self.alg = alg
    }
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

    public func encode(to encoder: any Encoder) throws {
        // Explicit so a passkey never used is sent with `"lastUsedAt": null`.
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(lastUsedAt, forKey: .lastUsedAt)
        try container.encode(backedUp, forKey: .backedUp)
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

/// `POST /api/auth/passkeys/login/verify` body.
public struct PasskeyLoginRequest: Codable, Sendable, Equatable {
    public var challengeId: String
    public var credential: AuthenticationResponseJSON
    public init(challengeId: String, credential: AuthenticationResponseJSON) {
        self.challengeId = challengeId
        self.credential = credential
    }
}
