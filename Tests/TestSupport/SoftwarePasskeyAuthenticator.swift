import Crypto
import Foundation
import RepairMinderKit
import RepairMinderModels
import _CryptoExtras

/// A passkey authenticator in software (swift-crypto keys, CBOR written by hand), for the Linux
/// tests: it answers the server's options the way a browser and a platform authenticator do
/// (WebAuthn Level 3), discoverable credentials with user verification, attestation "none".
/// Every part of an answer can be bent (`Tampering`) so tests can send what an attacker would.
public final class SoftwarePasskeyAuthenticator: PasskeyAuthenticator, @unchecked Sendable {
    public enum Algorithm: Sendable {
        case es256, edDSA, rs256
        /// An attacker's Ed25519 "key": the point `publicKey` (a small-order point such as the
        /// identity), with no private key; it signs with R = the identity, S = 0, which a
        /// verifier that takes such a key accepts for any message.
        case forgedEdDSA(publicKey: [UInt8])
    }

    /// What a ceremony should get wrong on purpose.
    public struct Tampering: Sendable {
        public var origin: String?
        public var rpId: String?
        public var type: String?
        public var challenge: String?
        public var userPresent = true
        public var userVerified = true
        public var crossOrigin = false
        /// Clears BE (backup eligible) while BS (backed up) stays set: a contradiction.
        public var backedUpWithoutEligibility = false
        /// The sign count to report instead of the next one.
        public var signCount: UInt32?
        /// Flips a bit of the signature.
        public var breakSignature = false
        /// The COSE key to attest instead of the credential's own (an off-curve point, a weak RSA key).
        public var coseKey: [UInt8]?
        public var userHandle: String?
        public init() {}
    }

    public struct Credential: Sendable {
        public let id: [UInt8]
        public let rpId: String
        public let userHandle: String
        let key: PrivateKey
        public var signCount: UInt32
        /// The public key as the authenticator attests it (COSE).
        public var coseKey: [UInt8] { (try? SoftwarePasskeyAuthenticator.coseKey(of: key)) ?? [] }
    }

    enum PrivateKey: @unchecked Sendable {
        case es256(P256.Signing.PrivateKey)
        case edDSA(Curve25519.Signing.PrivateKey)
        case rs256(_RSA.Signing.PrivateKey)
        case forgedEdDSA([UInt8])
    }

    public let origin: String
    public let algorithm: Algorithm
    /// Applied to the next ceremony only, then reset.
    public var tampering: Tampering {
        get { lock.withLock { pending } }
        set { lock.withLock { pending = newValue } }
    }
    private var pending = Tampering()
    private var stored: [Credential] = []
    private let lock = NSLock()

    public init(origin: String, algorithm: Algorithm = .es256) {
        self.origin = origin
        self.algorithm = algorithm
    }

    public var credentials: [Credential] { lock.withLock { stored } }

    private func takeTampering() -> Tampering {
        lock.withLock {
            defer { pending = Tampering() }
            return pending
        }
    }

    // MARK: PasskeyAuthenticator

    public func createPasskey(_ options: PublicKeyCredentialCreationOptionsJSON) async throws -> RegistrationResponseJSON {
        let tampering = takeTampering()
        let algorithmNumber = switch algorithm { case .es256: -7; case .edDSA, .forgedEdDSA: -8; case .rs256: -257 }
        guard options.pubKeyCredParams.contains(where: { $0.alg == algorithmNumber }) else {
            throw PasskeyError.failed("the server does not take this algorithm")
        }
        let excluded = Set(options.excludeCredentials.map(\.id))
        guard !lock.withLock({ stored.contains { excluded.contains(Data($0.id).base64URLEncoded()) } }) else {
            throw PasskeyError.failed("this authenticator already has a passkey for the account")
        }
        let key: PrivateKey =
            switch algorithm {
            case .es256: .es256(P256.Signing.PrivateKey())
            case .edDSA: .edDSA(Curve25519.Signing.PrivateKey())
            case .rs256: .rs256(try _RSA.Signing.PrivateKey(keySize: .bits2048))
            case .forgedEdDSA(let point): .forgedEdDSA(point)
            }
        let id = (0..<32).map { _ in UInt8.random(in: .min ... .max) }
        let credential = Credential(id: id, rpId: options.rp.id, userHandle: options.user.id, key: key, signCount: 0)
        lock.withLock { stored.append(credential) }
        let clientData = Self.clientData(
            type: tampering.type ?? "webauthn.create", challenge: tampering.challenge ?? options.challenge,
            origin: tampering.origin ?? origin, crossOrigin: tampering.crossOrigin)
        var authData = Self.authenticatorDataPrefix(
            rpId: tampering.rpId ?? options.rp.id, userPresent: tampering.userPresent, userVerified: tampering.userVerified,
            attested: true, signCount: tampering.signCount ?? 0)
        if tampering.backedUpWithoutEligibility { authData[32] &= ~0x08 }
        authData += [UInt8](repeating: 0, count: 16)  // AAGUID: none, as with attestation "none"
        authData += [UInt8(id.count >> 8), UInt8(id.count & 0xff)] + id
        authData += try tampering.coseKey ?? Self.coseKey(of: key)
        let attestation = CBORWriter.map([
            (CBORWriter.text("fmt"), CBORWriter.text("none")), (CBORWriter.text("attStmt"), CBORWriter.map([])),
            (CBORWriter.text("authData"), CBORWriter.bytes(authData)),
        ])
        return RegistrationResponseJSON(
            id: Data(id).base64URLEncoded(),
            response: .init(clientDataJSON: Data(clientData).base64URLEncoded(), attestationObject: Data(attestation).base64URLEncoded()))
    }

    public func signIn(_ options: PublicKeyCredentialRequestOptionsJSON) async throws -> AuthenticationResponseJSON {
        let allowed = Set(options.allowCredentials.map(\.id))
        guard
            let credential = lock.withLock({
                stored.last { $0.rpId == options.rpId && (allowed.isEmpty || allowed.contains(Data($0.id).base64URLEncoded())) }
            })
        else { throw PasskeyError.failed("no passkey for \(options.rpId)") }
        return try assert(options, with: credential)
    }

    /// An assertion of `credential` (which may be another authenticator's, or removed).
    public func assert(_ options: PublicKeyCredentialRequestOptionsJSON, with credential: Credential) throws
        -> AuthenticationResponseJSON
    {
        let tampering = takeTampering()
        let count = tampering.signCount ?? (credential.signCount + 1)
        lock.withLock {
            if let index = stored.firstIndex(where: { $0.id == credential.id }) { stored[index].signCount = max(stored[index].signCount, count) }
        }
        let clientData = Self.clientData(
            type: tampering.type ?? "webauthn.get", challenge: tampering.challenge ?? options.challenge,
            origin: tampering.origin ?? origin, crossOrigin: tampering.crossOrigin)
        let authData = Self.authenticatorDataPrefix(
            rpId: tampering.rpId ?? options.rpId, userPresent: tampering.userPresent, userVerified: tampering.userVerified,
            attested: false, signCount: count)
        var signature = try Self.sign(authData + Array(SHA256.hash(data: clientData)), with: credential.key)
        if tampering.breakSignature { signature[signature.count / 2] ^= 0x01 }
        return AuthenticationResponseJSON(
            id: Data(credential.id).base64URLEncoded(),
            response: .init(
                clientDataJSON: Data(clientData).base64URLEncoded(), authenticatorData: Data(authData).base64URLEncoded(),
                signature: Data(signature).base64URLEncoded(), userHandle: tampering.userHandle ?? credential.userHandle))
    }

    // MARK: Encoding

    public static func clientData(type: String, challenge: String, origin: String, crossOrigin: Bool) -> [UInt8] {
        // Written as browsers write it: these members first, in this order.
        let object: [(String, Any)] = [("type", type), ("challenge", challenge), ("origin", origin), ("crossOrigin", crossOrigin)]
        let members = object.map { key, value in
            let encoded = (try? JSONSerialization.data(withJSONObject: value, options: .fragmentsAllowed)) ?? Data()
            return "\"\(key)\":\(String(decoding: encoded, as: UTF8.self))"
        }
        return Array(("{" + members.joined(separator: ",") + "}").utf8)
    }

    static func authenticatorDataPrefix(rpId: String, userPresent: Bool, userVerified: Bool, attested: Bool, signCount: UInt32)
        -> [UInt8]
    {
        var flags: UInt8 = 0
        if userPresent { flags |= 0x01 }
        if userVerified { flags |= 0x04 }
        flags |= 0x08 | 0x10  // backup eligible and backed up, as a synced passkey
        if attested { flags |= 0x40 }
        return Array(SHA256.hash(data: Array(rpId.utf8))) + [flags]
            + [UInt8(signCount >> 24), UInt8(signCount >> 16 & 0xff), UInt8(signCount >> 8 & 0xff), UInt8(signCount & 0xff)]
    }

    static func coseKey(of key: PrivateKey) throws -> [UInt8] {
        switch key {
        case .es256(let key):
            let raw = Array(key.publicKey.rawRepresentation)
            return CBORWriter.map([
                (CBORWriter.int(1), CBORWriter.int(2)), (CBORWriter.int(3), CBORWriter.int(-7)),
                (CBORWriter.int(-1), CBORWriter.int(1)), (CBORWriter.int(-2), CBORWriter.bytes(Array(raw[0..<32]))),
                (CBORWriter.int(-3), CBORWriter.bytes(Array(raw[32..<64]))),
            ])
        case .edDSA(let key):
            return okpKey(Array(key.publicKey.rawRepresentation))
        case .forgedEdDSA(let point):
            return okpKey(point)
        case .rs256(let key):
            let primitives = try key.publicKey.getKeyPrimitives()
            return CBORWriter.map([
                (CBORWriter.int(1), CBORWriter.int(3)), (CBORWriter.int(3), CBORWriter.int(-257)),
                (CBORWriter.int(-1), CBORWriter.bytes(Array(primitives.modulus))),
                (CBORWriter.int(-2), CBORWriter.bytes(Array(primitives.publicExponent))),
            ])
        }
    }

    /// An Ed25519 public key `x` as a COSE OKP key.
    public static func okpKey(_ x: [UInt8]) -> [UInt8] {
        CBORWriter.map([
            (CBORWriter.int(1), CBORWriter.int(1)), (CBORWriter.int(3), CBORWriter.int(-8)),
            (CBORWriter.int(-1), CBORWriter.int(6)), (CBORWriter.int(-2), CBORWriter.bytes(x)),
        ])
    }

    static func sign(_ message: [UInt8], with key: PrivateKey) throws -> [UInt8] {
        switch key {
        case .forgedEdDSA: [1] + [UInt8](repeating: 0, count: 63)  // R = identity, S = 0
        case .es256(let key): Array(try key.signature(for: message).derRepresentation)
        case .edDSA(let key): Array(try key.signature(for: message))
        case .rs256(let key): Array(try key.signature(for: message, padding: .insecurePKCS1v1_5).rawRepresentation)
        }
    }
}

/// CBOR (RFC 8949) written in its shortest form: what an authenticator sends.
public enum CBORWriter {
    public static func head(_ major: UInt8, _ value: UInt64) -> [UInt8] {
        switch value {
        case 0..<24: [major << 5 | UInt8(value)]
        case 24..<0x100: [major << 5 | 24, UInt8(value)]
        case 0x100..<0x1_0000: [major << 5 | 25] + bigEndian(value, 2)
        case 0x1_0000..<0x1_0000_0000: [major << 5 | 26] + bigEndian(value, 4)
        default: [major << 5 | 27] + bigEndian(value, 8)
        }
    }
    static func bigEndian(_ value: UInt64, _ size: Int) -> [UInt8] { (0..<size).reversed().map { UInt8(value >> (8 * $0) & 0xff) } }
    public static func int(_ value: Int) -> [UInt8] { value >= 0 ? head(0, UInt64(value)) : head(1, UInt64(-1 - value)) }
    public static func bytes(_ value: [UInt8]) -> [UInt8] { head(2, UInt64(value.count)) + value }
    public static func text(_ value: String) -> [UInt8] { head(3, UInt64(value.utf8.count)) + Array(value.utf8) }
    public static func array(_ items: [[UInt8]]) -> [UInt8] { head(4, UInt64(items.count)) + items.flatMap { $0 } }
    public static func map(_ pairs: [([UInt8], [UInt8])]) -> [UInt8] { head(5, UInt64(pairs.count)) + pairs.flatMap { $0.0 + $0.1 } }
}
