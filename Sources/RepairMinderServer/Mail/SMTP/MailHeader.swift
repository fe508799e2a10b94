import Foundation

/// Header-value rules of RFC 5322 and RFC 2047.
enum MailHeader {
    static func hasLineBreak(_ value: String) -> Bool {
        value.unicodeScalars.contains { $0 == "\r" || $0 == "\n" }
    }

    /// `value` as it may stand in a header: refused if it holds CR or LF (header injection),
    /// RFC 2047 encoded words when it is not plain ASCII.
    static func value(_ value: String) throws -> String {
        guard !hasLineBreak(value) else { throw MailFormatError("a header value must be one line", value: value) }
        return value.unicodeScalars.allSatisfy({ $0.isASCII && $0.value >= 0x20 }) ? value : encodedWords(value)
    }

    /// RFC 2047 `=?UTF-8?B?...?=` words, each at most 75 characters, split between characters
    /// (never inside one), separated by folding whitespace.
    static func encodedWords(_ text: String) -> String {
        var words: [String] = []
        var chunk = ""
        for character in text {
            // 45 bytes of UTF-8 encode to 60 base64 characters: 72 with the `=?UTF-8?B?` frame.
            if chunk.utf8.count + String(character).utf8.count > 45 {
                words.append(chunk)
                chunk = ""
            }
            chunk.append(character)
        }
        if !chunk.isEmpty { words.append(chunk) }
        return words.map { "=?UTF-8?B?\(Data($0.utf8).base64EncodedString())?=" }.joined(separator: "\r\n ")
    }
}
