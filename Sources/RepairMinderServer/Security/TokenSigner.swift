import Crypto
import Foundation
import JWTKit
import RepairMinderModels

/// Signs and verifies every access token (staff, customer, REKI) with jwt-kit's key collection:
/// the signing key of the key set (ES256 or EdDSA, or an HS256 secret), each token naming its
/// key (`kid`) and typed `at+jwt` (RFC 9068), with `iss`, `aud`, `iat`, `exp` and `jti`. The
/// audience tells the kinds apart: a token of one kind fails on the others' routes.
///
/// The keys can be replaced while the server runs (`SigningKeyRefreshService`: a rotation
/// reaches every instance without a restart); each call uses the keys of one moment.
final class TokenSigner: @unchecked Sendable {
    enum VerificationError: Error, Equatable {
        case malformed
        case badSignature
        case expired
    }

    /// The keys as this signer uses them: which one signs, which verify, which are published,
    /// and which signs ID tokens (docs/API.md §16; none with an HS256 secret alone).
    struct Keys: Sendable, Equatable {
        let signing: SigningKeySet.Key
        let verifying: [SigningKeySet.Key]
        let published: PublicJWKS
        var idToken: SigningKeySet.Key? = nil

        /// An HS256 secret that signs, and the previous one, which only verifies; nothing published.
        static func hs256(secret: String, previous: String?) -> Keys {
            Keys(
                signing: SigningKeySet.symmetric(secret: secret, activatesAt: 0),
                verifying: previous.map { [SigningKeySet.symmetric(secret: $0, activatesAt: 0)] } ?? [],
                published: PublicJWKS(keys: []))
        }
    }

    /// The keys of one moment, ready to use.
    private struct State: Sendable {
        let keys: Keys
        let collection: JWTKeyCollection
        let signingID: JWKIdentifier
        /// `keys.published` as `GET /.well-known/jwks.json` answers it.
        let publishedJSON: [UInt8]

        init(_ keys: Keys) async throws {
            self.keys = keys
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            publishedJSON = Array(try encoder.encode(keys.published))
            signingID = JWKIdentifier(string: keys.signing.kid)
            collection = JWTKeyCollection()
            try await TokenSigner.add(keys.signing, to: collection)
            var added = [keys.signing.kid]
            for key in keys.verifying + [keys.idToken].compactMap({ $0 }) where !added.contains(key.kid) {
                try await TokenSigner.add(key, to: collection)
                added.append(key.kid)
            }
        }
    }

    /// `iss` of every token: the server's public URL.
    let issuer: String
    /// Tokens already verified by this signer (`VerifiedTokens`).
    let verified = VerifiedTokens()
    private let lock = NSLock()
    private var state: State

    init(keys: Keys, issuer: String) async throws {
        self.issuer = issuer
        state = try await State(keys)
    }

    private var current: State { lock.withLock { state } }
    var keys: Keys { current.keys }
    var publishedJSON: [UInt8] { current.publishedJSON }

    /// Uses `keys` from now on (a rotation, a key's activation, a retired key's end).
    func replace(with keys: Keys) async throws {
        let next = try await State(keys)
        let kept = Set(([keys.signing] + keys.verifying).map(\.kid))
        let left = lock.withLock {
            defer { state = next }
            return ([state.keys.signing] + state.keys.verifying).contains { !kept.contains($0.kid) }
        }
        // A token verified with a key that left the set (retired, or removed as compromised)
        // must be checked again: it is refused now.
        if left { verified.removeAll() }
    }

    /// Adds `key` to `collection` under its `kid`, as a key that signs and verifies.
    fileprivate static func add(_ key: SigningKeySet.Key, to collection: JWTKeyCollection) async throws {
        let kid = JWKIdentifier(string: key.kid)
        switch key.alg {
        case .es256:
            guard let d = key.d.flatMap({ Data(base64URLEncoded: $0) }) else { throw SettingsError("signing key \(key.kid) has no usable \"d\"") }
            await collection.add(ecdsa: try ES256PrivateKey(backing: try P256.Signing.PrivateKey(rawRepresentation: d)), kid: kid)
        case .eddsa:
            guard let d = key.d.flatMap({ Data(base64URLEncoded: $0) }) else { throw SettingsError("signing key \(key.kid) has no usable \"d\"") }
            await collection.add(eddsa: EdDSA.PrivateKey(backing: try Curve25519.Signing.PrivateKey(rawRepresentation: d)), kid: kid)
        case .hs256:
            guard let k = key.k.flatMap({ Data(base64URLEncoded: $0) }), k.count >= 32 else {
                throw SettingsError("HS256 key \(key.kid) is under 32 bytes")
            }
            await collection.add(hmac: HMACKey(from: k), digestAlgorithm: .sha256, kid: kid)
        case .rs256:
            guard let n = key.n, let e = key.e, let d = key.d, let p = key.p, let q = key.q else {
                throw SettingsError("signing key \(key.kid) lacks one of the RSA members n, e, d, p, q")
            }
            let rsa = try Insecure.RSA.PrivateKey(modulus: n, exponent: e, privateExponent: d, prime1: p, prime2: q)
            await collection.add(rsa: rsa, digestAlgorithm: .sha256, kid: kid)
        }
    }

    /// A connected app's access token (docs/API.md §16.4): signed and typed as every access
    /// token, its audience the app.
    func signOAuthAccess(_ payload: OAuthAccessPayload) async throws -> String {
        var header = JWTHeader()
        header.typ = "at+jwt"
        let state = current
        return try await state.collection.sign(payload, kid: state.signingID, header: header)
    }

    /// The payload of an app's access token this server signed (its expiry is the caller's to check).
    func verifyOAuthAccess(_ token: String) async throws -> OAuthAccessPayload {
        let state = current
        guard let header = Self.header(of: token), header.typ == "at+jwt",
            let key = ([state.keys.signing] + state.keys.verifying).first(where: { $0.kid == header.kid }), header.alg == key.alg.rawValue,
            !key.alg.signsIDTokens
        else { throw VerificationError.malformed }
        let payload: OAuthAccessPayload
        do {
            payload = try await state.collection.verify(token, as: OAuthAccessPayload.self)
        } catch {
            throw VerificationError.badSignature
        }
        guard payload.iss == issuer, payload.aud == payload.clientId else { throw VerificationError.malformed }
        return payload
    }

    /// An ID token (docs/API.md §16.5) carrying `payload`, signed with the set's RS256 key
    /// (typed `JWT`, naming the key); nil when there is no such key (HS256 alone).
    func signIDToken(_ payload: some JWTPayload) async throws -> String? {
        let state = current
        guard let key = state.keys.idToken else { return nil }
        var header = JWTHeader()
        header.typ = "JWT"
        return try await state.collection.sign(payload, kid: JWKIdentifier(string: key.kid), header: header)
    }

    /// The payload of an ID token this server signed with a key it still has (`id_token_hint`
    /// at logout, which may name an expired token: `exp` is the caller's to judge).
    func verifyIDToken<Payload: JWTPayload>(_ token: String, as type: Payload.Type) async throws -> Payload {
        let state = current
        guard let header = Self.header(of: token), header.alg == SigningKeyAlgorithm.rs256.rawValue,
            let key = ([state.keys.signing] + state.keys.verifying + [state.keys.idToken].compactMap { $0 })
                .first(where: { $0.kid == header.kid }), key.alg == .rs256
        else { throw VerificationError.malformed }
        do {
            return try await state.collection.verify(token, as: Payload.self)
        } catch {
            throw VerificationError.badSignature
        }
    }

    /// A signed access token carrying `claims`, for the audience of their kind.
    func sign<Claims: AccessClaims>(_ claims: Claims) async throws -> String {
        var header = JWTHeader()
        header.typ = "at+jwt"
        let payload = AccessTokenPayload(
            claims: claims, iss: issuer, aud: Claims.audience, jti: RandomToken.base64URL(byteCount: 16))
        let state = current
        return try await state.collection.sign(payload, kid: state.signingID, header: header)
    }

    /// Checks the header (`typ`, a key of this set with its own algorithm), the signature, the
    /// audience and issuer and the claims' kind, then `exp` at `now`.
    func verify<Claims: AccessClaims>(_ token: String, as type: Claims.Type, now: Double) async throws -> Claims {
        if let known = verified.claims(of: token, as: Claims.self) {
            guard Double(known.exp) > now else { throw VerificationError.expired }
            return known
        }
        let state = current
        guard let header = Self.header(of: token), header.typ == "at+jwt",
            let key = ([state.keys.signing] + state.keys.verifying).first(where: { $0.kid == header.kid }),
            header.alg == key.alg.rawValue
        else { throw VerificationError.malformed }
        let payload: AccessTokenPayload<Claims>
        do {
            payload = try await state.collection.verify(token, as: AccessTokenPayload<Claims>.self)
        } catch let error as JWTError where error.errorType == .signatureVerificationFailed {
            throw VerificationError.badSignature
        } catch {
            throw VerificationError.malformed
        }
        guard payload.iss == issuer else { throw VerificationError.malformed }
        guard Double(payload.claims.exp) > now else { throw VerificationError.expired }
        verified.remember(payload.claims, of: token)
        return payload.claims
    }

    /// Verifies the bearer token of a request: 401 `TOKEN_EXPIRED` when only the expiry is wrong
    /// (a refresh may help), 401 `UNAUTHORIZED` for anything else (docs/API.md §1).
    func verifyBearer<Claims: AccessClaims>(_ token: String, as type: Claims.Type, now: Double) async throws -> Claims {
        do {
            return try await verify(token, as: type, now: now)
        } catch VerificationError.expired {
            throw APIError.tokenExpired
        } catch {
            throw APIError.unauthorized
        }
    }

    private struct Header: Decodable {
        let alg: String
        let typ: String?
        let kid: String?
    }

    private static func header(of token: String) -> Header? {
        guard let dot = token.firstIndex(of: "."), let data = Data(base64URLEncoded: token[..<dot]) else { return nil }
        return try? JSONDecoder().decode(Header.self, from: data)
    }
}

extension TokenSigner {
    /// The signer `settings` describe at `now`, issuing as the server's public URL.
    convenience init(settings: ServerSettings, now: Double) async throws {
        try await self.init(keys: Self.keys(for: settings, jwtSecret: Self.jwtSecret(for: settings), now: now), issuer: settings.serverURL)
    }

    /// The HS256 secret: the one that signs (`--jwt-algorithm HS256`), or with a key pair the
    /// one used before, which only verifies what it signed (if there was one).
    static func jwtSecret(for settings: ServerSettings) throws -> String? {
        settings.jwtAlgorithm == .hs256
            ? try settings.jwtSecret ?? GeneratedSecret.loadOrCreate(named: "jwt-secret", in: settings.dataDirectory)
            : try settings.jwtSecret ?? GeneratedSecret.loadIfPresent(named: "jwt-secret", in: settings.dataDirectory)
    }

    /// The keys `settings` name at `now`: an HS256 secret (and the previous one, verifying
    /// only) with `--jwt-algorithm HS256`; otherwise the key set file. With `creating` (at
    /// start-up, in development) a missing file is created with one new key pair (and the
    /// HS256 secret used so far, verifying until the tokens it signed have expired); a re-read
    /// never creates one.
    static func keys(for settings: ServerSettings, jwtSecret: String?, now: Double, creating: Bool = true) throws -> Keys {
        let lifetime = settings.longestTokenLifetime
        if settings.jwtAlgorithm == .hs256 {
            guard let jwtSecret else { throw SettingsError("--jwt-algorithm HS256 needs --jwt-secret") }
            return .hs256(secret: jwtSecret, previous: settings.previousJWTSecret)
        }
        let path = settings.signingKeysPath
        let set =
            creating && settings.environment != .production
            ? try SigningKeyFile.loadOrCreate(path, algorithm: settings.jwtAlgorithm, retiring: jwtSecret, now: now)
            : try SigningKeyFile.load(path)
        guard let signing = set.signingKey(at: now) else { throw SettingsError("\(path) has no key active yet") }
        return Keys(
            signing: signing, verifying: set.verificationKeys(at: now, lifetime: lifetime),
            published: set.publicJWKS(at: now, lifetime: lifetime), idToken: set.idTokenKey(at: now))
    }
}

/// The claims of one kind of access token (staff, customer, REKI), exactly as its seed has
/// them; `AccessTokenPayload` adds the registered claims around them.
protocol AccessClaims: Codable, Sendable {
    /// `aud`: which routes take tokens of this kind.
    static var audience: String { get }
    var exp: Int { get }
    /// Whether the claims are of this kind (a customer token decoded as staff claims is not).
    var isWellFormed: Bool { get }
}

extension AccessTokenClaims: AccessClaims {
    static var audience: String { "repairminder" }
    var isWellFormed: Bool { sub == userId }
}

extension CustomerTokenClaims: AccessClaims {
    static var audience: String { "repairminder-customer" }
    var isWellFormed: Bool { type == "customer" && scope == "customer_portal" }
}

extension REKITokenClaims: AccessClaims {
    static var audience: String { "reki" }
    var isWellFormed: Bool { !sub.isEmpty && !sid.isEmpty }
}

/// An access token's payload: the kind's claims and the registered claims RFC 9068 asks for
/// (`iss`, `aud`, `jti`; `iat` and `exp` are the kind's own), side by side in one JSON object.
struct AccessTokenPayload<Claims: AccessClaims>: JWTPayload {
    let claims: Claims
    let iss: String
    let aud: String
    let jti: String

    private enum Registered: String, CodingKey { case iss, aud, jti }

    init(claims: Claims, iss: String, aud: String, jti: String) {
        self.claims = claims
        self.iss = iss
        self.aud = aud
        self.jti = jti
    }

    init(from decoder: any Decoder) throws {
        claims = try Claims(from: decoder)
        let registered = try decoder.container(keyedBy: Registered.self)
        iss = try registered.decode(String.self, forKey: .iss)
        aud = try registered.decode(String.self, forKey: .aud)
        jti = try registered.decode(String.self, forKey: .jti)
    }

    func encode(to encoder: any Encoder) throws {
        try claims.encode(to: encoder)
        var registered = encoder.container(keyedBy: Registered.self)
        try registered.encode(iss, forKey: .iss)
        try registered.encode(aud, forKey: .aud)
        try registered.encode(jti, forKey: .jti)
    }

    /// The audience and the claims' kind; the signature was checked before, `exp` is checked
    /// after with the server's clock.
    func verify(using algorithm: some JWTAlgorithm) async throws {
        guard aud == Claims.audience, claims.isWellFormed else { throw TokenSigner.VerificationError.malformed }
    }
}
