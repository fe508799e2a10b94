import Foundation

/// The part of YAML a settings file needs: `key: value` lines at the top level, comments,
/// blank lines, quoted or plain values, and lists (`[a, b]` or `- item` lines under `key:`).
/// Anything else (nesting, anchors, tags, multi-line values, null) is refused with its line,
/// never guessed at. A full YAML library (Yams) checks `canImport(Combine)`, which the
/// screens' Linux stand-ins make true, and then fails to build.
enum FlatYAML {
    struct SyntaxError: Error, CustomStringConvertible {
        let line: Int
        let problem: String
        var description: String { "line \(line): \(problem)" }
    }

    /// The top-level mapping in file order: each value's text (quotes removed), or a list of them.
    static func parse(_ text: String) throws(SyntaxError) -> [(key: String, value: SettingsFile.Value)] {
        var entries: [(key: String, value: SettingsFile.Value)] = []
        var openList: (key: String, items: [String])?
        func close() {
            if let list = openList { entries.append((list.key, .list(list.items))) }
            openList = nil
        }
        // "\r\n" is one Character: split the scalars, so Windows line endings are lines too.
        let lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { String(String.UnicodeScalarView($0)) }
        for (offset, raw) in lines.enumerated() {
            let number = offset + 1
            var line = raw.hasSuffix("\r") ? String(raw.dropLast()) : raw
            if number == 1, line.hasPrefix("\u{FEFF}") { line.removeFirst() }
            if line.contains("\t") { throw SyntaxError(line: number, problem: "a tab: YAML indents with spaces") }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") || trimmed == "---" { continue }
            if trimmed.hasPrefix("- ") || trimmed == "-" {
                guard openList != nil else { throw SyntaxError(line: number, problem: "a list item with no `key:` line above it") }
                openList?.items.append(try value(Substring(trimmed.dropFirst()), line: number))
                continue
            }
            close()
            guard line.first != " " else { throw SyntaxError(line: number, problem: "only top-level `key: value` lines are supported (no nesting)") }
            guard let colon = line.range(of: ":")?.lowerBound else { throw SyntaxError(line: number, problem: "expected `key: value`") }
            let key = String(line[..<colon])
            guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
                throw SyntaxError(line: number, problem: "expected `key: value` with a key like data-dir")
            }
            let rest = line[line.index(after: colon)...]
            guard rest.isEmpty || rest.first == " " else { throw SyntaxError(line: number, problem: "expected a space after \(key):") }
            if entries.contains(where: { $0.key == key }) || openList?.key == key {
                throw SyntaxError(line: number, problem: "\(key) is given twice")
            }
            let content = rest.drop(while: { $0 == " " })
            if content.isEmpty || content.hasPrefix("#") {
                openList = (key, [])
            } else if content.hasPrefix("[") {
                entries.append((key, .list(try flowList(content, line: number))))
            } else {
                entries.append((key, .text(try value(content, line: number))))
            }
        }
        close()
        return entries
    }

    /// One value and what may follow it on its line (spaces, then a comment).
    private static func value(_ text: Substring, line: Int) throws(SyntaxError) -> String {
        let text = text.drop(while: { $0 == " " })
        let (value, rest) = try scalar(text, line: line)
        try expectEnd(rest, line: line)
        return value
    }

    /// `[a, "b, c", 'd']` and what follows it.
    private static func flowList(_ text: Substring, line: Int) throws(SyntaxError) -> [String] {
        var rest = text.dropFirst().drop(while: { $0 == " " })
        var items: [String] = []
        if rest.first == "]" {
            try expectEnd(rest.dropFirst(), line: line)
            return items
        }
        while true {
            let (item, after) = try scalar(rest, line: line, inFlow: true)
            items.append(item)
            rest = after.drop(while: { $0 == " " })
            guard let separator = rest.first else { throw SyntaxError(line: line, problem: "a list must end with ] on its line") }
            rest = rest.dropFirst().drop(while: { $0 == " " })
            if separator == "]" { break }
            guard separator == "," else { throw SyntaxError(line: line, problem: "expected , or ] in the list") }
        }
        try expectEnd(rest, line: line)
        return items
    }

    /// A quoted or plain scalar at the start of `text`, and the text after it. A plain one ends
    /// at ` #` (or, in a list, at `,` or `]`); characters YAML gives a meaning are refused.
    private static func scalar(_ text: Substring, line: Int, inFlow: Bool = false) throws(SyntaxError) -> (String, Substring) {
        guard let first = text.first else { throw SyntaxError(line: line, problem: "a value is missing") }
        if first == "\"" || first == "'" { return try quoted(text, line: line) }
        if "[]{}&*!|>%@`,".contains(first) || text.hasPrefix("- ") || text.hasPrefix("? ") {
            throw SyntaxError(line: line, problem: "\(first) starts a YAML feature settings files do not use; quote the value")
        }
        var end = text.endIndex
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if inFlow, character == "," || character == "]" { end = index; break }
            if character == "#", index > text.startIndex, text[text.index(before: index)] == " " { end = index; break }
            if character == ":", text.index(after: index) == text.endIndex || text[text.index(after: index)] == " " {
                throw SyntaxError(line: line, problem: "\": \" inside a value (nesting is not supported); quote the value")
            }
            index = text.index(after: index)
        }
        let value = String(text[..<end]).trimmingCharacters(in: .whitespaces)
        if ["~", "null", "Null", "NULL"].contains(value) {
            throw SyntaxError(line: line, problem: "null: leave the setting out to use its default")
        }
        return (value, text[end...])
    }

    /// A `'single'` (`''` is a quote) or `"double"` (`\"`, `\\`, `\n`, `\t`) quoted value.
    private static func quoted(_ text: Substring, line: Int) throws(SyntaxError) -> (String, Substring) {
        let quote = text.first!
        var result = ""
        var index = text.index(after: text.startIndex)
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            if character == quote {
                if quote == "'", next < text.endIndex, text[next] == "'" {
                    result.append("'")
                    index = text.index(after: next)
                    continue
                }
                return (result, text[next...])
            }
            if quote == "\"", character == "\\" {
                guard next < text.endIndex else { break }
                switch text[next] {
                case "n": result.append("\n")
                case "t": result.append("\t")
                case "\"", "\\", "/": result.append(text[next])
                default: throw SyntaxError(line: line, problem: "unknown escape \\\(text[next])")
                }
                index = text.index(after: next)
                continue
            }
            result.append(character)
            index = next
        }
        throw SyntaxError(line: line, problem: "a quoted value must end on its line")
    }

    /// Only spaces and a comment may follow a value.
    private static func expectEnd(_ rest: Substring, line: Int) throws(SyntaxError) {
        let rest = rest.drop(while: { $0 == " " })
        guard rest.isEmpty || (rest.first == "#" && rest.startIndex > rest.base.startIndex && rest.base[rest.base.index(before: rest.startIndex)] == " ")
        else {
            throw SyntaxError(line: line, problem: "unexpected \"\(rest)\" after the value")
        }
    }
}
