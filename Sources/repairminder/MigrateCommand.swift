import ArgumentParser
import Logging
import RepairMinderServer

struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate", abstract: "Apply database migrations and exit (--status: list them, apply nothing).",
        usage: "repairminder migrate [--status] [--config <file>] [<setting> ...]",
        discussion: """
            Creates the database if there is none. `serve` migrates at start too; run this first \
            to upgrade several instances before starting the new version (docs/operating.md). \
            With --status it changes nothing: it lists the migrations applied and those this \
            version would apply, before an upgrade.

            EXAMPLES:
              repairminder migrate --data-dir /var/lib/repairminder
              repairminder migrate --status --data-dir /var/lib/repairminder
              REPAIRMINDER_DATABASE_URL=postgres://rm@db/rm repairminder migrate

            \(SettingsArguments.help(for: "migrate"))
            """)

    @Flag(help: "List the migrations applied and pending; apply nothing.")
    var status = false

    @OptionGroup var settingsArguments: SettingsArguments

    func run() async throws {
        let settings = try settingsArguments.settings(for: "migrate")
        if status {
            try await showStatus(settings)
            return
        }
        let database = try await Database.openMigrated(settings: settings, logger: Logger(label: "repairminder"))
        await database.close()
        say("Database is up to date: \(database.engine.rawValue) \(database.location)")
    }

    /// What is applied and what this version would apply, from the database as it is (never
    /// created, never migrated).
    private func showStatus(_ settings: ServerSettings) async throws {
        var logger = Logger(label: "repairminder")
        logger.logLevel = .warning
        let database = try await Database.openExisting(settings: settings, logger: logger, migrating: false)
        let status: (applied: [(Int, String)], pending: [(Int, String)], unknown: [Int])
        do {
            status = try await Migrations.status(of: database)
            await database.close()
        } catch {
            await database.close()
            throw error
        }
        say("\(database.engine.rawValue) \(database.location): \(status.applied.count) migrations applied, the last \(status.applied.last.map { "\($0.0) (\($0.1))" } ?? "none").")
        if !status.unknown.isEmpty {
            say("Applied by a newer version, unknown to this one: \(status.unknown.map(String.init).joined(separator: ", ")). Run that version (or newer).")
        }
        guard !status.pending.isEmpty else {
            say("Nothing pending: the schema is at \(Migrations.newestVersion), this version's newest.")
            return
        }
        say("Pending, applied by `repairminder migrate` or the next `serve` (docs/operating.md, \"Upgrades and rollbacks\"):")
        for (version, name) in status.pending { say("  \(version)  \(name)") }
    }
}
