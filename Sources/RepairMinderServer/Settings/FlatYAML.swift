import Foundation

/// The part of YAML a settings file needs: `key: value` lines at the top level, comments,
/// blank lines, quoted or plain scalars, and lists (`[a, b]` or `- item` lines under `key:`).
/// Anything else (nesting, anchors, multi-line scalars, several documents) is refused with its
/// line, never guessed at. A full YAML library (Yams) checks `canImport(Combine)`, which the
/// screens' Linux stand-ins make true, and then fails to build.
enum FlatYAML {
    struct SyntaxError: Error, CustomStringConvertible {
        let line: Int
        let problem: String
        var description: String { "line \(line): \(problem)" }
    }

    /// The top-level mapping: a `String`, `Int`, `Bool` or `[String]` per key, in file order.
    static func parse(_ text: String) throws(SyntaxError) -> [(key: String, value: Any)] {
        var entries: [(key: String, value: Any)] = []
        var openList: (key: String, items: [String])?
        func closeList() {
            if let list = openList { entries.append((list.key, list.items)) }
            openList = nil
        }
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = offset + 1
            var line = Substring(rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine)
            if number == 1, line.hasPrefix("\u{FEFF}") { line = line.dropFirst() }
            let content = try withoutComment(line, line: number)
            if content.trimmingCharacters(in: .whitespaces).isEmpty || content == "---" { continue }
            if content.first == " " || content.first == "-" {
                let item = content.trimmingCharacters(in: .whitespaces)
                guard item.hasPrefix("- ") || item == "-", openList != nil else {
                    throw SyntaxError(line: number, problem: "only top-level `key: value` lines are supported (no nesting)")
                }
                openList?.items.append(try scalarText(item.dropFirst().trimmingCharacters(in: .whitespaces), line: number))
                continue
            }
            closeList()
            guard let colon = content.firstIndex(of: ":") else {
                throw SyntaxError(line: number, problem: "expected `key: value`")
            }
            let key = content[..<colon].trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
                throw SyntaxError(line: number, problem: "\"\(key)\" is not a setting key like data-dir")
            }
            if entries.contains(where: { $0.key == key }) {
                throw SyntaxError(line: number, problem: "\(key) is given twice")
            }
            let rest = content[content.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if rest.isEmpty {
                openList = (key, [])
            } else if rest.hasPrefix("[") {
                guard rest.hasSuffix("]") else { throw SyntaxError(line: number, problem: "a list must end with ] on the same line") }
                let inner = rest.dropFirst().dropLast().trimmingCharacters(in: .whitespaces)
                var items: [String] = []
                for item in inner.split(separator: ",") where !inner.isEmpty {
                    items.append(try scalarText(item.trimmingCharacters(in: .whitespaces), line: number))
                }
                entries.append((key, items))
            } else {
                entries.append((key, try scalar(rest, line: number)))
            }
        }
        closeList()
        return entries
    }

    /// `line` without a `#` comment (one at the start or after a space, outside quotes).
    private static func withoutComment(_ line: Substring, line number: Int) throws(SyntaxError) -> String {
        var quote: Character?
        var previous: Character = " "
        for index in line.indices {
            let character = line[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "#", previous == " " || previous == "\t" {
                return String(line[..<index]).trimmingTrailingWhitespace
            } else if character == "\t", line[..<index].allSatisfy({ $0 == " " || $0 == "\t" }) {
                throw SyntaxError(line: number, problem: "a tab cannot indent YAML; use spaces")
            }
            previous = character
        }
        return String(line).trimmingTrailingWhitespace
    }

    /// A scalar as YAML 1.2's core schema reads it: `true`/`false`, a whole number, or text.
    private static func scalar(_ text: String, line: Int) throws(SyntaxError) -> Any {
        if text.first == "\"" || text.first == "'" { return try scalarText(text, line: line) }
        if text == "true" || text == "false" { return text == "true" }
        if let number = Int(text) { return number }
        return try scalarText(text, line: line)
    }

    /// A scalar's text: quotes removed (`''` in single quotes, `\"` `\\` `\n` `\t` in double).
    private static func scalarText(_ text: String, line: Int) throws(SyntaxError) -> String {
        guard let quote = text.first, quote == "\"" || quote == "'" else {
            if ["&", "*", "!", "|", ">", "{", "%", "@", "`"].contains(text.first ?? " ") {
                throw SyntaxError(line: line, problem: "\(text.prefix(1)) starts a YAML feature settings files do not use; quote the value")
            }
            return text
        }
        guard text.count >= 2, text.last == quote else { throw SyntaxError(line: line, problem: "a quoted value must end on the same line") }
        let inner = String(text.dropFirst().dropLast())
        if quote == "'" { return inner.replacingOccurrences(of: "''", with: "'") }
        var result = ""
        var escaped = false
        for character in inner {
            if escaped {
                switch character {
                case "n": result.append("\n")
                case "t": result.append("\t")
                case "\"", "\\", "/": result.append(character)
                default: throw SyntaxError(line: line, problem: "unknown escape \\\(character)")
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        return result
    }
}

extension String {
    fileprivate var trimmingTrailingWhitespace: String {
        var copy = self
        while let last = copy.last, last == " " || last == "\t" { copy.removeLast() }
        return copy
    }
}
