import Crypto
import Foundation
import RepairMinderModels

/// The relying party of WebAuthn Level 3 (§7): makes the options a passkey ceremony starts
/// with and checks the authenticator's answers (docs/API.md §11). Pure: storage (challenges,
/// credentials, counters) is the caller's.
struct WebAuthnRelyingParty: Sendable {
    /// The domain passkeys are scoped to (`--webauthn-rp-id`).
    let id: String
    let name: String
    /// The origins a ceremony may come from (`--webauthn-origins`).
    let origins: Set<String>

    /// How long a ceremony may take, and its challenge lives.
    static let timeoutSeconds = 300

    var rpIdHash: [UInt8] { Array(SHA256.hash(data: Array(id.utf8))) }

    /// A fresh 32-byte challenge, and the hash of it that is stored (never the challenge).
    static func newChallenge() -> (challenge: String, hash: String) {
        let bytes = RandomToken.bytes(32)
        return (Data(bytes).base64URLEncoded(), challengeHash(of: bytes))
    }

    static func challengeHash(of bytes: [UInt8]) -> String {
        Data(SHA256.hash(data: bytes)).base64URLEncoded()
    }

    func creationOptions(
        challenge: String, userHandle: String, email: String, displayName: String, excluding: [String]
    ) -> PublicKeyCredentialCreationOptionsJSON {
        PublicKeyCredentialCreationOptionsJSON(
            rp: .init(id: id, name: name), user: .init(id: userHandle, name: email, displayName: displayName),
            challenge: challenge, pubKeyCredParams: COSEKey.supportedAlgorithms.map(PublicKeyCredentialParameters.init(alg:)),
            timeout: Self.timeoutSeconds * 1000, excludeCredentials: excluding.map(PublicKeyCredentialDescriptorJSON.init(id:)),
            authenticatorSelection: .init(residentKey: "required", requireResidentKey: true, userVerification: "required"),
            attestation: "none")
    }

    func requestOptions(challenge: String, allowing credentials: [String]) -> PublicKeyCredentialRequestOptionsJSON {
        PublicKeyCredentialRequestOptionsJSON(
            challenge: challenge, timeout: Self.timeoutSeconds * 1000, rpId: id,
            allowCredentials: credentials.map(PublicKeyCredentialDescriptorJSON.init(id:)), userVerification: "required")
    }

    /// A new passkey, as registration checked it.
    struct NewCredential: Sendable {
        /// Base64url, as stored and as the authenticator names it.
        let credentialId: String
        let publicKey: [UInt8]
        let signCount: UInt32
        let backedUp: Bool
    }

    /// Checks a registration (WebAuthn §7.1) against the challenge whose hash is `challengeHash`.
    /// Attestation is not asked for (`attestation: "none"`), so a statement is not checked: the
    /// key is trusted because a signed-in user enrols it.
    func verifyRegistration(
        _ credential: RegistrationResponseJSON, challengeHash: String, requireUserVerification: Bool = true
    ) throws(PasskeyProblem) -> NewCredential {
        try checkClientData(credential.response.clientDataJSON, type: "webauthn.create", challengeHash: challengeHash)
        let attestation: CBOR
        do {
            attestation = try CBORDecoder.decode(try Self.bytes(credential.response.attestationObject, "attestationObject"))
        } catch let problem as PasskeyProblem {
            throw problem
        } catch {
            throw PasskeyProblem("the attestation object is not CBOR: \(error)")
        }
        guard attestation["fmt"]?.text != nil, case .map = attestation["attStmt"], let authDataBytes = attestation["authData"]?.bytes else {
            throw PasskeyProblem("the attestation object has no fmt, attStmt and authData")
        }
        let authData = try AuthenticatorData(authDataBytes)
        try checkFlagsAndRP(authData, requireUserVerification: requireUserVerification)
        guard let attested = authData.attestedCredential else { throw PasskeyProblem("the authenticator data holds no credential") }
        let credentialId = Data(attested.credentialId).base64URLEncoded()
        guard try Self.bytes(credential.rawId, "rawId") == attested.credentialId, try Self.bytes(credential.id, "id") == attested.credentialId
        else { throw PasskeyProblem("the credential id is not the one in the authenticator data") }
        return NewCredential(
            credentialId: credentialId, publicKey: attested.publicKeyBytes, signCount: authData.signCount, backedUp: authData.backedUp)
    }

    /// What a checked assertion says.
    struct Assertion: Sendable {
        let signCount: UInt32
        let backedUp: Bool
    }

    /// Checks an assertion (WebAuthn §7.2) by the stored `publicKey` against the challenge whose
    /// hash is `challengeHash`. The caller has found the credential by id and checks the user
    /// handle and the sign counter against what it stored.
    func verifyAssertion(
        _ credential: AuthenticationResponseJSON, challengeHash: String, publicKey: COSEKey, requireUserVerification: Bool = true
    ) throws(PasskeyProblem) -> Assertion {
        guard credential.id == credential.rawId else { throw PasskeyProblem("id and rawId differ") }
        let clientDataBytes = try Self.bytes(credential.response.clientDataJSON, "clientDataJSON")
        try checkClientData(credential.response.clientDataJSON, type: "webauthn.get", challengeHash: challengeHash)
        let authDataBytes = try Self.bytes(credential.response.authenticatorData, "authenticatorData")
        let authData = try AuthenticatorData(authDataBytes)
        guard authData.attestedCredential == nil else { throw PasskeyProblem("an assertion carries no new credential") }
        try checkFlagsAndRP(authData, requireUserVerification: requireUserVerification)
        let signed = authDataBytes + Array(SHA256.hash(data: clientDataBytes))
        guard publicKey.isValidSignature(try Self.bytes(credential.response.signature, "signature"), for: signed) else {
            throw PasskeyProblem("the signature is not the passkey's")
        }
        return Assertion(signCount: authData.signCount, backedUp: authData.backedUp)
    }

    private func checkClientData(_ encoded: String, type: String, challengeHash: String) throws(PasskeyProblem) {
        let clientData = try CollectedClientData(json: try Self.bytes(encoded, "clientDataJSON"))
        guard clientData.type == type else { throw PasskeyProblem("the client data's type is not \(type)") }
        guard let challenge = Data(base64URLEncoded: clientData.challenge),
            SecretHashing.constantTimeEquals(Self.challengeHash(of: Array(challenge)), challengeHash)
        else { throw PasskeyProblem("the challenge is not this ceremony's") }
        guard origins.contains(clientData.origin) else { throw PasskeyProblem("the origin \(clientData.origin) is not allowed") }
        guard clientData.crossOrigin != true else { throw PasskeyProblem("a cross-origin ceremony is not allowed") }
    }

    private func checkFlagsAndRP(_ authData: AuthenticatorData, requireUserVerification: Bool) throws(PasskeyProblem) {
        guard authData.rpIdHash == rpIdHash else { throw PasskeyProblem("the credential is for another relying party id") }
        guard authData.userPresent else { throw PasskeyProblem("the user was not present (UP)") }
        guard authData.userVerified || !requireUserVerification else { throw PasskeyProblem("the user was not verified (UV)") }
        // WebAuthn §6.1: a credential that cannot be backed up is not backed up.
        guard authData.backupEligible || !authData.backedUp else { throw PasskeyProblem("backed up (BS) without backup eligibility (BE)") }
    }

    private static func bytes(_ base64URL: String, _ name: String) throws(PasskeyProblem) -> [UInt8] {
        guard let data = Data(base64URLEncoded: base64URL) else { throw PasskeyProblem("\(name) is not base64url") }
        return Array(data)
    }
}
