import Crypto
import Foundation
import _CryptoExtras

/// The keys access tokens are signed with: a JWK Set file (`--signing-keys`, by default
/// `<data-dir>/signing-keys.json`, mode 0600), private keys included, each with a `kid` and the
/// moment it starts signing (`activates_at`, seconds since 1970; a member of our own, which
/// other JWK readers ignore).
///
/// A key is published (`GET /.well-known/jwks.json`) from the moment it is added, signs from
/// `activates_at` until a newer key activates, and still verifies for an access token's
/// lifetime after that; then it is dropped at the next rewrite of the file. An `oct` key (an
/// HS256 secret the deployment used before) only verifies, and is never published.
///
/// Two families of keys live in the set, each with its own signing key and retirements: the
/// access tokens' (ES256, EdDSA) and the ID tokens' (RS256, docs/API.md §16: OpenID Connect
/// Discovery requires RS256 of a provider).
struct SigningKeySet: Codable, Sendable, Equatable {
    typealias Algorithm = SigningKeyAlgorithm

    /// One key, as stored: a private JWK and when it starts signing.
    struct Key: Codable, Sendable, Equatable {
        var kty: String
        var crv: String?
        var x: String?
        var y: String?
        /// The private scalar (EC, OKP) or exponent (RSA), base64url.
        var d: String?
        /// RSA's public modulus and exponent, and its private primes and CRT values (RFC 7518 §6.3).
        var n: String?
        var e: String?
        var p: String?
        var q: String?
        var dp: String?
        var dq: String?
        var qi: String?
        /// The secret (oct), base64url.
        var k: String?
        var kid: String
        var alg: Algorithm
        var use = "sig"
        var activatesAt: Double

        enum CodingKeys: String, CodingKey {
            case kty, crv, x, y, d, n, e, p, q, dp, dq, qi, k, kid, alg, use
            case activatesAt = "activates_at"
        }
    }

    var keys: [Key]

    // MARK: Which key does what, when

    /// The key that signs access tokens at `now`: of those already active, the one that
    /// activated last.
    func signingKey(at now: Double) -> Key? { newestActive(at: now, signsIDTokens: false) }

    /// The key that signs ID tokens at `now` (RS256), if the set has one active.
    func idTokenKey(at now: Double) -> Key? { newestActive(at: now, signsIDTokens: true) }

    private func newestActive(at now: Double, signsIDTokens: Bool) -> Key? {
        keys.enumerated().filter { $0.element.activatesAt <= now && $0.element.alg.signsIDTokens == signsIDTokens }
            .max { ($0.element.activatesAt, $0.offset) < ($1.element.activatesAt, $1.offset) }?.element
    }

    /// When `key` stopped signing (a newer key of its family activated), if it has by `now`.
    func retirement(of key: Key, at now: Double) -> Double? {
        keys.filter { $0.alg.signsIDTokens == key.alg.signsIDTokens }.map(\.activatesAt)
            .filter { $0 > key.activatesAt && $0 <= now }.min()
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
        case .rs256:
            // 2048 bits, the most common size (RFC 7518 §3.3's floor), quick to verify.
            let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
            let parts = try RSAKeyComponents(pkcs1: key.derRepresentation)
            return Key(
                kty: "RSA", d: parts.d.base64URLEncoded(), n: parts.n.base64URLEncoded(), e: parts.e.base64URLEncoded(),
                p: parts.p.base64URLEncoded(), q: parts.q.base64URLEncoded(), dp: parts.dp.base64URLEncoded(),
                dq: parts.dq.base64URLEncoded(), qi: parts.qi.base64URLEncoded(), kid: "", alg: .rs256, activatesAt: activatesAt
            ).withThumbprintID()
        case .hs256:
            throw SettingsError("HS256 keys are not generated: give --jwt-secret, or choose --jwt-algorithm ES256 or EdDSA")
        }
    }

    /// The set with an ID token key added when it has none (a set made before ID tokens
    /// existed), active at `now`; nil when it has one.
    func addingIDTokenKey(at now: Double) throws -> SigningKeySet? {
        guard !keys.contains(where: \.alg.signsIDTokens) else { return nil }
        return SigningKeySet(keys: keys + [try Self.generate(.rs256, activatesAt: now)])
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
    /// The public half as a JWK (no private member), or nil for a symmetric key.
    var publicJWK: PublicJWK? {
        if kty == "RSA", let n, let e { return PublicJWK(kty: kty, n: n, e: e, kid: kid, alg: alg.rawValue, use: use) }
        guard kty != "oct", let x else { return nil }
        return PublicJWK(kty: kty, crv: crv, x: x, y: y, kid: kid, alg: alg.rawValue, use: use)
    }

    /// This key named by its RFC 7638 thumbprint (SHA-256 of its required public members).
    func withThumbprintID() -> Self {
        var members = kty == "RSA" ? ["e": e ?? "", "kty": kty, "n": n ?? ""] : ["crv": crv ?? "", "kty": kty, "x": x ?? ""]
        if let y { members["y"] = y }
        let canonical = "{" + members.keys.sorted().map { "\"\($0)\":\"\(members[$0] ?? "")\"" }.joined(separator: ",") + "}"
        var named = self
        named.kid = Data(SHA256.hash(data: Data(canonical.utf8))).base64URLEncoded()
        return named
    }
}

/// How a key of the set signs. Access tokens (`--jwt-algorithm`, its `allCases`) are signed
/// with a key pair of the set or an HS256 secret; ID tokens with an RS256 key of the set.
public enum SigningKeyAlgorithm: String, Codable, Sendable, CaseIterable {
    case es256 = "ES256"
    case eddsa = "EdDSA"
    case hs256 = "HS256"
    /// ID tokens only (docs/API.md §16).
    case rs256 = "RS256"

    /// The access tokens' choices.
    public static let allCases: [SigningKeyAlgorithm] = [.es256, .eddsa, .hs256]

    /// Whether keys of this algorithm sign ID tokens rather than access tokens.
    var signsIDTokens: Bool { self == .rs256 }
}

/// A public key as `GET /.well-known/jwks.json` lists it.
struct PublicJWK: Codable, Sendable, Equatable {
    let kty: String
    var crv: String?
    var x: String?
    var y: String?
    var n: String?
    var e: String?
    let kid: String
    let alg: String
    let use: String
}

struct PublicJWKS: Codable, Sendable, Equatable {
    let keys: [PublicJWK]
}
