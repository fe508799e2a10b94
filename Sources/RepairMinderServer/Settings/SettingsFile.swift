import Foundation

/// A `--config` file: one JSON or YAML object whose keys are the settings' keys (`data-dir`,
/// `smtp-url-file`), read strictly: a syntax error is named by line and column, an unknown key
/// or a value of the wrong kind is refused before the server starts.
enum SettingsFile {
    /// The values `path` gives, each of its setting's kind, by key.
    static func read(_ path: String, settings: [Setting]) throws -> [String: Setting.Value] {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw SettingsError("cannot read the config file \(path): \(PlainReason.of(error))")
        }
        let tree: Any?
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "json":
            do {
                try JSONSyntax.check(data)
            } catch {
                throw SettingsError("\(path): not valid JSON: \(error)")
            }
            tree = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        case "yaml", "yml":
            do {
                tree = Dictionary(try FlatYAML.parse(String(decoding: data, as: UTF8.self)).map { ($0.key, $0.value) }) { first, _ in first }
            } catch {
                throw SettingsError("\(path): \(error)")
            }
        default:
            throw SettingsError("the config file \(path) must end in .json, .yaml or .yml")
        }
        guard let object = tree as? [String: Any] else {
            throw SettingsError("\(path): expected an object of settings, like {\"port\": 8080}")
        }
        var byKey: [String: Setting] = [:]
        for setting in settings {
            byKey[setting.key] = setting
            if let fileKey = setting.fileKey {
                byKey[fileKey] = .text(fileKey, help: "", { _, _ in })
            }
        }
        var values: [String: Setting.Value] = [:]
        for (key, raw) in object.sorted(by: { $0.key < $1.key }) {
            guard let setting = byKey[key] else {
                throw SettingsError("\(path): unknown setting \"\(key)\"\(SettingsCommandLine.suggestion(for: key, among: Array(byKey.keys)))")
            }
            guard let value = value(raw, as: setting) else {
                throw SettingsError("\(path): \(key) must be \(setting.kind.expectation)")
            }
            values[key] = value
        }
        return values
    }

    /// `raw` as `setting`'s kind. A text setting also takes a number or a boolean as written
    /// (YAML reads `port: 25` and `tls: yes` as those); a list takes an array or one text.
    private static func value(_ raw: Any, as setting: Setting) -> Setting.Value? {
        switch setting.kind {
        case .text, .oneOf:
            if let text = raw as? String { return .text(text) }
            if let number = raw as? NSNumber, !(raw is Bool) { return .text(number.stringValue) }
            return nil
        case .wholeNumber:
            if raw is Bool { return nil }
            if let number = raw as? Int { return .wholeNumber(number) }
            if let number = raw as? NSNumber, number.doubleValue == number.doubleValue.rounded() { return .wholeNumber(number.intValue) }
            return nil
        case .boolean:
            return (raw as? Bool).map(Setting.Value.boolean)
        case .list:
            if let text = raw as? String { return .list(Setting.listItems(text)) }
            guard let items = raw as? [Any] else { return nil }
            let texts = items.compactMap { $0 as? String }
            return texts.count == items.count ? .list(texts) : nil
        }
    }
}
