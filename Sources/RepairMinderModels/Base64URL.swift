import Foundation

extension Data {
    /// RFC 4648 §5 base64url, without padding.
    /// (Byte by byte rather than Foundation's `replacingOccurrences`: this runs for every token
    /// signed and checked, and the string search costs more than the encoding.)
    public func base64URLEncoded() -> String {
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
    public init?(base64URLEncoded string: some StringProtocol) {
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
