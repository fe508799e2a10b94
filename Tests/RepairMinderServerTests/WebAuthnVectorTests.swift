import Crypto
import Foundation
import RepairMinderModels
import Testing

@testable import RepairMinderServer

/// The relying party's checks against answers made by authenticators and libraries we did not
/// write: the W3C WebAuthn Level 3 test vectors, py_webauthn's and SimpleWebAuthn's recorded
/// browser answers (`Fixtures/webauthn-vectors.json`, sources in its `about`).
@Suite struct WebAuthnVectorTests {
    struct Vector: Decodable, Sendable, CustomTestStringConvertible {
        let id: String
        let kind: String
        let rpId: String
        let origin: String
        let challenge: String
        let clientDataJSON: String
        let attestationObject: String?
        let authenticatorData: String?
        let signature: String?
        let userHandle: String?
        let credentialId: String
        let credentialPublicKey: String
        let signCount: Int?
        let expectedNewSignCount: Int?
        let userVerified: Bool

        var testDescription: String { id }

        var relyingParty: WebAuthnRelyingParty { WebAuthnRelyingParty(id: rpId, name: "Test", origins: [origin]) }
        var challengeHash: String { WebAuthnRelyingParty.challengeHash(of: Array(Data(base64URLEncoded: challenge) ?? Data())) }
        /// Whether the client data says the ceremony was cross-origin (an iframe): refused here.
        var isCrossOrigin: Bool {
            let json = Data(base64URLEncoded: clientDataJSON).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
            return json?["crossOrigin"] as? Bool == true
        }
        var registration: RegistrationResponseJSON {
            RegistrationResponseJSON(
                id: credentialId, response: .init(clientDataJSON: clientDataJSON, attestationObject: attestationObject ?? ""))
        }
        var assertion: AuthenticationResponseJSON {
            AuthenticationResponseJSON(
                id: credentialId,
                response: .init(
                    clientDataJSON: clientDataJSON, authenticatorData: authenticatorData ?? "", signature: signature ?? "",
                    userHandle: userHandle))
        }
    }

    static let vectors: [Vector] = {
        guard let url = Bundle.module.url(forResource: "webauthn-vectors", withExtension: "json", subdirectory: "Fixtures"),
            let data = try? Data(contentsOf: url),
            let file = try? JSONDecoder().decode([String: [Vector]].self, from: Self.vectorsOnly(data))
        else { return [] }
        return file["vectors"] ?? []
    }()

    /// The file without its `about` text and certificate, which are not vectors.
    private static func vectorsOnly(_ data: Data) throws -> Data {
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        return try JSONSerialization.data(withJSONObject: ["vectors": object["vectors"] ?? []])
    }

    @Test func theVectorsAreThere() {
        #expect(Self.vectors.filter { $0.kind == "registration" }.count >= 10)
        #expect(Self.vectors.filter { $0.kind == "authentication" }.count >= 10)
    }

    @Test(arguments: WebAuthnVectorTests.vectors.filter { $0.kind == "registration" })
    func registrationsVerify(_ vector: Vector) throws {
        let party = vector.relyingParty
        if vector.isCrossOrigin {
            #expect(throws: PasskeyProblem("a cross-origin ceremony is not allowed")) {
                try party.verifyRegistration(vector.registration, challengeHash: vector.challengeHash, requireUserVerification: false)
            }
            return
        }
        let credential = try party.verifyRegistration(
            vector.registration, challengeHash: vector.challengeHash, requireUserVerification: vector.userVerified)
        #expect(credential.credentialId == vector.credentialId)
        #expect(Data(credential.publicKey).base64URLEncoded() == vector.credentialPublicKey)
        #expect(Int(credential.signCount) == vector.signCount)
        // The same answer for another ceremony, site or origin is refused.
        #expect(throws: PasskeyProblem("the challenge is not this ceremony's")) {
            try party.verifyRegistration(vector.registration, challengeHash: WebAuthnRelyingParty.newChallenge().hash, requireUserVerification: false)
        }
        #expect(throws: PasskeyProblem("the origin \(vector.origin) is not allowed")) {
            try WebAuthnRelyingParty(id: vector.rpId, name: "Test", origins: ["https://elsewhere.test"])
                .verifyRegistration(vector.registration, challengeHash: vector.challengeHash, requireUserVerification: false)
        }
        #expect(throws: PasskeyProblem("the credential is for another relying party id")) {
            try WebAuthnRelyingParty(id: "elsewhere.test", name: "Test", origins: [vector.origin])
                .verifyRegistration(vector.registration, challengeHash: vector.challengeHash, requireUserVerification: false)
        }
        if !vector.userVerified {
            #expect(throws: PasskeyProblem("the user was not verified (UV)")) {
                try party.verifyRegistration(vector.registration, challengeHash: vector.challengeHash)
            }
        }
    }

    @Test(arguments: WebAuthnVectorTests.vectors.filter { $0.kind == "authentication" })
    func assertionsVerify(_ vector: Vector) throws {
        let party = vector.relyingParty
        let key = try COSEKey(stored: Array(try #require(Data(base64URLEncoded: vector.credentialPublicKey))))
        if vector.isCrossOrigin {
            #expect(throws: PasskeyProblem("a cross-origin ceremony is not allowed")) {
                try party.verifyAssertion(vector.assertion, challengeHash: vector.challengeHash, publicKey: key, requireUserVerification: false)
            }
            return
        }
        let assertion = try party.verifyAssertion(
            vector.assertion, challengeHash: vector.challengeHash, publicKey: key, requireUserVerification: vector.userVerified)
        #expect(Int(assertion.signCount) == vector.expectedNewSignCount)

        var broken = vector.assertion
        var signature = Array(try #require(Data(base64URLEncoded: broken.response.signature)))
        signature[signature.count / 2] ^= 0x01
        broken.response.signature = Data(signature).base64URLEncoded()
        #expect(throws: PasskeyProblem("the signature is not the passkey's")) {
            try party.verifyAssertion(broken, challengeHash: vector.challengeHash, publicKey: key, requireUserVerification: false)
        }
        // Another key of the same algorithm does not verify it.
        let other = try COSEKey(CBORDecoder.decode(Self.someCOSEKey(like: key)))
        #expect(throws: PasskeyProblem("the signature is not the passkey's")) {
            try party.verifyAssertion(vector.assertion, challengeHash: vector.challengeHash, publicKey: other, requireUserVerification: false)
        }
        #expect(throws: PasskeyProblem("the challenge is not this ceremony's")) {
            try party.verifyAssertion(
                vector.assertion, challengeHash: WebAuthnRelyingParty.newChallenge().hash, publicKey: key, requireUserVerification: false)
        }
        if !vector.userVerified {
            #expect(throws: PasskeyProblem("the user was not verified (UV)")) {
                try party.verifyAssertion(vector.assertion, challengeHash: vector.challengeHash, publicKey: key)
            }
        }
    }

    /// A fresh key of `key`'s algorithm, as COSE.
    static func someCOSEKey(like key: COSEKey) throws -> [UInt8] {
        switch key {
        case .es256:
            let raw = Array(P256.Signing.PrivateKey().publicKey.rawRepresentation)
            return [0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20] + raw[0..<32] + [0x22, 0x58, 0x20] + raw[32..<64]
        case .edDSA:
            return [0xa4, 0x01, 0x01, 0x03, 0x27, 0x20, 0x06, 0x21, 0x58, 0x20]
                + Array(Curve25519.Signing.PrivateKey().publicKey.rawRepresentation)
        case .rs256:
            // Any other valid RSA key: the py_webauthn vector's and the W3C one's differ.
            let vectors = Self.vectors.filter { $0.kind == "authentication" }.compactMap { Data(base64URLEncoded: $0.credentialPublicKey) }
            let rsa = vectors.map(Array.init).filter { (try? COSEKey(stored: $0)).map { if case .rs256 = $0 { true } else { false } } ?? false }
            let mine = key
            return try #require(rsa.first { candidate in
                guard case .rs256(let a) = try? COSEKey(stored: candidate), case .rs256(let b) = mine else { return false }
                return a.derRepresentation != b.derRepresentation
            })
        }
    }
}
