import Foundation
@testable import RepairMinderServer
import Testing

@testable import repairminder

/// Issue 29, item 1: every setting is declared once and read from the command line, the
/// environment, a JSON or YAML config file, or (secrets) a file named by `*-file`; the README's
/// table and `serve --help` are written from the declarations; `config` says where each came from.
@Suite struct ConfigurationTests {
    private static func load(
        _ arguments: [String] = [], environment: [String: String] = [:], config: String? = nil
    ) throws -> LoadedSettings {
        try SettingsLoader.load(ServerSettings.declarations, commandLine: arguments, configFile: config, environment: environment)
    }

    private static func write(_ text: String, named name: String) throws -> String {
        let directory = CommandLineTests.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A value of each kind, as text and as it is read.
    private static func sample(_ kind: Setting.Kind) -> (text: String, json: Any, shown: String) {
        switch kind {
        case .text: ("some-value", "some-value", "some-value")
        case .wholeNumber: ("7", 7, "7")
        case .boolean: ("false", false, "false")
        case .list: ("a,b", ["a", "b"], "a,b")
        case .oneOf(let words): (words[1], words[1], words[1])
        }
    }

    @Test func everySettingIsAFlagAVariableAndAConfigKeyAndSaysWhereItCameFrom() throws {
        for setting in ServerSettings.declarations {
            let value = Self.sample(setting.kind)
            let shown = setting.isSecret ? "<redacted>" : value.shown
            let fromFlag = try Self.load([setting.flag, value.text]).origins[setting.key]
            #expect(fromFlag == .init(source: setting.flag, shown: shown), "\(setting.key)")
            let fromEnvironment = try Self.load(environment: [setting.environmentVariable: value.text]).origins[setting.key]
            #expect(fromEnvironment == .init(source: setting.environmentVariable, shown: shown), "\(setting.key)")
            let json = String(decoding: try JSONSerialization.data(withJSONObject: [setting.key: value.json]), as: UTF8.self)
            let file = try Self.write(json, named: "settings.json")
            let fromFile = try Self.load(config: file).origins[setting.key]
            #expect(fromFile == .init(source: "\(setting.key) in the config file \(file)", shown: shown), "\(setting.key)")
        }
    }

    @Test func theCommandLineWinsOverTheEnvironmentWhichWinsOverTheFile() throws {
        let file = try Self.write("port: 9001\nhost: 0.0.0.0\nbcrypt-cost: 10\n", named: "settings.yaml")
        let loaded = try Self.load(["--port", "9003"], environment: ["REPAIRMINDER_PORT": "9002", "REPAIRMINDER_HOST": "::"], config: file)
        #expect(loaded.settings.port == 9003)
        #expect(loaded.settings.host == "::")
        #expect(loaded.settings.bcryptCost == 10)
        #expect(loaded.origins["bcrypt-cost"]?.source == "bcrypt-cost in the config file \(file)")
        #expect(loaded.origins["access-token-ttl"] == nil, "a default has no origin")
        // REPAIRMINDER_CONFIG names the file when --config does not.
        #expect(try Self.load(environment: ["REPAIRMINDER_CONFIG": file]).settings.port == 9001)
    }

    @Test func aYAMLFileTakesListsQuotesAndComments() throws {
        let file = try Self.write(
            """
            # Repair Minder
            mail-from: "Repair Minder, Inc. <no-reply@rm.example>"   # a comma and a comment
            trusted-proxies:
              - 10.0.0.0/8
              - 'fd00::/8'
            webauthn-origins: [https://rm.example, https://app.rm.example]
            reki: false
            env: production
            """, named: "settings.yml")
        let settings = try Self.load(config: file).settings
        #expect(settings.mailFrom == "Repair Minder, Inc. <no-reply@rm.example>")
        #expect(settings.trustedProxies == ["10.0.0.0/8", "fd00::/8"])
        #expect(settings.webauthnOrigins == ["https://rm.example", "https://app.rm.example"])
        #expect(settings.rekiEnabled == false)
        #expect(settings.environment == .production)
    }

    @Test(arguments: [
        ("settings.json", "{\"prot\": 8080}", "unknown setting \"prot\"; did you mean port?"),
        ("settings.json", "{\n  \"port\": 8080,\n}", "not valid JSON: line 3, column 1"),
        ("settings.json", "{\"port\": \"eighty\"}", "must be a whole number, got \"eighty\""),
        ("settings.json", "{\"port\": 18446744073709551617}", "must be a whole number"),
        ("settings.json", "{\"port\": null}", "port must be text, a number"),
        // YAML is read by Yams: its syntax errors by line and column, never quoting the file.
        ("settings.yaml", "mail-from: \"a\"  \"b\"\n", "not valid YAML: line 1, column 17"),
        ("settings.yaml", "smtp-ca-file: null\n", "line 1: smtp-ca-file is null: give a value or leave the key out"),
        ("settings.yaml", "mail-from: x: y\n", "not valid YAML: line 1, column 13: mapping values are not allowed"),
        ("settings.yaml", "host:0.0.0.0\n", "expected settings as `key: value` lines"),
        ("settings.yaml", "port: 8080\n- x\n", "not valid YAML: line 2, column 1"),
        ("settings.json", "[1, 2]", "expected an object of settings"),
        ("settings.yaml", "port: 8080\n  nested: 1\n", "not valid YAML: line 2"),
        ("settings.yaml", "smtp:\n  url: x\n", "line 2: smtp must be text, a number, true or false, or a list of texts"),
        ("settings.yaml", "env: staging\n", "env in the config file"),
        ("settings.yaml", "port: 1\nport: 2\n", "port is given twice"),
        ("settings.toml", "port = 1", "must end in .json, .yaml or .yml"),
    ])
    func aBrokenConfigFileIsRefusedSayingWhere(name: String, text: String, expected: String) throws {
        let file = try Self.write(text, named: name)
        #expect {
            _ = try SettingsArguments.parse(["--config", file]).settings(for: "serve", environment: [:])
        } throws: { error in
            error is CommandFailure && "\(error)".contains(expected) && "\(error)".contains(file)
        }
    }

    /// What review found read wrongly without a word (each shown to fail before its fix).
    @Test func valuesAreReadAsWrittenWhateverTheSourceWritesThemLike() throws {
        // Windows line endings: "\r\n" is one Character.
        let crlf = try Self.write("data-dir: /tmp/rm-crlf\r\nport: 9001\r\n", named: "settings.yaml")
        let fromCRLF = try Self.load(config: crlf).settings
        #expect(fromCRLF.port == 9001 && fromCRLF.dataDirectory == "/tmp/rm-crlf")
        let secret = String(repeating: "s", count: 31) + "B"
        let secretFile = try Self.write(secret + "\r\n", named: "secret")
        #expect(try Self.load(["--jwt-secret-file", secretFile]).settings.jwtSecret == secret)
        // A quote inside a plain value, a comment after it, an escaped quote.
        let yaml = try Self.write(
            "mail-from: Bob's Shop <no-reply@rm.example>  # the sender\nsmtp-url: \"smtp://a:b@c:587\"\nhost: \"a\\\" #b\"\n", named: "s.yaml")
        let fromYAML = try Self.load(config: yaml).settings
        #expect(fromYAML.mailFrom == "Bob's Shop <no-reply@rm.example>")
        #expect(fromYAML.smtpURL == "smtp://a:b@c:587")
        #expect(fromYAML.host == "a\" #b")
        // JSON's 0 and 1 (which Foundation on Linux also calls booleans).
        let json = try Self.write("{\"code-resend-interval\": 0, \"max-code-attempts\": 1, \"reki\": false, \"access-log\": true}", named: "s.json")
        let fromJSON = try Self.load(config: json).settings
        #expect(fromJSON.codeResendInterval == 0 && fromJSON.maxCodeAttempts == 1)
        #expect(fromJSON.rekiEnabled == false && fromJSON.accessLog == true)
        // Lists and numbers from the environment as from a flag: trimmed, empty items dropped.
        let fromEnvironment = try Self.load(environment: ["REPAIRMINDER_TRUSTED_PROXIES": "10.0.0.1,, ", "REPAIRMINDER_PORT": " 9000"]).settings
        #expect(fromEnvironment.trustedProxies == ["10.0.0.1"] && fromEnvironment.port == 9000)
        #expect(try Self.load(["--reki", "no"]).settings.rekiEnabled == false)
    }

    /// The server's whole config file serves the commands that read only part of it, and
    /// `migrate` and `seed` do not need production's secrets.
    @Test func commandsThatReadPartOfTheSettingsTakeTheServersFile() throws {
        let file = try Self.write("env: production\nport: 9000\ndata-dir: /tmp/rm-partial\nsmtp-url-file: /nonexistent\n", named: "server.yaml")
        let migrate = try SettingsArguments.parse(["--config", file]).settings(for: "migrate", environment: ["REPAIRMINDER_ENV": "production"])
        #expect(migrate.dataDirectory == "/tmp/rm-partial")
        let seed = try SeedCommand.parse(["--data-dir", "/tmp/rm-seed", "fixtures.json", "--bcrypt-cost", "5"])
        #expect(seed.settingsArguments.positionals == ["fixtures.json"])
        #expect(try seed.settingsArguments.settings(for: "seed", positionals: 1, environment: [:]).bcryptCost == 5)
        #expect(try seed.settingsArguments.settings(for: "seed", positionals: 1, environment: [:]).dataDirectory == "/tmp/rm-seed")
    }

    @Test func aSecretCanBeAFileAndNeverShows() throws {
        let secret = "file-secret-" + String(repeating: "f", count: 30)
        let path = try Self.write(secret + "\n", named: "jwt")
        let fromVariable = try Self.load(environment: ["REPAIRMINDER_JWT_SECRET_FILE": path])
        #expect(fromVariable.settings.jwtSecret == secret, "one trailing line break dropped")
        #expect(fromVariable.origins["jwt-secret"] == .init(source: "file \(path) (REPAIRMINDER_JWT_SECRET_FILE)", shown: "<redacted>"))
        // The command line is nearer than the environment, whichever form each uses.
        let flag = String(repeating: "c", count: 40)
        #expect(try Self.load(["--jwt-secret", flag], environment: ["REPAIRMINDER_JWT_SECRET_FILE": path]).settings.jwtSecret == flag)
        #expect(try Self.load(["--jwt-secret-file", path], environment: ["REPAIRMINDER_JWT_SECRET": flag]).settings.jwtSecret == secret)
        // Both from one place is a mistake, and a file that cannot be read is named.
        #expect {
            _ = try Self.load(environment: ["REPAIRMINDER_JWT_SECRET_FILE": path, "REPAIRMINDER_JWT_SECRET": flag])
        } throws: { "\($0)".contains("both give jwt-secret") }
        #expect {
            _ = try Self.load(["--encryption-key-file", path + ".missing"])
        } throws: { "\($0)".contains("cannot read \(path).missing (--encryption-key-file)") }
        #expect { _ = try Self.load(["--port-file", path]) } throws: { "\($0)".contains("unknown option --port-file") }
    }

    @Test func aMisspeltFlagIsAUsageErrorWithTheNearestName() throws {
        #expect {
            _ = try SettingsArguments.parse(["--prot", "9000"]).settings(for: "serve", environment: [:])
        } throws: { "\($0)".contains("unknown option --prot; did you mean --port?") }
        #expect { _ = try SettingsArguments.parse(["--port"]).settings(for: "serve", environment: [:]) } throws: {
            "\($0)".contains("--port needs a value")
        }
        // migrate takes only the database's settings.
        #expect { _ = try SettingsArguments.parse(["--smtp-url", "smtp://x"]).settings(for: "migrate", environment: [:]) } throws: {
            "\($0)".contains("unknown option --smtp-url")
        }
    }

    @Test func theREADMETableIsTheDeclarations() throws {
        let readme = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/configuration.md"), encoding: .utf8)
        let table = SettingsHelp.markdownTable()
        #expect(
            readme.contains("\n" + table + "\n"),
            "docs/configuration.md's settings table differs from the declarations: replace it with the output of `repairminder config --markdown`")
    }

    /// `config` run as an operator would: each value and its source, secrets never printed.
    @Test func theConfigCommandShowsSourcesAndRedactsSecrets() throws {
        let secret = "smtp://mailer:" + String(repeating: "p", count: 24) + "@mail.rm.example:587"
        let secretFile = try Self.write(secret, named: "smtp-url")
        let config = try Self.write("{\"port\": 9100, \"mail-from\": \"no-reply@rm.example\"}", named: "settings.json")
        let encryptionKey = String(repeating: "e", count: 40)
        let run = try CommandLineTests.run(
            ["config", "--config", config, "--host", "0.0.0.0"],
            environment: [
                "REPAIRMINDER_SMTP_URL_FILE": secretFile, "REPAIRMINDER_ENCRYPTION_KEY": encryptionKey,
                "REPAIRMINDER_DATA_DIR": CommandLineTests.temporaryDirectory(),
            ])
        let output = run.output + run.error
        #expect(run.status == 0, "\(output)")
        let rows = Dictionary(
            output.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }.filter { $0.count >= 3 }
                .map { (String($0[0]), $0.dropFirst().joined(separator: " ")) }
        ) { first, _ in first }
        #expect(rows["host"] == "0.0.0.0 --host")
        #expect(rows["port"] == "9100 port in the config file \(config)")
        #expect(rows["smtp-url"] == "<redacted> file \(secretFile) (REPAIRMINDER_SMTP_URL_FILE)")
        #expect(rows["encryption-key"] == "<redacted> REPAIRMINDER_ENCRYPTION_KEY")
        #expect(rows["bcrypt-cost"] == "12 default")
        // Issue 50, item 7: a default that is a rule shows what it comes to here.
        #expect(rows["public-url"] == "http://0.0.0.0:9100 default")
        #expect(rows["mail-transport"] == "smtp default")
        #expect(rows["webauthn-rp-id"] == "localhost default")
        #expect(rows["webauthn-origins"] == "http://localhost:9100 default")
        #expect(!output.contains(encryptionKey) && !output.contains("pppp"), "no secret is printed")
        #expect(output.contains("serve would start with these settings."))
    }
}
