import ArgumentParser
import Foundation
import Logging
import RepairMinderServer

struct SeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed",
        abstract: "Load a fixtures file (idempotent) and print the ids of its rows as JSON.",
        discussion: """
            Companies are matched by name, users by email, clients by email and company: existing rows
            are updated, new ones inserted. Safe to run while a server uses the same database.
            The file format is in docs/FIXTURES.md.
            """
    )

    @Argument(help: "The fixtures JSON file.")
    var file: String

    @OptionGroup var options: SettingsOptions

    func run() async throws {
        let settings = try options.settings()
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw ValidationError("cannot read \(file): \(error.localizedDescription)")
        }
        var fixtures: FixtureFile
        do {
            fixtures = try JSONDecoder().decode(FixtureFile.self, from: data)
        } catch {
            throw ValidationError("\(file) is not a valid fixtures file: \(error)")
        }
        // Logo files are named relative to the fixtures file; the server serves copies in its data directory.
        do {
            try fixtures.importLogos(from: URL(fileURLWithPath: file).deletingLastPathComponent(), into: settings.dataDirectory)
        } catch {
            throw ValidationError("\(error)")
        }
        var logger = Logger(label: "repairminder")
        logger.logLevel = .warning
        let database = try await Database.openMigrated(settings: settings, logger: logger)
        do {
            let ids = try await FixtureLoader(database: database, bcryptCost: settings.bcryptCost).load(fixtures)
            await database.close()
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(ids), as: UTF8.self))
        } catch let error as SettingsError {
            await database.close()
            throw ValidationError(error.description)
        } catch {
            await database.close()
            throw error
        }
    }
}
