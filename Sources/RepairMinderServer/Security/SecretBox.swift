import Crypto
import Foundation

/// Encrypts secrets at rest (TOTP secrets, queued mail) with AES-GCM under the server's
/// encryption key. Each value is bound to its owner (additional authenticated data), so a
/// ciphertext copied to another user's row does not decrypt. It seals under the current key
/// and opens under the current or the previous one (`EncryptionKeys`): AES-GCM's tag tells which.
struct SecretBox: Sendable {
    // Bytes, because this swift-crypto's `SymmetricKey` is not `Sendable`. Current key first.
    private let keyBytes: [[UInt8]]

    /// Any strings of at least 32 bytes; each is hashed to a 256-bit AES key.
    init(keys: EncryptionKeys) {
        keyBytes = keys.all.map { Array(SHA256.hash(data: Data("repairminder.secret-box|\($0)".utf8))) }
    }

    init(key: String) { self.init(keys: EncryptionKeys(current: key)) }

    func seal(_ plaintext: [UInt8], owner: String) throws -> String {
        let box = try AES.GCM.seal(plaintext, using: SymmetricKey(data: keyBytes[0]), authenticating: Data(owner.utf8))
        guard let combined = box.combined else { throw SecretBoxError.sealFailed }
        return combined.base64EncodedString()
    }

    func open(_ sealed: String, owner: String) throws -> [UInt8] {
        try opened(sealed, owner: owner).plaintext
    }

    /// The plaintext, and whether the current key sealed it (false: the previous one did, and a
    /// rotation should seal it again).
    func opened(_ sealed: String, owner: String) throws -> (plaintext: [UInt8], underCurrentKey: Bool) {
        guard let data = Data(base64Encoded: sealed) else { throw SecretBoxError.corrupt }
        let box = try AES.GCM.SealedBox(combined: data)
        for (index, key) in keyBytes.enumerated() {
            if let plaintext = try? AES.GCM.open(box, using: SymmetricKey(data: key), authenticating: Data(owner.utf8)) {
                return (Array(plaintext), index == 0)
            }
        }
        throw SecretBoxError.noKeyOpensIt
    }
}

enum SecretBoxError: Error {
    case sealFailed
    case corrupt
    /// Neither the current nor the previous encryption key sealed it (a key changed without a
    /// rotation, or the row was altered).
    case noKeyOpensIt
}
