import Crypto
import Foundation
import _CryptoExtras

/// A passkey's public key, from its COSE_Key (RFC 9052 §7, RFC 9053): one of the algorithms the
/// registration options offer. It checks WebAuthn assertion signatures.
enum COSEKey: Sendable {
    case es256(P256.Signing.PublicKey)
    case edDSA(Curve25519.Signing.PublicKey)
    case rs256(_RSA.Signing.PublicKey)

    /// The COSE algorithms offered, in the server's order of preference: ES256, EdDSA, RS256.
    static let supportedAlgorithms = [-7, -8, -257]

    /// The key `cbor` describes, or why it is not one this server takes.
    init(_ cbor: CBOR) throws(PasskeyProblem) {
        guard case .map = cbor, let kty = cbor[1]?.integer, let alg = cbor[3]?.integer else {
            throw PasskeyProblem("the public key is not a COSE key with kty and alg")
        }
        do {
            switch (kty, alg) {
            case (2, -7):
                // EC2 on P-256 (crv 1), uncompressed coordinates.
                guard cbor[-1]?.integer == 1, let x = cbor[-2]?.bytes, let y = cbor[-3]?.bytes, x.count == 32, y.count == 32 else {
                    throw PasskeyProblem("the ES256 key is not a P-256 point")
                }
                // swift-crypto (BoringSSL) refuses coordinates that are not a point on P-256.
                self = .es256(try P256.Signing.PublicKey(rawRepresentation: x + y))
            case (1, -8):
                // OKP on Ed25519 (crv 6).
                guard cbor[-1]?.integer == 6, let x = cbor[-2]?.bytes, x.count == 32 else {
                    throw PasskeyProblem("the EdDSA key is not an Ed25519 key")
                }
                // A small-order key (the identity among them) verifies a signature made without
                // any private key: refused at enrolment, and at sign-in for a key stored before.
                if let problem = Ed25519PointCheck.problem(x) {
                    throw PasskeyProblem("the EdDSA key is not a point of the prime-order group (\(problem))")
                }
                self = .edDSA(try Curve25519.Signing.PublicKey(rawRepresentation: x))
            case (3, -257):
                guard let n = cbor[-1]?.bytes, let e = cbor[-2]?.bytes, !n.isEmpty, !e.isEmpty, e.count <= 8 else {
                    throw PasskeyProblem("the RS256 key has no modulus and exponent")
                }
                // Its signatures must fit the sign-in's 1024-character field: RSA-4096 at most.
                guard n.drop(while: { $0 == 0 }).count <= 512 else { throw PasskeyProblem("the RS256 key is larger than 4096 bits") }
                // A small exponent (3) has let forged PKCS #1 v1.5 signatures through careless
                // verifiers; authenticators use 65537. Even exponents are no RSA key at all.
                let exponent = e.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                guard exponent >= 65537, exponent % 2 == 1 else {
                    throw PasskeyProblem("the RS256 key's exponent \(exponent) is not an odd number of at least 65537")
                }
                // _CryptoExtras refuses moduli under 2048 bits.
                let modulus = Array(n.drop(while: { $0 == 0 }))
                let bits = modulus.first.map { modulus.count * 8 - $0.leadingZeroBitCount } ?? 0
                guard bits >= 2048 else { throw PasskeyProblem("the RS256 key is smaller than 2048 bits (\(bits))") }
                self = .rs256(try _RSA.Signing.PublicKey(n: n, e: e))
            default:
                throw PasskeyProblem("the public key's algorithm \(alg) is not one of ES256, EdDSA, RS256")
            }
        } catch let problem as PasskeyProblem {
            throw problem
        } catch {
            throw PasskeyProblem("the public key is not a valid key")
        }
    }

    /// The key stored as its COSE bytes.
    init(stored bytes: [UInt8]) throws(PasskeyProblem) {
        let cbor: CBOR
        do {
            cbor = try CBORDecoder.decode(bytes)
        } catch {
            throw PasskeyProblem("the stored public key is not CBOR: \(error)")
        }
        try self.init(cbor)
    }

    /// Whether `signature` is this key's over `message` (WebAuthn §6.5.6: ES256 signatures are
    /// DER-encoded, RS256 is PKCS #1 v1.5 with SHA-256).
    func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        switch self {
        case .es256(let key):
            guard let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return key.isValidSignature(parsed, for: message)
        case .edDSA(let key):
            return key.isValidSignature(signature, for: message)
        case .rs256(let key):
            return key.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: message, padding: .insecurePKCS1v1_5)
        }
    }
}
