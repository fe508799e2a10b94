import Crypto
import Foundation
import RepairMinderModels

/// HS256 JSON Web Tokens with a key id (`kid`) in the header, so the signing key can be rotated:
/// tokens signed by the previous key still verify until they expire.
struct JWTSigner: Sendable {
    struct Key: Sendable {
        let id: String
        private let bytes: [UInt8]
        // Kept as bytes because this swift-crypto's `SymmetricKey` is not `Sendable`.
        var key: SymmetricKey { SymmetricKey(data: bytes) }

        init(secret: String) {
            self.init(bytes: Array(secret.utf8))
        }

        private init(bytes: [UInt8]) {
            self.bytes = bytes
            // A public, stable name for the key that reveals nothing usable about it.
            id = String(SHA256.hash(data: Data("repairminder.kid|".utf8) + bytes).hexString.prefix(16))
        }

        /// A key of its own for `purpose`, derived from this one (HKDF-SHA256).
        func derived(for purpose: String) -> Key {
            let derived = HKDF<SHA256>.deriveKey(
                inputKeyMaterial: key, info: Data("repairminder.jwt|\(purpose)".utf8), outputByteCount: 32)
            return Key(bytes: derived.withUnsafeBytes { Array($0) })
        }
    }

    enum VerificationError: Error, Equatable {
        case malformed
        case badSignature
        case expired
    }

    let current: Key
    let previous: Key?
    /// Made once: their options never change, and every sign-in and refresh signs a token.
    private static let claimsEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()
    private static let decoder = JSONDecoder()
    /// Tokens already verified by this signer (`VerifiedTokens`).
    let verified = VerifiedTokens()

    init(secret: String, previousSecret: String? = nil) {
        current = Key(secret: secret)
        previous = previousSecret.map(Key.init(secret:))
    }

    private init(current: Key, previous: Key?) {
        self.current = current
        self.previous = previous
    }

    /// The signer of another kind of token (REKI's, docs/API.md §10): its keys are derived from
    /// these under `purpose`, so a token of one kind never verifies as the other (not even
    /// with matching claims), and a rotation of the JWT secret rotates both.
    func derived(for purpose: String) -> JWTSigner {
        JWTSigner(current: current.derived(for: purpose), previous: previous?.derived(for: purpose))
    }

    func sign(_ claims: some Encodable) throws -> String {
        let header = #"{"alg":"HS256","typ":"JWT","kid":"\#(current.id)"}"#
        let signingInput = Data(header.utf8).base64URLEncoded() + "." + (try Self.claimsEncoder.encode(claims)).base64URLEncoded()
        let signature = HMAC<SHA256>.authenticationCode(for: Data(signingInput.utf8), using: current.key)
        return signingInput + "." + Data(signature).base64URLEncoded()
    }

    /// Checks the signature (with the key named by `kid`), decodes the claims, then checks `exp`.
    /// Claims of another kind (a customer token where a staff one is expected) are `malformed`,
    /// whether or not they expired.
    func verify<Claims: ExpiringClaims>(_ token: String, as type: Claims.Type, now: Date = Date()) throws -> Claims {
        if let known = verified.claims(of: token, as: Claims.self) {
            guard Double(known.exp) > now.timeIntervalSince1970 else { throw VerificationError.expired }
            return known
        }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
            let headerData = Data(base64URLEncoded: parts[0]),
            let header = try? Self.decoder.decode(Header.self, from: headerData),
            header.alg == "HS256",
            let signature = Data(base64URLEncoded: parts[2]),
            let payload = Data(base64URLEncoded: parts[1])
        else { throw VerificationError.malformed }
        let key: Key
        if header.kid == nil || header.kid == current.id {
            key = current
        } else if let previous, header.kid == previous.id {
            key = previous
        } else {
            throw VerificationError.badSignature
        }
        let signingInput = Data("\(parts[0]).\(parts[1])".utf8)
        // `isValidAuthenticationCode` compares in constant time.
        guard HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: signingInput, using: key.key) else {
            throw VerificationError.badSignature
        }
        guard let claims = try? Self.decoder.decode(Claims.self, from: payload), claims.isWellFormed else {
            throw VerificationError.malformed
        }
        guard Double(claims.exp) > now.timeIntervalSince1970 else { throw VerificationError.expired }
        verified.remember(claims, of: token)
        return claims
    }

    private struct Header: Decodable {
        let alg: String
        let kid: String?
    }
}

extension JWTSigner {
    /// Verifies the bearer token of a request: 401 `TOKEN_EXPIRED` when only the expiry is wrong
    /// (a refresh may help), 401 `UNAUTHORIZED` for anything else (docs/API.md §1).
    func verifyBearer<Claims: ExpiringClaims>(_ token: String, as type: Claims.Type, now: Double) throws -> Claims {
        do {
            return try verify(token, as: type, now: Date(timeIntervalSince1970: now))
        } catch VerificationError.expired {
            throw APIError.tokenExpired
        } catch {
            throw APIError.unauthorized
        }
    }
}

/// Claims a `JWTSigner` can verify: they carry their expiry and can say whether they are of
/// the expected kind.
protocol ExpiringClaims: Decodable, Sendable {
    var exp: Int { get }
    var isWellFormed: Bool { get }
}

extension AccessTokenClaims: ExpiringClaims {
    var isWellFormed: Bool { sub == userId }
}

extension CustomerTokenClaims: ExpiringClaims {
    var isWellFormed: Bool { type == "customer" && scope == "customer_portal" }
}
