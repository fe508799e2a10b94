import ArgumentParser
import Foundation
import Logging
import RepairMinderServer

struct SeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed",
        abstract: "Load a fixtures file (idempotent) and print the ids of its rows as JSON.",
        usage: "repairminder seed <file> [--config <file>] [<setting> ...]",
        discussion: """
            Companies are matched by name, users by email, clients by email and company: existing rows \
            are updated, new ones inserted. Safe to run while a server uses the same database; creates \
            the database if there is none. A file with a key the format does not have, broken JSON \
            (its line and column are named) or a password the server's policy refuses is refused \
            before anything is written. The file format is in docs/FIXTURES.md.

            EXAMPLES:
              repairminder seed fixtures.json
              repairminder seed shops.json --data-dir /var/lib/repairminder

            \(SettingsArguments.help(for: "seed"))
            """
    )

    /// The fixtures file is taken among the settings (ArgumentParser would take a setting's
    /// value for it: `seed --data-dir D file.json`).
    @OptionGroup var settingsArguments: SettingsArguments

    func validate() throws {
        guard settingsArguments.positionals.count == 1 else {
            throw ValidationError(settingsArguments.positionals.isEmpty ? "give the fixtures file: repairminder seed <file>" : "give one fixtures file")
        }
    }

    func run() async throws {
        let file = settingsArguments.positionals[0]
        let settings = try settingsArguments.settings(for: "seed", positionals: 1)
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw CommandFailure("cannot read \(file): \(error.localizedDescription)")
        }
        // Everything is checked before anything is written: a refused file creates no
        // database and copies no logo.
        var fixtures: FixtureFile
        do {
            fixtures = try FixtureFile.read(data)
            try FixtureLoader.validate(fixtures)
        } catch {
            throw CommandFailure("\(file): \(FailureMessage.text(for: error))")
        }
        // Logo files are named relative to the fixtures file; the server serves copies in its data directory.
        do {
            try fixtures.importLogos(from: URL(fileURLWithPath: file).deletingLastPathComponent(), into: settings.dataDirectory)
        } catch {
            throw CommandFailure(FailureMessage.text(for: error))
        }
        var logger = Logger(label: "repairminder")
        logger.logLevel = .warning
        let database = try await Database.openMigrated(settings: settings, logger: logger)
        do {
            // What the file creates or changes is in the audit trail under the OS user running this.
            let ids = try await FixtureLoader(database: database, bcryptCost: settings.bcryptCost)
                .load(fixtures, actor: OperatorIdentity.current)
            await database.close()
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            sayJSON(String(decoding: try encoder.encode(ids), as: UTF8.self))
        } catch {
            await database.close()
            throw error
        }
    }
}
