import Crypto
import Foundation
import RepairMinderModels

/// Random values from the system's secure generator.
enum RandomToken {
    /// `byteCount` random bytes.
    static func bytes(_ byteCount: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<byteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// `byteCount` random bytes, base64url without padding.
    static func base64URL(byteCount: Int) -> String {
        Data(bytes(byteCount)).base64URLEncoded()
    }

    /// `byteCount` random bytes as lowercase hex (REKI's reset tokens: 32 bytes, 64 characters).
    static func hex(byteCount: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<byteCount).map { _ in
            let byte = UInt8.random(in: .min ... .max, using: &generator)
            return String(byte >> 4, radix: 16) + String(byte & 0x0f, radix: 16)
        }.joined()
    }

    /// A uniformly random string of `length` decimal digits.
    static func digits(_ length: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<length).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) })
    }
}
