import Crypto
import Foundation

/// Random values from the system's secure generator.
enum RandomToken {
    /// `byteCount` random bytes, base64url without padding.
    static func base64URL(byteCount: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<byteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64URLEncoded()
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

extension Data {
    /// RFC 4648 §5 base64url, without padding.
    /// (Byte by byte rather than Foundation's `replacingOccurrences`: this runs for every token
    /// signed and checked, and the string search costs more than the encoding.)
    func base64URLEncoded() -> String {
        var bytes = Array(base64EncodedData())
        while bytes.last == UInt8(ascii: "=") { bytes.removeLast() }
        for i in bytes.indices {
            switch bytes[i] {
            case UInt8(ascii: "+"): bytes[i] = UInt8(ascii: "-")
            case UInt8(ascii: "/"): bytes[i] = UInt8(ascii: "_")
            default: break
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Decodes base64url with or without padding; nil when it is not base64url.
    init?(base64URLEncoded string: some StringProtocol) {
        var bytes = Array(string.utf8)
        for i in bytes.indices {
            switch bytes[i] {
            case UInt8(ascii: "-"): bytes[i] = UInt8(ascii: "+")
            case UInt8(ascii: "_"): bytes[i] = UInt8(ascii: "/")
            case UInt8(ascii: "+"), UInt8(ascii: "/"): return nil
            default: break
            }
        }
        while bytes.count % 4 != 0 { bytes.append(UInt8(ascii: "=")) }
        self.init(base64Encoded: Data(bytes))
    }
}
