import Foundation

/// Why a passkey's answer is refused: the message names the check that failed (docs/API.md
/// §11; enrolment shows it, sign-in answers only "Passkey not recognised").
struct PasskeyProblem: Error, Equatable, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The authenticator data of WebAuthn §6.1: what the authenticator signs besides the client data.
struct AuthenticatorData: Sendable {
    /// SHA-256 of the relying party id the credential is scoped to.
    let rpIdHash: [UInt8]
    let flags: UInt8
    let signCount: UInt32
    /// Present at registration (flag AT).
    let attestedCredential: AttestedCredential?

    struct AttestedCredential: Sendable {
        let aaguid: [UInt8]
        let credentialId: [UInt8]
        /// The COSE key exactly as sent: what is stored.
        let publicKeyBytes: [UInt8]
        let publicKey: COSEKey
    }

    var userPresent: Bool { flags & 0x01 != 0 }
    var userVerified: Bool { flags & 0x04 != 0 }
    var backupEligible: Bool { flags & 0x08 != 0 }
    var backedUp: Bool { flags & 0x10 != 0 }

    /// The longest credential id WebAuthn allows.
    static let maxCredentialIdLength = 1023

    /// Parses `bytes`, which must be exactly one authenticator data: the attested credential
    /// and extensions only where the flags say, nothing after them.
    init(_ bytes: [UInt8]) throws(PasskeyProblem) {
        guard bytes.count >= 37 else { throw PasskeyProblem("the authenticator data is too short") }
        rpIdHash = Array(bytes[0..<32])
        flags = bytes[32]
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        var position = 37
        if flags & 0x40 != 0 {
            guard bytes.count >= position + 18 else { throw PasskeyProblem("the attested credential data is too short") }
            let aaguid = Array(bytes[position..<position + 16])
            let idLength = Int(bytes[position + 16]) << 8 | Int(bytes[position + 17])
            position += 18
            guard idLength >= 1, idLength <= Self.maxCredentialIdLength, bytes.count >= position + idLength else {
                throw PasskeyProblem("the credential id's length is wrong")
            }
            let credentialId = Array(bytes[position..<position + idLength])
            position += idLength
            var decoder = CBORDecoder(Array(bytes[position...]))
            let key: CBOR
            do {
                key = try decoder.next()
            } catch {
                throw PasskeyProblem("the public key is not CBOR: \(error)")
            }
            let keyBytes = Array(bytes[position..<position + decoder.position])
            position += decoder.position
            attestedCredential = AttestedCredential(
                aaguid: aaguid, credentialId: credentialId, publicKeyBytes: keyBytes, publicKey: try COSEKey(key))
        } else {
            attestedCredential = nil
        }
        if flags & 0x80 != 0 {
            var decoder = CBORDecoder(Array(bytes[position...]))
            do {
                guard case .map = try decoder.next() else { throw PasskeyProblem("the extensions are not a map") }
            } catch let problem as PasskeyProblem {
                throw problem
            } catch {
                throw PasskeyProblem("the extensions are not CBOR: \(error)")
            }
            position += decoder.position
        }
        guard position == bytes.count else { throw PasskeyProblem("the authenticator data has bytes left over") }
    }
}

/// The client data of WebAuthn §5.8.1, as the browser or the platform wrote it.
struct CollectedClientData: Decodable, Sendable {
    let type: String
    let challenge: String
    let origin: String
    let crossOrigin: Bool?

    init(json bytes: [UInt8]) throws(PasskeyProblem) {
        do {
            self = try JSONDecoder().decode(Self.self, from: Data(bytes))
        } catch {
            throw PasskeyProblem("the client data is not WebAuthn client data JSON")
        }
    }
}


