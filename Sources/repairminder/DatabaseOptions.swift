import ArgumentParser
import Foundation
import Logging
import RepairMinderServer

/// Where an operator command finds the server's database: the same flags and environment as
/// `serve` (`--data-dir`, `--database-url`).
struct DatabaseOptions: ParsableArguments {
    @Option(help: "The server's data directory. [env: REPAIRMINDER_DATA_DIR] (default: ./.repairminder)")
    var dataDir: String?

    @Option(help: "The server's database. [env: REPAIRMINDER_DATABASE_URL] (default: <data-dir>/repairminder.sqlite)")
    var databaseUrl: String?

    @Option(help: "The server's JSON or YAML settings file, for its data-dir and database-url. [env: REPAIRMINDER_CONFIG]")
    var config: String?

    /// The database settings as `serve` reads them: these flags, the environment, the config file.
    func databaseSettings() throws -> ServerSettings {
        try SettingsArguments.load([("data-dir", dataDir), ("database-url", databaseUrl)], configFile: config)
    }

    /// The data directory: the flag, its environment twin, the config file, or the default.
    var dataDirectory: String {
        get throws { try databaseSettings().dataDirectory }
    }

    /// Opens the server's existing database (migrating it if needed), runs `body` and closes
    /// it, whatever happens. A database that is not there is refused, never created: run in
    /// the wrong directory, an operator command would otherwise report an empty new one.
    func withDatabase<T: Sendable>(_ body: (Database) async throws -> T) async throws -> T {
        try await Self.withDatabase(settings: try databaseSettings(), body)
    }

    /// `withDatabase` for a command that read more settings than the database's (read once).
    static func withDatabase<T: Sendable>(settings: ServerSettings, _ body: (Database) async throws -> T) async throws -> T {
        var logger = Logger(label: "repairminder")
        logger.logLevel = .warning
        let database = try await Database.openExisting(settings: settings, logger: logger)
        do {
            let result = try await body(database)
            await database.close()
            return result
        } catch {
            await database.close()
            throw error
        }
    }
}
