import Crypto
import Foundation

/// The keys access tokens are signed with: a JWK Set file (`--signing-keys`, by default
/// `<data-dir>/signing-keys.json`, mode 0600), private keys included, each with a `kid` and the
/// moment it starts signing (`activates_at`, seconds since 1970; a member of our own, which
/// other JWK readers ignore).
///
/// A key is published (`GET /.well-known/jwks.json`) from the moment it is added, signs from
/// `activates_at` until a newer key activates, and still verifies for an access token's
/// lifetime after that; then it is dropped at the next rewrite of the file. An `oct` key (an
/// HS256 secret the deployment used before) only verifies, and is never published.
struct SigningKeySet: Codable, Sendable, Equatable {
    typealias Algorithm = SigningKeyAlgorithm

    /// One key, as stored: a private JWK and when it starts signing.
    struct Key: Codable, Sendable, Equatable {
        var kty: String
        var crv: String?
        var x: String?
        var y: String?
        /// The private scalar (EC, OKP), base64url.
        var d: String?
        /// The secret (oct), base64url.
        var k: String?
        var kid: String
        var alg: Algorithm
        var use = "sig"
        var activatesAt: Double

        enum CodingKeys: String, CodingKey {
            case kty, crv, x, y, d, k, kid, alg, use
            case activatesAt = "activates_at"
        }
    }

    var keys: [Key]

    // MARK: Which key does what, when

    /// The key that signs at `now`: of those already active, the one that activated last.
    func signingKey(at now: Double) -> Key? {
        keys.enumerated().filter { $0.element.activatesAt <= now }
            .max { ($0.element.activatesAt, $0.offset) < ($1.element.activatesAt, $1.offset) }?.element
    }

    /// When `key` stopped signing (a newer key activated), if it has by `now`.
    func retirement(of key: Key, at now: Double) -> Double? {
        keys.map(\.activatesAt).filter { $0 > key.activatesAt && $0 <= now }.min()
    }

    /// The keys a token may be signed with at `now`: the signing key, keys published but not
    /// active yet, and keys retired less than `lifetime` (the longest access token's) ago.
    func verificationKeys(at now: Double, lifetime: Double) -> [Key] {
        keys.filter { key in
            guard let retired = retirement(of: key, at: now) else { return true }
            return retired + lifetime > now
        }
    }

    /// The public keys that verify tokens at `now`, as a JWK Set: never a private or symmetric key.
    func publicJWKS(at now: Double, lifetime: Double) -> PublicJWKS {
        PublicJWKS(keys: verificationKeys(at: now, lifetime: lifetime).compactMap(\.publicJWK))
    }

    // MARK: Making keys

    /// A new key pair for `algorithm` (not HS256: a symmetric key is never generated into the
    /// set), which signs from `activatesAt`.
    static func generate(_ algorithm: Algorithm, activatesAt: Double) throws -> Key {
        switch algorithm {
        case .es256:
            let key = P256.Signing.PrivateKey()
            // x9.63: 0x04, then X and Y, 32 bytes each.
            let point = Array(key.publicKey.x963Representation)
            return Key(
                kty: "EC", crv: "P-256", x: Data(point[1..<33]).base64URLEncoded(), y: Data(point[33..<65]).base64URLEncoded(),
                d: key.rawRepresentation.base64URLEncoded(), kid: "", alg: .es256, activatesAt: activatesAt
            ).withThumbprintID()
        case .eddsa:
            let key = Curve25519.Signing.PrivateKey()
            return Key(
                kty: "OKP", crv: "Ed25519", x: key.publicKey.rawRepresentation.base64URLEncoded(),
                d: key.rawRepresentation.base64URLEncoded(), kid: "", alg: .eddsa, activatesAt: activatesAt
            ).withThumbprintID()
        case .hs256:
            throw SettingsError("HS256 keys are not generated: give --jwt-secret, or choose --jwt-algorithm ES256 or EdDSA")
        }
    }

    /// An HS256 secret as a key of the set (verification only, for tokens signed before a
    /// switch to a key pair), named as `--jwt-secret`'s tokens always were.
    static func symmetric(secret: String, activatesAt: Double) -> Key {
        Key(
            kty: "oct", k: Data(secret.utf8).base64URLEncoded(), kid: legacyKeyID(of: secret), alg: .hs256,
            activatesAt: activatesAt)
    }

    /// The `kid` HS256 tokens carry: public and stable, revealing nothing usable of the secret.
    static func legacyKeyID(of secret: String) -> String {
        String(SHA256.hash(data: Data("repairminder.kid|".utf8) + Data(secret.utf8)).hexString.prefix(16))
    }
}

extension SigningKeySet.Key {
    /// The public half as a JWK (no `d`), or nil for a symmetric key.
    var publicJWK: PublicJWK? {
        guard kty != "oct", let x else { return nil }
        return PublicJWK(kty: kty, crv: crv, x: x, y: y, kid: kid, alg: alg.rawValue, use: use)
    }

    /// This key named by its RFC 7638 thumbprint (SHA-256 of its required public members).
    func withThumbprintID() -> Self {
        var members = ["crv": crv ?? "", "kty": kty, "x": x ?? ""]
        if let y { members["y"] = y }
        let canonical = "{" + members.keys.sorted().map { "\"\($0)\":\"\(members[$0] ?? "")\"" }.joined(separator: ",") + "}"
        var named = self
        named.kid = Data(SHA256.hash(data: Data(canonical.utf8))).base64URLEncoded()
        return named
    }
}

/// How access tokens are signed (`--jwt-algorithm`): with a key pair of the key set, or an
/// HS256 secret.
public enum SigningKeyAlgorithm: String, Codable, Sendable, CaseIterable {
    case es256 = "ES256"
    case eddsa = "EdDSA"
    case hs256 = "HS256"
}

/// A public key as `GET /.well-known/jwks.json` lists it.
struct PublicJWK: Codable, Sendable, Equatable {
    let kty: String
    let crv: String?
    let x: String
    let y: String?
    let kid: String
    let alg: String
    let use: String
}

struct PublicJWKS: Codable, Sendable, Equatable {
    let keys: [PublicJWK]
}
