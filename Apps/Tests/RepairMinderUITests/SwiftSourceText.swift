import Foundation

/// Swift source read for the checks a compiler on Linux cannot make (`DelegateMethodNamesTests`,
/// `ImplicitlyUnwrappedUseTests`): comments dropped and string literals emptied, so braces and
/// names are the code's own.
enum SwiftSourceText {
    static let appsRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The code of every `.swift` file under `folder` (relative to `Apps/`), by relative path.
    static func files(under folder: String) throws -> [String: String] {
        let root = appsRoot.appendingPathComponent(folder)
        var files: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        while let relative = enumerator?.nextObject() as? String {
            guard relative.hasSuffix(".swift") else { continue }
            files[relative] = code(of: try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8))
        }
        return files
    }

    /// `source` without comments, its string literals empty (`""`).
    static func code(of source: String) -> String {
        var output = "", characters = Array(source), index = 0
        func starts(_ token: String) -> Bool { characters[index...].starts(with: token) }
        while index < characters.count {
            if starts("//") {
                while index < characters.count, characters[index] != "\n" { index += 1 }
            } else if starts("/*") {
                index += 2
                while index < characters.count, !starts("*/") { index += 1 }
                index += 2
            } else if characters[index] == "\"" {
                let delimiter = starts("\"\"\"") ? "\"\"\"" : "\""
                index += delimiter.count
                while index < characters.count, !starts(delimiter) { index += characters[index] == "\\" ? 2 : 1 }
                index += delimiter.count
                output += "\"\""
            } else {
                output.append(characters[index])
                index += 1
            }
        }
        return output
    }

    /// The text between the `{` at `open` and its matching `}`.
    static func body(in code: String, from open: String.Index) -> Substring {
        var depth = 0
        var index = open
        while index < code.endIndex {
            if code[index] == "{" { depth += 1 }
            if code[index] == "}" {
                depth -= 1
                if depth == 0 { return code[code.index(after: open)..<index] }
            }
            index = code.index(after: index)
        }
        return code[open...]
    }

    /// The full names (`base(label:label:)`) of the functions declared directly in `body`.
    static func functionNames(in body: Substring) -> [String] {
        var names: [String] = []
        var depth = 0
        var index = body.startIndex
        while index < body.endIndex {
            let character = body[index]
            if character == "{" { depth += 1 } else if character == "}" { depth -= 1 }
            if depth == 0, body[index...].hasPrefix("func "), index == body.startIndex || !body[body.index(before: index)].isLetter,
                let match = body[index...].prefixMatch(of: /func\s+(\w+)\s*(?:<[^>]*>)?\s*\(/)
            {
                names.append(String(match.output.1) + "(" + labels(after: match.range.upperBound, in: body) + ")")
            }
            index = body.index(after: index)
        }
        return names
    }

    /// The argument labels of the parameter list that starts after `open`, as `a:b:`.
    private static func labels(after open: String.Index, in text: Substring) -> String {
        var depth = 0, parameters: [String] = [], current = ""
        var index = open
        while index < text.endIndex {
            let character = text[index]
            if text[index...].hasPrefix("->") {
                current += "->"
                index = text.index(index, offsetBy: 2)
                continue
            }
            if "([<".contains(character) { depth += 1 }
            if ")]>".contains(character) {
                if depth == 0 { break }
                depth -= 1
            }
            if character == ",", depth == 0 {
                parameters.append(current)
                current = ""
            } else {
                current.append(character)
            }
            index = text.index(after: index)
        }
        if !current.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { parameters.append(current) }
        return parameters.map { parameter in
            let label = parameter.split(separator: ":")[0].split(whereSeparator: \.isWhitespace).first.map(String.init) ?? "_"
            return label + ":"
        }.joined()
    }
}
