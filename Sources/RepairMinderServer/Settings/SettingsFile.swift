import Foundation
import Yams

/// A `--config` file: one JSON or YAML object whose keys are the settings' keys (`data-dir`,
/// `smtp-url-file`), read strictly: a syntax error is named by its line (and column), an
/// unknown key is refused with the nearest one, before the server starts.
enum SettingsFile {
    /// A value as the file writes it; the loader reads it as its setting's kind.
    enum Value: Equatable {
        case text(String)
        case list([String])
    }

    /// The values `path` gives, by key. The file is the server's whole configuration, so its
    /// keys are checked against every setting, whichever command reads it.
    static func read(_ path: String) throws -> [String: Value] {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw SettingsError("cannot read the config file \(path): \(PlainReason.of(error))")
        }
        var values: [String: Value] = [:]
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "json": values = try json(data, path: path)
        case "yaml", "yml":
            guard let text = String(data: data, encoding: .utf8) else { throw SettingsError("\(path): not UTF-8 text") }
            values = try yaml(text, path: path)
        default:
            throw SettingsError("the config file \(path) must end in .json, .yaml or .yml")
        }
        let known = ServerSettings.declarations.flatMap(\.keys)
        for key in values.keys.sorted() where !known.contains(key) {
            throw SettingsError("\(path): unknown setting \"\(key)\"\(SettingsCommandLine.suggestion(for: key, among: known))")
        }
        return values
    }

    /// A YAML document's top-level mapping (Yams): each scalar's text as written (quotes
    /// removed), or a sequence of them as a list. Anything else (nesting, null, an alias) is
    /// refused by key; a syntax error by its line and column, a key given twice by its name,
    /// never with the file's text around it (it may hold a secret).
    private static func yaml(_ text: String, path: String) throws -> [String: Value] {
        let document: Node?
        do {
            document = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw SettingsError("\(path): not valid YAML: \(plainReason(error))")
        }
        guard let document else { return [:] }
        guard case .mapping(let mapping) = document else {
            throw SettingsError("\(path): expected settings as `key: value` lines, like port: 8080")
        }
        var values: [String: Value] = [:]
        for (keyNode, node) in mapping {
            guard case .scalar(let key) = keyNode else { throw SettingsError("\(path): \(location(keyNode))a key must be text") }
            let problem = "\(path): \(location(node))\(key.string) must be text, a number, true or false, or a list of texts"
            switch node {
            case .scalar(let scalar):
                // An empty or `null` value is no value: leave the key out instead.
                if node.null != nil { throw SettingsError("\(path): \(location(node))\(key.string) is null: give a value or leave the key out") }
                values[key.string] = .text(scalar.string)
            case .sequence(let items):
                var texts: [String] = []
                for item in items {
                    guard case .scalar(let scalar) = item, item.null == nil else { throw SettingsError(problem) }
                    texts.append(scalar.string)
                }
                values[key.string] = .list(texts)
            case .mapping, .alias:
                throw SettingsError(problem)
            }
        }
        return values
    }

    /// `line L: ` where `node` starts.
    private static func location(_ node: Node) -> String {
        node.mark.map { "line \($0.line): " } ?? ""
    }

    /// What a YAML error says, by line and column, without the quoted text of the file.
    private static func plainReason(_ error: YamlError) -> String {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _), .composer(_, let problem, let mark, _):
            "line \(mark.line), column \(mark.column): \(problem)"
        case .duplicatedKeysInMapping(let duplicates, _):
            "\(duplicates.sorted().joined(separator: ", ")) \(duplicates.count == 1 ? "is" : "are") given twice"
        case .reader(let problem, _, _, _):
            problem
        default:
            "unreadable"
        }
    }

    /// A JSON object's values as text: a number or boolean as JSON writes it, an array of texts
    /// as a list. Anything else (null, an object, an array of numbers) is refused by key.
    private static func json(_ data: Data, path: String) throws -> [String: Value] {
        do {
            try JSONSyntax.check(data)
        } catch {
            throw SettingsError("\(path): not valid JSON: \(error)")
        }
        guard let object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) as? [String: Any] else {
            throw SettingsError("\(path): expected an object of settings, like {\"port\": 8080}")
        }
        var values: [String: Value] = [:]
        for (key, raw) in object {
            switch raw {
            case let text as String: values[key] = .text(text)
            case let items as [Any] where items.allSatisfy({ $0 is String }): values[key] = .list(items.compactMap { $0 as? String })
            // Foundation on Linux cannot tell 1 from true (both `NSNumber`, both `is Bool`): each
            // is its text, "1", which a number setting reads as 1 and a boolean one as true.
            case let number as NSNumber: values[key] = .text(number.stringValue)
            default: throw SettingsError("\(path): \(key) must be text, a number, true or false, or a list of texts")
            }
        }
        return values
    }
}
