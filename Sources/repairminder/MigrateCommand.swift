import ArgumentParser
import Logging
import RepairMinderServer

struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate", abstract: "Apply database migrations and exit.")

    @OptionGroup var options: SettingsOptions

    func run() async throws {
        let settings = try options.settings()
        let database = try await Database.openMigrated(settings: settings, logger: Logger(label: "repairminder"))
        await database.close()
        print("Database is up to date: \(database.engine.rawValue) \(database.location)")
    }
}
