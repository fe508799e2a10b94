import Foundation
import Logging
import SQLKit

/// The database an operator command names does not exist, or holds no Repair Minder schema.
/// Operator commands refuse rather than create one: run in the wrong directory, an empty new
/// database would answer "no shops yet" and be believed.
public struct DatabaseMissingError: Error, CustomStringConvertible {
    public let description: String
}

extension Database {
    /// Opens the database the settings name only if it is already there with its schema (the
    /// `schema_migrations` table `migrate` and `serve` create), then, `migrating`, brings that
    /// schema up to date as `openMigrated` does. Never creates a SQLite file or its directory.
    public static func openExisting(settings: ServerSettings, logger: Logger, migrating: Bool = true) async throws -> Database {
        let location = try settings.databaseLocation()
        let hint = "run `repairminder migrate` (or `serve`) there first, or name the server's with --data-dir or --database-url"
        if case .sqlite(let path) = location, !FileManager.default.fileExists(atPath: path) {
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
            let why = FileManager.default.fileExists(atPath: directory) ? "" : " (the directory \(directory) does not exist either)"
            throw DatabaseMissingError(description: "no database at \(path)\(why): \(hint)")
        }
        let database = try await open(settings: settings, logger: logger)
        do {
            guard try await database.hasSchema() else {
                throw DatabaseMissingError(
                    description: "\(database.location) holds no Repair Minder database (no schema_migrations table): \(hint)")
            }
            if migrating { try await Migrations.run(on: database, logger: logger) }
        } catch {
            await database.close()
            throw error
        }
        return database
    }

    /// Whether the migrations have ever run here.
    func hasSchema() async throws -> Bool {
        try await withConnection { db in
            // Each engine's own catalogue: querying the table itself would fail inside a
            // PostgreSQL connection's state for a reason that is not an error here.
            let query: SQLQueryString =
                switch engine {
                case .sqlite: "SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
                case .postgres: "SELECT COUNT(*) AS n FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = 'schema_migrations'"
                }
            return (try await db.raw(query).first(decodingColumn: "n", as: Int.self) ?? 0) > 0
        }
    }
}
