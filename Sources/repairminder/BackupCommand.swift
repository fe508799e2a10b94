import ArgumentParser
import Foundation
import Logging
import RepairMinderServer

/// `repairminder backup --to FILE`: an online copy of the SQLite database; `--verify FILE`
/// checks one as a restore would.
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the SQLite database to a new file, while the server runs; or check a backup.",
        usage: """
            repairminder backup --to <file>
              [--data-dir <data-dir>] [--database-url <database-url>]
            repairminder backup --verify <file> [--data-dir <data-dir>]
            """,
        discussion: """
            SQLite's online copy (VACUUM INTO): one consistent snapshot, taken while the server goes on \
            serving. The file is a complete database; keep it with the data directory's encryption-key \
            and signing keys (docs/operating.md), without which its sealed mail and secrets cannot be read. \
            For PostgreSQL use pg_dump.

            --verify checks a backup as restore would, replacing nothing: SQLite's integrity check, a \
            schema this version can run, and that the server's encryption key (as serve reads it) opens \
            its sealed secrets. Exit status 1 and one line saying what is wrong otherwise.

            EXAMPLES:
              repairminder backup --to /backups/repairminder-$(date +%F).sqlite
              repairminder backup --data-dir /var/lib/repairminder \\
                --to /backups/repairminder-$(date +%F).sqlite
              repairminder backup --verify /backups/repairminder-2026-11-24.sqlite
            """)

    @Option(name: .customLong("to"), help: ArgumentHelp("The backup file to create (it must not exist).", valueName: "file"))
    var destination: String?

    @Option(help: ArgumentHelp("Check this backup file as a restore would, and change nothing.", valueName: "file"))
    var verify: String?

    @OptionGroup var database: DatabaseOptions

    func validate() throws {
        guard (destination == nil) != (verify == nil) else { throw ValidationError("give either --to <file> or --verify <file>") }
    }

    func run() async throws {
        var logger = Logger(label: "repairminder")
        logger.logLevel = .warning
        if let verify {
            let keys = try database.serveSettings().existingEncryptionKeys()
            let version = try await SQLiteBackup.verify(verify, keys: keys, logger: logger)
            let newest = Migrations.newestVersion
            say(
                "\(verify) is intact: schema \(version)\(version < newest ? " (this version migrates it to \(newest) at start)" : ""); "
                    + (keys == nil ? "its sealed secrets were not checked: no encryption key here (give the server's, as serve reads it)." : "the server's encryption key opens its sealed secrets."))
            return
        }
        let path = try database.sqlitePath(for: "backup")
        let destination = destination ?? ""
        let bytes = try await SQLiteBackup.backup(database: path, to: destination, logger: logger)
        say("Backed up \(path) to \(destination) (\(ByteCountFormatter.string(fromByteCount: Int64(bytes), countStyle: .file))).")
    }
}

/// `repairminder restore --from FILE`: puts a backup in place of the SQLite database.
struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Replace the SQLite database with a backup (stop the server first).",
        usage: """
            repairminder restore --from <file>
              [--data-dir <data-dir>] [--database-url <database-url>]
            """,
        discussion: """
            Refused while a server runs on the data directory: stop it first, start it after. The backup \
            is copied and the copy checked (SQLite's integrity check, a schema no newer than this version's, \
            and that the encryption key the server will start with opens its sealed secrets: put the key \
            kept with the backup in place first), \
            then swapped in by rename; the database it replaces is kept beside it as \
            repairminder.sqlite.pre-restore-<time>, with the owner and mode the new one takes over.

            EXAMPLES:
              repairminder restore --from /backups/repairminder-2026-11-24.sqlite
              repairminder restore --data-dir /var/lib/repairminder \\
                --from /backups/repairminder-2026-11-24.sqlite
            """)

    @Option(name: .customLong("from"), help: ArgumentHelp("The backup file made by `repairminder backup`.", valueName: "file"))
    var source: String

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let path = try database.sqlitePath(for: "restore")
        // The keys `serve` will start with: a backup that none of them opens is refused before
        // it replaces anything.
        let keys = try database.serveSettings().existingEncryptionKeys()
        var logger = Logger(label: "repairminder")
        logger.logLevel = .warning
        let (version, previous) = try await SQLiteBackup.restore(from: source, to: path, keys: keys, logger: logger)
        say("Restored \(source) into \(path) (schema \(version)). Start the server: it applies any newer migrations.")
        if let previous { say("The database it replaced is kept as \(previous) (delete it once the restore is confirmed).") }
    }
}

extension DatabaseOptions {
    /// The database's settings with the encryption keys `serve` reads (its flags' environment
    /// and the config file): what a command checks sealed secrets against.
    func serveSettings() throws -> ServerSettings {
        try SettingsArguments.load(
            [("data-dir", dataDir), ("database-url", databaseUrl), ("encryption-key", nil), ("encryption-previous-key", nil)],
            configFile: config)
    }

    /// The SQLite file, or a refusal naming PostgreSQL's own tools.
    func sqlitePath(for command: String) throws -> String {
        let location: DatabaseLocation
        do {
            location = try databaseSettings().databaseLocation()
        } catch let error as SettingsError {
            throw CommandFailure(error.description)
        }
        // A sqlite:/// URL or a file path is SQLite too.
        guard case .sqlite(let path) = location else {
            throw SettingsError("\(command) is for the SQLite database; for PostgreSQL use pg_dump and pg_restore (docs/operating.md)")
        }
        return path
    }
}
