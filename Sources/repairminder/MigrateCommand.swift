import ArgumentParser
import Logging
import RepairMinderServer

struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate", abstract: "Apply database migrations and exit.",
        usage: "repairminder migrate [--config <file>] [<setting> ...]",
        discussion: """
            Creates the database if there is none. `serve` migrates at start too; run this first \
            to upgrade several instances before starting the new version (docs/operating.md).

            EXAMPLES:
              repairminder migrate --data-dir /var/lib/repairminder
              REPAIRMINDER_DATABASE_URL=postgres://rm@db/rm repairminder migrate

            \(SettingsArguments.help(for: "migrate"))
            """)

    @OptionGroup var settingsArguments: SettingsArguments

    func run() async throws {
        let settings = try settingsArguments.settings(for: "migrate")
        let database = try await Database.openMigrated(settings: settings, logger: Logger(label: "repairminder"))
        await database.close()
        say("Database is up to date: \(database.engine.rawValue) \(database.location)")
    }
}
