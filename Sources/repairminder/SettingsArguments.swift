import ArgumentParser
import Foundation
import RepairMinderServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The server settings a command takes (`ServerSettings.declarations`), given as flags
/// (`--port 9000`), `REPAIRMINDER_*` environment variables or a `--config` file. They are
/// declared once there: ArgumentParser hands them over unparsed, and the command's help lists
/// them from the declarations (`SettingsHelp`).
struct SettingsArguments: ParsableArguments {
    @Option(help: "A JSON or YAML file of settings (data-dir: /var/lib/repairminder). [env: REPAIRMINDER_CONFIG]")
    var config: String?

    @Argument(parsing: .allUnrecognized, help: .hidden)
    var given: [String] = []

    /// A misspelt flag is a usage error, found while ArgumentParser parses (so the usage shown
    /// is the command's); whether the command takes that setting is checked when it loads them.
    func validate() throws {
        do {
            _ = try SettingsCommandLine.parse(given, settings: ServerSettings.declarations)
        } catch let error as SettingsError {
            throw ValidationError(error.description)
        }
    }

    /// The settings `command` takes, read from its flags, the environment and the config file,
    /// and where each came from; not validated.
    func load(
        for command: String, positionals: Int = 0, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> LoadedSettings {
        guard self.positionals.count <= positionals else { throw ValidationError("unexpected argument \"\(self.positionals[positionals])\"") }
        do {
            return try SettingsLoader.load(
                ServerSettings.declarations(for: command), commandLine: given, configFile: config, environment: environment)
        } catch let error as SettingsError {
            // A misspelt flag was found while parsing; this is a setting the command does not take.
            let hint = error.isUsageError ? " (repairminder \(command) --help lists its settings)" : ""
            throw CommandFailure(error.description + hint)
        }
    }

    /// `given` read against every setting (`validate` has refused what it cannot read).
    private var parsed: (values: [String: String], positionals: [String]) {
        (try? SettingsCommandLine.parse(given, settings: ServerSettings.declarations)) ?? ([:], [])
    }

    /// The arguments that are not settings (`seed`'s file), in order.
    var positionals: [String] { parsed.positionals }

    /// The settings named on the command line (`log-level`).
    var namesOnTheCommandLine: Set<String> { Set(parsed.values.keys) }

    /// The settings `command` takes, validated.
    func settings(
        for command: String, positionals: Int = 0, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> ServerSettings {
        try Self.validated(load(for: command, positionals: positionals, environment: environment).settings)
    }

    /// The settings `flags` name (a setting's key and the value of its own `@Option`, nil when
    /// not given), read with the environment and the config file as `serve` reads them: for the
    /// commands that take a few settings as ordinary options.
    static func load(_ flags: [(key: String, value: String?)], configFile: String?) throws -> ServerSettings {
        let declarations = ServerSettings.declarations.filter { setting in flags.contains { $0.key == setting.key } }
        let commandLine = flags.flatMap { flag in flag.value.map { ["--" + flag.key, $0] } ?? [] }
        do {
            return try SettingsLoader.load(declarations, commandLine: commandLine, configFile: configFile).settings
        } catch let error as SettingsError {
            throw CommandFailure(error.description)
        }
    }

    /// `settings`, if they can run.
    static func validated(_ settings: ServerSettings) throws -> ServerSettings {
        do {
            try settings.validate()
        } catch let error as SettingsError {
            throw CommandFailure(error.description)
        }
        return settings
    }

    /// The SETTINGS section of `command`'s help, wrapped to the terminal.
    static func help(for command: String) -> String {
        SettingsHelp.terminalSection(ServerSettings.declarations(for: command), width: terminalWidth)
    }

    /// The terminal's width as ArgumentParser reads it: `COLUMNS`, else the terminal's, else 80.
    static var terminalWidth: Int {
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap({ Int($0) }), columns > 0 { return columns }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }
}
