/// The characters that make text lie (docs/API.md §1, "Text is text"): C0 and C1 controls and
/// DEL (a terminal obeys ESC and CSI sequences: clears the screen, sets its title and
/// clipboard, fakes rows; NUL ends a C string, SQLite's text among them), Unicode's
/// bidirectional controls (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069: text shown in
/// another order than it is stored), the line and paragraph separators U+2028 and U+2029 (a
/// line break in an app's list), and the invisible format characters that make two names look
/// alike (U+200B, U+2060–U+2064, U+206A–U+206F, U+FFF9–U+FFFB, the byte-order mark U+FEFF).
/// The zero-width joiner and non-joiner (U+200C, U+200D) stay: scripts and emoji need them.
///
/// No text field takes them (`FieldRules.text`), and whatever holds them already (a name from
/// before, a fixtures file, a mail server's reply) is shown by the CLI and the logs escaped
/// (`escaped`), never raw.
public enum TextCharacters {
    /// What no text field takes.
    public static let forbidden: [ClosedRange<UInt32>] = [0x00...0x1F] + beyondC0

    /// What a multi-line field (a note) does not take: `forbidden` but the line feed.
    public static let forbiddenInMultiline: [ClosedRange<UInt32>] = [0x00...0x09, 0x0B...0x1F] + beyondC0

    private static let beyondC0: [ClosedRange<UInt32>] = [
        0x7F...0x9F, 0x61C...0x61C, 0x200B...0x200B, 0x200E...0x200F, 0x2028...0x202E, 0x2060...0x2064, 0x2066...0x206F,
        0xFEFF...0xFEFF, 0xFFF9...0xFFFB,
    ]

    /// Whether `scalar` is one of `forbidden`.
    public static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        // Most text is printable ASCII or Latin-1: answered without the list.
        if value < 0x20 { return true }
        if value < 0x7F { return false }
        if value <= 0x9F { return true }
        if value < 0x61C { return false }
        return beyondC0.contains { $0.contains(value) }
    }

    /// `text` safe to write to a terminal or a log line: each forbidden character as Swift
    /// writes it, `\u{1b}`. `keepingLineFeeds` leaves line feeds (of a message the program
    /// formatted itself).
    public static func escaped(_ text: String, keepingLineFeeds: Bool = false) -> String {
        replacing(in: text, where: { isForbidden($0) && !(keepingLineFeeds && $0 == "\n") }) {
            "\\u{\(String($0, radix: 16))}"
        }
    }

    /// A JSON text with each forbidden character a JSON encoder leaves raw (DEL, C1, bidi and
    /// invisible format characters) written as a `\uXXXX` escape: the same JSON value, safe on a terminal.
    /// C0 controls are escaped by every JSON encoder already: a raw tab, line feed or carriage
    /// return is the JSON's own whitespace (pretty-printed), and stays.
    public static func escapedJSON(_ json: String) -> String {
        replacing(in: json, where: { isForbidden($0) && !["\t", "\n", "\r"].contains($0) }) { value in
            let hex = String(value, radix: 16)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
    }

    /// `text` with each scalar `unsafe` picks written as `escape` spells its value; `text`
    /// itself (no copy) when there is none, as in nearly every log line.
    private static func replacing(
        in text: String, where unsafe: (Unicode.Scalar) -> Bool, with escape: (UInt32) -> String
    ) -> String {
        guard text.unicodeScalars.contains(where: unsafe) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if unsafe(scalar) { out.append(contentsOf: escape(scalar.value).unicodeScalars) } else { out.append(scalar) }
        }
        return String(out)
    }
}
