import Crypto
import Foundation

/// Encrypts secrets at rest (TOTP secrets) with AES-GCM under the server's encryption key.
/// Each value is bound to its owner (additional authenticated data), so a ciphertext copied
/// to another user's row does not decrypt.
struct SecretBox: Sendable {
    // Bytes, because this swift-crypto's `SymmetricKey` is not `Sendable`.
    private let keyBytes: [UInt8]

    /// Any string of at least 32 bytes; it is hashed to the 256-bit AES key.
    init(key: String) {
        keyBytes = Array(SHA256.hash(data: Data("repairminder.secret-box|\(key)".utf8)))
    }

    func seal(_ plaintext: [UInt8], owner: String) throws -> String {
        let box = try AES.GCM.seal(plaintext, using: SymmetricKey(data: keyBytes), authenticating: Data(owner.utf8))
        guard let combined = box.combined else { throw SecretBoxError.sealFailed }
        return combined.base64EncodedString()
    }

    func open(_ sealed: String, owner: String) throws -> [UInt8] {
        guard let data = Data(base64Encoded: sealed) else { throw SecretBoxError.corrupt }
        let box = try AES.GCM.SealedBox(combined: data)
        return Array(try AES.GCM.open(box, using: SymmetricKey(data: keyBytes), authenticating: Data(owner.utf8)))
    }
}

enum SecretBoxError: Error {
    case sealFailed
    case corrupt
}
