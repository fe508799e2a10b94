import Crypto
import Foundation

/// How secrets are stored: never in plaintext, compared in constant time.
struct SecretHashing: Sendable {
    /// Key the hash of short codes, so a stolen database cannot be brute-forced offline over
    /// the million 6-digit codes without the server key too. The current key first, then the
    /// previous one's during a rotation of the encryption key (`EncryptionKeys`). Kept as bytes
    /// because this swift-crypto's `SymmetricKey` is not `Sendable`.
    private let codeKeyBytes: [[UInt8]]
    /// Derive a refresh token's successor, so a retried refresh gets the same answer (docs/API.md §2.7).
    private let rotationKeyBytes: [[UInt8]]

    /// Derives both keys from each encryption key, not from the JWT signing secret, so that
    /// rotating `--jwt-secret` leaves recovery codes, emailed codes in flight and the refresh
    /// retry grace working (a hash made under one key never matches under another).
    init(keys: EncryptionKeys) {
        let masters = keys.all.map { SymmetricKey(data: Data($0.utf8)) }
        codeKeyBytes = masters.map { Self.derive($0, label: "repairminder.code-hash") }
        rotationKeyBytes = masters.map { Self.derive($0, label: "repairminder.refresh-rotation") }
        keyID = String(SHA256.hash(data: codeKeyBytes[0]).hexString.prefix(16))
    }

    init(masterKey: String) { self.init(keys: EncryptionKeys(current: masterKey)) }

    /// Names the current code-hash key without revealing it (16 hex digits of its SHA-256):
    /// stored beside a recovery code's hash, so a rotation can tell which codes an earlier key
    /// hashed.
    let keyID: String

    private static func derive(_ key: SymmetricKey, label: String) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: Data(label.utf8), using: key))
    }

    /// SHA-256 hex of a high-entropy token (refresh tokens): enough, as they cannot be guessed.
    static func tokenHash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).hexString
    }

    /// Keyed hash (HMAC-SHA256 hex) of a short code, bound to what it is for, under the current key.
    func codeHash(_ code: String, scope: String) -> String {
        Self.codeHash(code, scope: scope, key: codeKeyBytes[0])
    }

    /// `codeHash` under each key, the current one first: what a stored hash may be. Lazy: a
    /// caller that finds its hash under the current key computes no other.
    func codeHashes(_ code: String, scope: String) -> some Sequence<String> {
        codeKeyBytes.lazy.map { Self.codeHash(code, scope: scope, key: $0) }
    }

    /// The hash of `code` that equals `stored` (compared in constant time), under whichever key
    /// made it; nil when `code` is not the one.
    func matchingHash(_ code: String, scope: String, stored: String) -> String? {
        codeHashes(code, scope: scope).first { Self.constantTimeEquals($0, stored) }
    }

    private static func codeHash(_ code: String, scope: String, key: [UInt8]) -> String {
        HMAC<SHA256>.authenticationCode(for: Data("\(scope)|\(code)".utf8), using: SymmetricKey(data: key)).hexString
    }

    /// The refresh token that replaces `token` on rotation: the same input always gives the
    /// same successor. Every refresh derives one: under the current key only.
    func successor(of token: String) -> String {
        Self.successor(of: token, key: rotationKeyBytes[0])
    }

    /// `successor` under each key, the current one first: a retry across a switch of keys
    /// finds the successor the previous key made.
    func successors(of token: String) -> some Sequence<String> {
        rotationKeyBytes.lazy.map { Self.successor(of: token, key: $0) }
    }

    private static func successor(of token: String, key: [UInt8]) -> String {
        Data(HMAC<SHA256>.authenticationCode(for: Data(token.utf8), using: SymmetricKey(data: key))).base64URLEncoded()
    }

    /// Compares two strings without an early exit, so timing does not reveal a matching prefix.
    static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for i in x.indices { difference |= x[i] ^ y[i] }
        return difference == 0
    }
}

extension Sequence where Element == UInt8 {
    /// Lower-case hex, two digits a byte.
    var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for byte in self {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension Digest {
    var hexString: String { Array(self).hexString }
}

extension HashedAuthenticationCode {
    var hexString: String { Array(self).hexString }
}
