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
        let given = try SettingsCommandLine.parse(commandLine, settings: settings)
        let configPath = configFile ?? environment["REPAIRMINDER_CONFIG"].flatMap { $0.isEmpty ? nil : $0 }
        let fileValues = try configPath.map { try SettingsFile.read($0, settings: settings) } ?? [:]
        let secretVariables = Set(settings.filter(\.isSecret).map(\.environmentVariable))

        var commandLineValues: [AbsoluteConfigKey: ConfigValue] = [:]
        for (key, text) in given {
            let setting = settings.first { $0.key == key || $0.fileKey == key }
            let kind = setting?.key == key ? setting?.kind ?? .text : .text
            guard let value = Setting.value(text, as: kind) else {
                throw SettingsError("--\(key) must be \(kind.expectation), got \"\(text)\"")
            }
            commandLineValues[AbsoluteConfigKey([key])] = ConfigValue(value.content, isSecret: setting?.isSecret == true)
        }
        let sources: [(name: String, provider: any ConfigProvider)] = [
            ("command line", InMemoryProvider(name: "command line", values: commandLineValues)),
            (
                "environment",
                EnvironmentVariablesProvider(environmentVariables: environment, secretsSpecifier: .specific(secretVariables))
                    .prefixKeys(with: ConfigKey("repairminder"))
            ),
            (
                "config file \(configPath ?? "")",
                InMemoryProvider(
                    name: "config file",
                    values: Dictionary(uniqueKeysWithValues: fileValues.map { (AbsoluteConfigKey([$0.key]), ConfigValue($0.value.content, isSecret: false)) })
                )
            ),
        ]
        let recorder = SourceRecorder()
        let reader = ConfigReader(providers: sources.map(\.provider), accessReporter: recorder)

        var result = ServerSettings()
        var origins: [String: LoadedSettings.Origin] = [:]
        for setting in settings {
            guard var found = try read(setting.key, kind: setting.kind, secret: setting.isSecret, from: reader, recorder, sources.map(\.name), environment: environment) else {
                continue
            }
            if let fileKey = setting.fileKey,
                let file = try read(fileKey, kind: .text, secret: false, from: reader, recorder, sources.map(\.name), environment: environment)
            {
                // The value named nearer the command line wins; both from one place is a mistake.
                if file.rank == found.rank {
                    throw SettingsError("\(found.source) and \(file.source) both give \(setting.key): give one")
                }
                if file.rank < found.rank { found = try secret(in: file, for: setting) }
            }
            do {
                try setting.apply(&result, found.value)
            } catch {
                throw SettingsError("\(found.source) must be \(error.expectation), got \"\(found.shown)\"")
            }
            origins[setting.key] = .init(source: found.source, shown: setting.isSecret ? "<redacted>" : found.shown)
        }
        // A secret given only as a file.
        for setting in settings where origins[setting.key] == nil {
            guard let fileKey = setting.fileKey,
                let file = try read(fileKey, kind: .text, secret: false, from: reader, recorder, sources.map(\.name), environment: environment)
            else { continue }
            let found = try secret(in: file, for: setting)
            try? setting.apply(&result, found.value)
            origins[setting.key] = .init(source: found.source, shown: "<redacted>")
        }
        return LoadedSettings(settings: result, origins: origins)
    }

    /// A value found for a key: what it is, where from, and that place's rank (0 = command line).
    private struct Found {
        var value: Setting.Value
        var source: String
        var shown: String
        var rank: Int
    }

    private static func read(
        _ key: String, kind: Setting.Kind, secret: Bool, from reader: ConfigReader, _ recorder: SourceRecorder, _ names: [String],
        environment: [String: String]
    ) throws -> Found? {
        let configKey = ConfigKey([key])
        let value: Setting.Value? =
            switch kind {
            case .text, .oneOf: reader.string(forKey: configKey, isSecret: secret).map(Setting.Value.text)
            case .wholeNumber: reader.int(forKey: configKey, isSecret: secret).map(Setting.Value.wholeNumber)
            case .boolean: reader.bool(forKey: configKey, isSecret: secret).map(Setting.Value.boolean)
            case .list: reader.stringArray(forKey: configKey, isSecret: secret).map(Setting.Value.list)
            }
        let where_ = recorder.source(of: key)
        let source = where_.map { describe(names[$0.index], encodedKey: $0.encodedKey, key: key) } ?? "the default"
        if recorder.failed(key) || (value == nil && where_ != nil) {
            let given = secret ? nil : environment[source]
            throw SettingsError("\(source) must be \(kind.expectation)\(given.map { ", got \"\($0)\"" } ?? "")")
        }
        guard let value, let where_ else { return nil }
        return Found(value: value, source: source, shown: value.shown, rank: where_.index)
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
    /// `echo` write one).
    private static func secret(in file: Found, for setting: Setting) throws -> Found {
        guard case .text(let path) = file.value else { throw SettingsError("\(file.source) must be a file path") }
        var contents: String
        do {
            contents = try String(contentsOf: URL(fileURLWithPath: path), encoding: .utf8)
        } catch {
            throw SettingsError("cannot read \(path) (\(file.source)): \(PlainReason.of(error))")
        }
        if contents.hasSuffix("\r\n") { contents.removeLast(2) } else if contents.hasSuffix("\n") { contents.removeLast() }
        guard !contents.isEmpty else { throw SettingsError("\(path) (\(file.source)) is empty") }
        return Found(value: .text(contents), source: "file \(path) (\(file.source))", shown: "<redacted>", rank: file.rank)
    }
}

extension Setting {
    /// `text` read as `kind`; nil when it is not one.
    static func value(_ text: String, as kind: Kind) -> Value? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch kind {
        case .text, .oneOf: return .text(text)
        case .wholeNumber: return Int(trimmed).map(Value.wholeNumber)
        case .boolean: return Bool(trimmed.lowercased()).map(Value.boolean)
        case .list: return .list(listItems(text))
        }
    }
}

extension Setting.Value {
    /// The same value as swift-configuration holds it.
    var content: ConfigContent {
        switch self {
        case .text(let text): .string(text)
        case .wholeNumber(let number): .int(number)
        case .boolean(let flag): .bool(flag)
        case .list(let items): .stringArray(items)
        }
    }

    /// As `repairminder config` prints it.
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

    func source(of key: String) -> (index: Int, encodedKey: String)? {
        answers.withLock { $0[key].map { ($0.index, $0.encodedKey) } }
    }

    func failed(_ key: String) -> Bool { answers.withLock { $0[key]?.failed ?? false } }
}
