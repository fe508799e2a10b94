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
    func load(for command: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> LoadedSettings {
        do {
            return try SettingsLoader.load(
                ServerSettings.declarations(for: command), commandLine: settingArguments, configFile: config, environment: environment)
        } catch let error as SettingsError {
            // A misspelt flag was found while parsing; this is a setting the command does not take.
            let hint = error.isUsageError ? " (repairminder \(command) --help lists its settings)" : ""
            throw CommandFailure(error.description + hint)
        }
    }

    /// The settings named on the command line (`log-level`).
    var namesOnTheCommandLine: Set<String> {
        Set((try? SettingsCommandLine.parse(given, settings: ServerSettings.declarations).values.keys).map(Array.init) ?? [])
    }

    /// The arguments that are not settings (`seed`'s file), in order.
    var positionals: [String] {
        (try? SettingsCommandLine.parse(given, settings: ServerSettings.declarations).positionals) ?? []
    }

    /// `given` without the positionals.
    private var settingArguments: [String] {
        var remaining = given
        for positional in positionals {
            // A positional is never a flag's value (the parse took those), so the first bare
            // occurrence that is not right after a flag needing a value is it.
            if let index = remaining.indices.first(where: { index in
                remaining[index] == positional && (index == 0 || !Self.takesValue(remaining[index - 1]))
            }) {
                remaining.remove(at: index)
            }
        }
        return remaining
    }

    private static func takesValue(_ argument: String) -> Bool { argument.hasPrefix("--") && !argument.contains("=") }

    /// The settings `command` takes, validated.
    func settings(for command: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> ServerSettings {
        try Self.validated(load(for: command, environment: environment).settings)
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
