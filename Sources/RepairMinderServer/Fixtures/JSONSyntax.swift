import Foundation

/// Where a JSON text stops being JSON: a line and column (both from 1) and what is wrong there.
public struct JSONSyntaxError: Error, Equatable, CustomStringConvertible {
    public let line: Int
    public let column: Int
    public let problem: String

    public var description: String { "line \(line), column \(column): \(problem)" }
}

/// A strict RFC 8259 syntax check that says where the first mistake is. Foundation's parser
/// says only "around character 11" (or nothing at end of file) and on Linux accepts trailing
/// commas; a person editing a fixtures file needs the line and column.
struct JSONSyntax {
    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0
    /// Deeper nesting than any fixtures file needs is refused rather than recursed into.
    private static let maximumDepth = 256

    /// Throws the first syntax error of `data`, if any.
    static func check(_ data: Data) throws(JSONSyntaxError) {
        var checker = JSONSyntax(bytes: Array(data))
        try checker.document()
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private mutating func document() throws(JSONSyntaxError) {
        // A UTF-8 byte order mark is tolerated, as editors write one.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        skipSpace()
        guard index < bytes.count else { throw failure("the file is empty: expected a JSON object") }
        try value()
        skipSpace()
        if index < bytes.count { throw failure("unexpected \(found) after the end of the JSON value") }
    }

    private mutating func value() throws(JSONSyntaxError) {
        guard index < bytes.count else { throw failure("unexpected end of file: a value is missing") }
        switch bytes[index] {
        case UInt8(ascii: "{"): try container(close: "}", isObject: true)
        case UInt8(ascii: "["): try container(close: "]", isObject: false)
        case UInt8(ascii: "\""): try string()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default: throw failure("unexpected \(found): expected a value (a string in double quotes, a number, true, false, null, an object or a list)")
        }
    }

    /// An object (`"key": value` members) or an array, after its opening bracket.
    private mutating func container(close: Character, isObject: Bool) throws(JSONSyntaxError) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw failure("nested more than \(Self.maximumDepth) levels deep") }
        index += 1
        skipSpace()
        if at(close) {
            index += 1
            depth -= 1
            return
        }
        while true {
            skipSpace()
            if isObject {
                guard at("\"") else { throw failure("unexpected \(found): expected a key in double quotes") }
                try string()
                skipSpace()
                guard at(":") else { throw failure("unexpected \(found): expected ':' after the key") }
                index += 1
                skipSpace()
            }
            try value()
            skipSpace()
            if at(",") {
                index += 1
                skipSpace()
                if at(close) { throw failure("a comma before '\(close)': remove it") }
                continue
            }
            guard at(close) else { throw failure("unexpected \(found): expected ',' or '\(close)'") }
            index += 1
            depth -= 1
            return
        }
    }

    private mutating func string() throws(JSONSyntaxError) {
        let start = index
        index += 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return
            }
            if byte < 0x20 { throw failure("a line break or control character inside a string (write it as \\n or \\t)") }
            if byte == UInt8(ascii: "\\") {
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
                if escape == UInt8(ascii: "u") {
                    let digits = bytes[(index + 1)..<min(index + 5, bytes.count)]
                    guard digits.count == 4, digits.allSatisfy(Self.isHexDigit) else { throw failure("\\u must be followed by 4 hex digits") }
                    index += 4
                } else if !"\"\\/bfnrt".utf8.contains(escape) {
                    throw failure("unknown escape \\\(Character(Unicode.Scalar(escape))) in a string")
                }
            }
            index += 1
        }
        index = start
        throw failure("a string that never ends (a missing closing \")")
    }

    private mutating func number() throws(JSONSyntaxError) {
        if at("-") { index += 1 }
        guard digits() > 0 else { throw failure("unexpected \(found): expected a digit") }
        if at(".") {
            index += 1
            guard digits() > 0 else { throw failure("unexpected \(found): expected a digit after the decimal point") }
        }
        if at("e") || at("E") {
            index += 1
            if at("+") || at("-") { index += 1 }
            guard digits() > 0 else { throw failure("unexpected \(found): expected the exponent's digits") }
        }
    }

    private mutating func digits() -> Int {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index - start
    }

    private mutating func literal(_ word: String) throws(JSONSyntaxError) {
        let expected = Array(word.utf8)
        guard bytes[index...].starts(with: expected) else {
            throw failure("unexpected \(found): expected a value (strings need double quotes)")
        }
        index += expected.count
    }

    private mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private func at(_ character: Character) -> Bool {
        index < bytes.count && character.asciiValue == bytes[index]
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }

    /// The text at the current position, for messages: a character, or the end of the file.
    private var found: String {
        guard index < bytes.count else { return "end of file" }
        let rest = bytes[index...].prefix(4)
        let text = String(decoding: rest, as: UTF8.self).first.map(String.init) ?? "?"
        return "'\(text)'"
    }

    /// The error at the current position: lines counted by line feeds, columns by characters
    /// (UTF-8 continuation bytes are not counted).
    private func failure(_ problem: String) -> JSONSyntaxError {
        let before = bytes[..<min(index, bytes.count)]
        let line = before.count(where: { $0 == 0x0A }) + 1
        let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        var column = before[lineStart...].count(where: { $0 & 0xC0 != 0x80 }) + 1
        if line == 1, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { column -= 1 }  // the byte order mark is no column
        return JSONSyntaxError(line: line, column: column, problem: problem)
    }
}
