import ExtrasBase64
import Foundation

extension Data {
    /// RFC 4648 §5 base64url, without padding (ExtrasBase64: this runs for every token signed
    /// and checked).
    public func base64URLEncoded() -> String {
        Base64.encodeToString(bytes: self, options: [.base64UrlAlphabet, .omitPaddingCharacter])
    }

    /// Decodes base64url with or without padding; nil when it is not base64url.
    public init?(base64URLEncoded string: some StringProtocol) {
        var text = Substring(string)
        // Padding is optional: at most two `=` at the end.
        for _ in 0..<2 where text.last == "=" { text = text.dropLast() }
        guard let bytes = try? Base64.decode(bytes: Array(text.utf8), options: [.base64UrlAlphabet, .omitPaddingCharacter]) else {
            return nil
        }
        self.init(bytes)
    }
}
