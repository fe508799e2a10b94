import Foundation

/// One server setting, declared once (`ServerSettings.declarations`): its key, kind, default,
/// help and secrecy. Everything else is derived from it: the command-line flag, the environment
/// variable, the config file key, `serve --help`, `repairminder config` and docs/configuration.md's table.
public struct Setting: Sendable {
    /// What a setting's value is, and how a text (a flag, a variable, a secret file) is read as one.
    public enum Kind: Sendable, Equatable {
        case text
        case wholeNumber
        case boolean
        /// Comma-separated on the command line and in the environment, an array in a config file.
        case list
        /// One of these words.
        case oneOf([String])

        /// What a wrong value was expected to be, for an error message.
        var expectation: String {
            switch self {
            case .text: "text"
            case .wholeNumber: "a whole number"
            case .boolean: "true or false"
            case .list: "a comma-separated list"
            case .oneOf(let words): words.joined(separator: " or ")
            }
        }

        /// The placeholder after the flag in help: `--port <number>`.
        var placeholder: String {
            switch self {
            case .text: "<value>"
            case .wholeNumber: "<number>"
            case .boolean: "<true|false>"
            case .list: "<a,b,...>"
            case .oneOf(let words): "<\(words.joined(separator: "|"))>"
            }
        }
    }

    /// A value read for a setting, already of its kind.
    public enum Value: Sendable, Equatable {
        case text(String)
        case wholeNumber(Int)
        case boolean(Bool)
        case list([String])
    }

    /// The config file key and the flag without its dashes: `data-dir`.
    public let key: String
    public let kind: Kind
    /// The default as help shows it (`8080`, `<data-dir>/repairminder.sqlite`, `none`).
    public let defaultDescription: String
    /// What it does; `backticks` mark literal values (kept in docs/configuration.md, dropped in a terminal).
    public let help: String
    /// Never printed or logged; may also be given as a file (`--jwt-secret-file`, `REPAIRMINDER_JWT_SECRET_FILE`).
    public let isSecret: Bool
    /// Which commands read it besides `serve` and `config` (`migrate`, `seed`).
    public let alsoFor: Set<String>
    let apply: @Sendable (inout ServerSettings, Value) throws(SettingValueError) -> Void

    /// `--data-dir`.
    public var flag: String { "--" + key }
    /// `REPAIRMINDER_DATA_DIR`.
    public var environmentVariable: String { Self.environmentVariable(for: key) }
    /// The companion key of a secret that names a file holding it: `jwt-secret-file`.
    public var fileKey: String? { isSecret ? key + "-file" : nil }
    /// Every key that gives this setting: its own, and a secret's file key.
    var keys: [String] { [key] + (fileKey.map { [$0] } ?? []) }

    static func environmentVariable(for key: String) -> String {
        "REPAIRMINDER_" + key.uppercased().replacingOccurrences(of: "-", with: "_")
    }

    static func listItems(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}

/// A value of the right type that a setting still cannot take (a word it does not know).
public struct SettingValueError: Error, Sendable {
    let expectation: String
}

extension Setting {
    private init(
        _ key: String, _ kind: Kind, default defaultDescription: String, secret: Bool = false, alsoFor: Set<String> = [],
        help: String, apply: @escaping @Sendable (inout ServerSettings, Value) throws(SettingValueError) -> Void
    ) {
        self.key = key
        self.kind = kind
        self.defaultDescription = defaultDescription
        self.help = help
        self.isSecret = secret
        self.alsoFor = alsoFor
        self.apply = apply
    }

    /// The property a setting sets: its default is the property's in `ServerSettings()`, so
    /// help, `config` and docs/configuration.md cannot say another value than the server uses.
    typealias Property<Value> = WritableKeyPath<ServerSettings, Value> & Sendable

    /// The default as help shows it, read from `ServerSettings()`.
    private static func defaultValue<Value>(of property: Property<Value>) -> Value { ServerSettings()[keyPath: property] }

    /// Text with a default of its own (`host`).
    static func text(
        _ key: String, _ property: Property<String>, alsoFor: Set<String> = [], help: String
    ) -> Setting {
        Setting(key, .text, default: defaultValue(of: property), alsoFor: alsoFor, help: help) { settings, value in
            if case .text(let text) = value { settings[keyPath: property] = text }
        }
    }

    /// Text whose absence means something a sentence says (`<data-dir>/repairminder.sqlite`, `none`).
    static func text(
        _ key: String, _ property: Property<String?>, default absent: String = "none", secret: Bool = false,
        alsoFor: Set<String> = [], help: String
    ) -> Setting {
        Setting(key, .text, default: absent, secret: secret, alsoFor: alsoFor, help: help) { settings, value in
            if case .text(let text) = value { settings[keyPath: property] = text }
        }
    }

    /// A whole number; `note` says it in words (`7 days`).
    static func number(
        _ key: String, _ property: Property<Int>, note: String? = nil, alsoFor: Set<String> = [], help: String
    ) -> Setting {
        let value = defaultValue(of: property)
        let shown = note.map { "\(value) (\($0))" } ?? "\(value)"
        return Setting(key, .wholeNumber, default: shown, alsoFor: alsoFor, help: help) { settings, value in
            if case .wholeNumber(let number) = value { settings[keyPath: property] = number }
        }
    }

    static func flag(_ key: String, _ property: Property<Bool>, help: String) -> Setting {
        Setting(key, .boolean, default: "\(defaultValue(of: property))", help: help) { settings, value in
            if case .boolean(let flag) = value { settings[keyPath: property] = flag }
        }
    }

    /// A list; empty by default, which `absent` describes.
    static func list(
        _ key: String, _ property: Property<[String]>, default absent: String = "none", help: String
    ) -> Setting {
        Setting(key, .list, default: absent, help: help) { settings, value in
            if case .list(let items) = value { settings[keyPath: property] = items }
        }
    }

    /// One of an enumeration's raw values, defaulting to the property's.
    static func choice<Choice: RawRepresentable & CaseIterable & Sendable>(
        _ key: String, _ property: Property<Choice>, alsoFor: Set<String> = [], help: String
    ) -> Setting where Choice.RawValue == String {
        choice(key, default: defaultValue(of: property).rawValue, alsoFor: alsoFor, help: help) { (settings, value: Choice) in
            settings[keyPath: property] = value
        }
    }

    /// One of an enumeration's raw values, where none given means what `absent` says.
    static func choice<Choice: RawRepresentable & CaseIterable & Sendable>(
        _ key: String, _ property: Property<Choice?>, default absent: String, help: String
    ) -> Setting where Choice.RawValue == String {
        choice(key, default: absent, help: help) { (settings, value: Choice) in settings[keyPath: property] = value }
    }

    private static func choice<Choice: RawRepresentable & CaseIterable & Sendable>(
        _ key: String, default defaultDescription: String, alsoFor: Set<String> = [], help: String,
        _ set: @escaping @Sendable (inout ServerSettings, Choice) -> Void
    ) -> Setting where Choice.RawValue == String {
        let words = Choice.allCases.map(\.rawValue)
        return Setting(key, .oneOf(words), default: defaultDescription, alsoFor: alsoFor, help: help) {
            settings, value throws(SettingValueError) in
            guard case .text(let word) = value else { return }
            // Words are matched as written, then regardless of case (`hs256`, `JSON`).
            guard let choice = Choice(rawValue: word) ?? Choice.allCases.first(where: { $0.rawValue.lowercased() == word.lowercased() })
            else {
                throw SettingValueError(expectation: words.joined(separator: " or "))
            }
            set(&settings, choice)
        }
    }
}
