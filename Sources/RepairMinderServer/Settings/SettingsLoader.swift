import Configuration
import Foundation
import Synchronization

/// The settings as given, and where each came from.
public struct LoadedSettings: Sendable {
    /// Where a setting's value came from, and how `repairminder config` shows it.
    public struct Origin: Sendable, Equatable {
        /// `command line`, `REPAIRMINDER_PORT`, `config file /etc/repairminder.yaml`, `file /run/secrets/jwt (...)`.
        public let source: String
        /// The value as given; `<redacted>` for a secret.
        public let shown: String

        public init(source: String, shown: String) {
            self.source = source
            self.shown = shown
        }
    }

    public let settings: ServerSettings
    /// Only the settings given somewhere; the rest have their defaults.
    public let origins: [String: Origin]
}

/// Reads the settings through swift-configuration: the command line first, then the
/// environment (`REPAIRMINDER_*`), then the `--config` file (JSON or YAML), then the defaults.
/// A secret may instead name a file that holds it (`--jwt-secret-file`,
/// `REPAIRMINDER_JWT_SECRET_FILE`, `jwt-secret-file:`), so it never shows in `ps` or the
/// environment; a value and a file from the same place are refused as ambiguous.
public enum SettingsLoader {
    /// Loads `settings` (a command's declarations) from `commandLine` (its settings arguments),
    /// `environment` and the config file (`configFile`, else `REPAIRMINDER_CONFIG`); not yet validated.
    public static func load(
        _ settings: [Setting], commandLine: [String], configFile: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> LoadedSettings {
        // Arguments that are not settings are the command's to judge (`seed`'s file).
        let given = try SettingsCommandLine.parse(commandLine, settings: settings)
        let configPath = configFile ?? environment["REPAIRMINDER_CONFIG"].flatMap { $0.isEmpty ? nil : $0 }
        // The file is the server's: checked against every setting, read for this command's.
        let taken = Set(settings.flatMap(\.keys))
        let fileValues = try configPath.map { try SettingsFile.read($0) } ?? [:]
        let secretVariables = Set(settings.filter(\.isSecret).map(\.environmentVariable))

        // Every source holds text (a list, texts): each value is read as its setting's kind by
        // `Setting.value`, so `--port`, `REPAIRMINDER_PORT` and `port:` take the same values.
        func content(_ key: String, text: String?, list: [String]?) -> ConfigValue {
            let isSecret = settings.contains { $0.isSecret && $0.key == key }
            return ConfigValue(list.map { .stringArray($0) } ?? .string(text ?? ""), isSecret: isSecret)
        }
        let isList = { (key: String) in settings.contains { $0.key == key && $0.kind == .list } }
        var commandLineValues: [AbsoluteConfigKey: ConfigValue] = [:]
        for (key, text) in given.values {
            commandLineValues[AbsoluteConfigKey([key])] = content(key, text: text, list: isList(key) ? Setting.listItems(text) : nil)
        }
        var configFileValues: [AbsoluteConfigKey: ConfigValue] = [:]
        for (key, value) in fileValues where taken.contains(key) {
            switch value {
            case .text(let text): configFileValues[AbsoluteConfigKey([key])] = content(key, text: text, list: isList(key) ? Setting.listItems(text) : nil)
            case .list(let items):
                guard isList(key) else { throw SettingsError("\(key) in the config file \(configPath ?? "") must be one value, not a list") }
                configFileValues[AbsoluteConfigKey([key])] = content(key, text: nil, list: items)
            }
        }
        let sources: [(name: String, provider: any ConfigProvider)] = [
            ("command line", InMemoryProvider(name: "command line", values: commandLineValues)),
            (
                "environment",
                EnvironmentVariablesProvider(environmentVariables: environment, secretsSpecifier: .specific(secretVariables))
                    .prefixKeys(with: ConfigKey("repairminder"))
            ),
            ("config file \(configPath ?? "")", InMemoryProvider(name: "config file", values: configFileValues)),
        ]
        let recorder = SourceRecorder()
        let lookup = Lookup(reader: ConfigReader(providers: sources.map(\.provider), accessReporter: recorder), recorder: recorder, names: sources.map(\.name))

        var result = ServerSettings()
        var secretFiles: [String] = []
        var origins: [String: LoadedSettings.Origin] = [:]
        for setting in settings {
            var found = try lookup.find(setting.key, list: setting.kind == .list, secret: setting.isSecret)
            var readFromFile = false
            if let fileKey = setting.fileKey, let file = try lookup.find(fileKey, list: false, secret: false) {
                // The value named nearer the command line wins; both from one place is a mistake.
                if let value = found, file.rank == value.rank {
                    throw SettingsError("\(value.source) and \(file.source) both give \(setting.key): give one")
                }
                if file.rank < found?.rank ?? .max {
                    found = try secret(in: file)
                    secretFiles.append(file.text)
                    readFromFile = true
                }
            }
            guard let found else { continue }
            // A config file that holds a secret itself must be as closed as a secret file.
            if setting.isSecret, !readFromFile, found.rank == sources.count - 1, let configPath, !secretFiles.contains(configPath) {
                secretFiles.append(configPath)
            }
            let got = setting.isSecret ? "" : ", got \"\(found.text)\""
            guard let value = found.list.map(Setting.Value.list) ?? Setting.value(found.text, as: setting.kind) else {
                throw SettingsError("\(found.source) must be \(setting.kind.expectation)\(got)")
            }
            do {
                try setting.apply(&result, value)
            } catch {
                throw SettingsError("\(found.source) must be \(error.expectation)\(got)")
            }
            origins[setting.key] = .init(source: found.source, shown: setting.isSecret ? "<redacted>" : value.shown)
        }
        result.secretFiles = secretFiles
        return LoadedSettings(settings: result, origins: origins)
    }

    /// A value found for a key: its text (or list), where from, and that place's rank (0 = command line).
    private struct Found {
        var text: String
        var list: [String]?
        var source: String
        var rank: Int
    }

    /// Looks keys up through swift-configuration, and names where each was found.
    private struct Lookup {
        let reader: ConfigReader
        let recorder: SourceRecorder
        let names: [String]

        func find(_ key: String, list: Bool, secret: Bool) throws -> Found? {
            let configKey = ConfigKey([key])
            let items = list ? reader.stringArray(forKey: configKey, isSecret: secret) : nil
            let text = list ? nil : reader.string(forKey: configKey, isSecret: secret)
            guard let answer = recorder.source(of: key) else { return nil }
            let source = describe(names[answer.index], encodedKey: answer.encodedKey, key: key)
            guard !answer.failed, text != nil || items != nil else {
                throw SettingsError("\(source) must be \(list ? "a comma-separated list" : "text")")
            }
            // Lists as every source writes them: items trimmed, empty ones dropped.
            let cleaned = items?.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            return Found(text: text ?? cleaned?.joined(separator: ",") ?? "", list: cleaned, source: source, rank: answer.index)
        }
    }

    /// How an error or `repairminder config` names where a key was found.
    private static func describe(_ source: String, encodedKey: String, key: String) -> String {
        switch source {
        case "command line": "--\(key)"
        case "environment": encodedKey
        default: "\(key) in the \(source)"
        }
    }

    /// The secret held in the file `file` names (one trailing line break dropped, as editors and
    /// `echo` write one; `\r\n` is one `Character`).
    private static func secret(in file: Found) throws -> Found {
        let path = file.text
        guard !path.isEmpty else { throw SettingsError("\(file.source) is empty: it names the file that holds the secret") }
        var contents: String
        do {
            contents = try String(contentsOf: URL(fileURLWithPath: path), encoding: .utf8)
        } catch {
            throw SettingsError("cannot read \(path) (\(file.source)): \(PlainReason.of(error))")
        }
        if contents.hasSuffix("\n") || contents.hasSuffix("\r\n") { contents.removeLast() }
        guard !contents.isEmpty else { throw SettingsError("\(path) (\(file.source)) is empty") }
        return Found(text: contents, list: nil, source: "file \(path) (\(file.source))", rank: file.rank)
    }
}

extension Setting {
    /// `text` read as `kind`; nil when it is not one.
    static func value(_ text: String, as kind: Kind) -> Value? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch kind {
        case .text, .oneOf: return .text(text)
        case .wholeNumber: return Int(trimmed).map(Value.wholeNumber)
        case .boolean:
            switch trimmed.lowercased() {
            case "true", "yes", "1": return .boolean(true)
            case "false", "no", "0": return .boolean(false)
            default: return nil
            }
        case .list: return .list(listItems(text))
        }
    }
}

extension Setting.Value {
    /// As `repairminder config` prints it: the value read, however it was written (`yes`, `1`).
    var shown: String {
        switch self {
        case .text(let text): text
        case .wholeNumber(let number): String(number)
        case .boolean(let flag): String(flag)
        case .list(let items): items.joined(separator: ",")
        }
    }
}

/// Which provider answered each key, or failed on it: swift-configuration reports every lookup
/// with each provider's result, in the providers' order, stopping at the first that has it.
private final class SourceRecorder: AccessReporter, Sendable {
    private struct Answer {
        var index: Int
        var encodedKey: String
        var failed: Bool
    }

    private let answers = Mutex<[String: Answer]>([:])

    func report(_ event: AccessEvent) {
        guard let key = event.metadata.key.components.last, let last = event.providerResults.indices.last else { return }
        let answer: Answer? =
            switch event.providerResults[last].result {
            case .success(let lookup): lookup.value == nil ? nil : Answer(index: last, encodedKey: lookup.encodedKey, failed: event.conversionError != nil)
            case .failure: Answer(index: last, encodedKey: Setting.environmentVariable(for: key), failed: true)
            }
        answers.withLock { $0[key] = answer }
    }

    func source(of key: String) -> (index: Int, encodedKey: String, failed: Bool)? {
        answers.withLock { $0[key].map { ($0.index, $0.encodedKey, $0.failed) } }
    }
}
