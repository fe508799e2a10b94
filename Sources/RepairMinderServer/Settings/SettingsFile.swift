import Foundation

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
            do {
                for entry in try FlatYAML.parse(text) { values[entry.key] = entry.value }
            } catch {
                throw SettingsError("\(path): \(error)")
            }
        default:
            throw SettingsError("the config file \(path) must end in .json, .yaml or .yml")
        }
        let known = ServerSettings.declarations.flatMap(\.keys)
        for key in values.keys.sorted() where !known.contains(key) {
            throw SettingsError("\(path): unknown setting \"\(key)\"\(SettingsCommandLine.suggestion(for: key, among: known))")
        }
        return values
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
