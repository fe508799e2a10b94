import Crypto
import Foundation

/// How secrets are stored: never in plaintext, compared in constant time.
struct SecretHashing: Sendable {
    /// Keys the hash of short codes, so a stolen database cannot be brute-forced offline
    /// over the million 6-digit codes without the server key too.
    private let codeKeyBytes: [UInt8]
    /// Derives a refresh token's successor, so a retried refresh gets the same answer (docs/API.md §2.7).
    private let rotationKeyBytes: [UInt8]

    /// Derives both keys from `masterKey`: the encryption key, not the JWT signing secret, so
    /// that rotating `--jwt-secret` leaves recovery codes, emailed codes in flight and the
    /// refresh retry grace working (a hash made under one key never matches under another).
    init(masterKey: String) {
        let master = SymmetricKey(data: Data(masterKey.utf8))
        codeKeyBytes = Self.derive(master, label: "repairminder.code-hash")
        rotationKeyBytes = Self.derive(master, label: "repairminder.refresh-rotation")
    }

    // Keys are kept as bytes because this swift-crypto's `SymmetricKey` is not `Sendable`.
    private var codeKey: SymmetricKey { SymmetricKey(data: codeKeyBytes) }
    private var rotationKey: SymmetricKey { SymmetricKey(data: rotationKeyBytes) }

    private static func derive(_ key: SymmetricKey, label: String) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: Data(label.utf8), using: key))
    }

    /// SHA-256 hex of a high-entropy token (refresh tokens): enough, as they cannot be guessed.
    static func tokenHash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).hexString
    }

    /// Keyed hash (HMAC-SHA256 hex) of a short code, bound to what it is for.
    func codeHash(_ code: String, scope: String) -> String {
        HMAC<SHA256>.authenticationCode(for: Data("\(scope)|\(code)".utf8), using: codeKey).hexString
    }

    /// The refresh token that replaces `token` on rotation: the same input always gives the same successor.
    func successor(of token: String) -> String {
        Data(HMAC<SHA256>.authenticationCode(for: Data(token.utf8), using: rotationKey)).base64URLEncoded()
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
