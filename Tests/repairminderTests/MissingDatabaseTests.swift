import Foundation
import TestSupport
import Testing

/// Issue 29 item 4: an operator command run where there is no database says so, in one line
/// and with status 1, and creates nothing: before, `company list` answered "No shops yet."
/// from an empty database it had just made.
@Suite struct MissingDatabaseTests {
    /// The commands that only read or administer an existing database.
    static let readers: [[String]] = [
        ["company", "list"], ["company", "approve", "Acme Repairs"], ["company", "suspend", "Acme Repairs"],
        ["company", "activate", "Acme Repairs"], ["audit"], ["audit", "--email", "admin@acme.test", "--json"],
        ["outbox", "--status"],
    ]

    /// The one line printed for a runtime failure, and that no usage text came with it.
    static func expectOneErrorLine(_ result: (status: Int32, output: String, error: String), containing parts: [String]) {
        #expect(result.status == 1, "\(result.error)")
        #expect(result.output.isEmpty, "\(result.output)")
        let lines = result.error.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && lines[1].isEmpty, "not one line: \(result.error)")
        #expect(result.error.hasPrefix("error: "), "\(result.error)")
        #expect(!result.error.contains("Usage:") && !result.error.contains("--help"), "\(result.error)")
        for part in parts { #expect(result.error.contains(part), "\(part) missing from \(result.error)") }
    }

    @Test(arguments: readers) func aMissingDataDirectoryIsRefusedAndNotCreated(command: [String]) throws {
        let dataDir = CommandLineTests.temporaryDirectory()
        let result = try CommandLineTests.run(command + ["--data-dir", dataDir])
        Self.expectOneErrorLine(
            result, containing: ["no database at \(dataDir)/repairminder.sqlite", "does not exist", "repairminder migrate", "--data-dir"])
        #expect(!FileManager.default.fileExists(atPath: dataDir))
    }

    @Test(arguments: readers) func aDataDirectoryWithoutADatabaseGetsNone(command: [String]) throws {
        let dataDir = CommandLineTests.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dataDir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let result = try CommandLineTests.run(command + ["--data-dir", dataDir])
        Self.expectOneErrorLine(result, containing: ["no database at \(dataDir)/repairminder.sqlite", "repairminder migrate"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: dataDir).isEmpty)
    }

    @Test func aDatabaseURLToNoFileIsRefused() throws {
        let directory = CommandLineTests.temporaryDirectory()
        let result = try CommandLineTests.run(["company", "list", "--database-url", "sqlite://\(directory)/shops.sqlite"])
        Self.expectOneErrorLine(result, containing: ["no database at \(directory)/shops.sqlite", "--database-url"])
        #expect(!FileManager.default.fileExists(atPath: directory))
    }

    /// A file that is there but is not a Repair Minder database (never migrated) is refused too.
    @Test func aSQLiteFileWithoutTheSchemaIsRefused() throws {
        let dataDir = CommandLineTests.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dataDir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let file = dataDir + "/repairminder.sqlite"
        #expect(FileManager.default.createFile(atPath: file, contents: nil))
        let result = try CommandLineTests.run(["company", "list", "--data-dir", dataDir])
        Self.expectOneErrorLine(result, containing: ["\(file) holds no Repair Minder database (no schema_migrations table)", "repairminder migrate"])
        #expect(try CommandLineTests.sqlite(dataDir, "SELECT COUNT(*) FROM sqlite_master").trimmingCharacters(in: .whitespacesAndNewlines) == "0")
    }

    /// `outbox` (the development mail file) with no data directory: the wrong directory, said
    /// so; with one but no mail yet, it still says that.
    @Test func theOutboxFileNeedsTheDataDirectory() throws {
        let dataDir = CommandLineTests.temporaryDirectory()
        let missing = try CommandLineTests.run(["outbox", "--data-dir", dataDir])
        Self.expectOneErrorLine(missing, containing: ["no data directory at \(dataDir)", "--data-dir"])
        #expect(!FileManager.default.fileExists(atPath: dataDir))
        try FileManager.default.createDirectory(atPath: dataDir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let empty = try CommandLineTests.run(["outbox", "--data-dir", dataDir])
        #expect(empty.status == 0)
        #expect(empty.output.contains("No mail yet"))
    }

    /// The commands that create a database still do.
    @Test func migrateCreatesItAndThenTheReadersWork() throws {
        let dataDir = CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        #expect(try CommandLineTests.run(["migrate", "--data-dir", dataDir]).status == 0)
        let list = try CommandLineTests.run(["company", "list", "--data-dir", dataDir])
        #expect(list.status == 0, "\(list.error)")
        #expect(list.output == "No shops yet.\n")
        let audit = try CommandLineTests.run(["audit", "--data-dir", dataDir])
        #expect(audit.output == "No events.\n", "\(audit.error)")
    }

    /// Usage errors keep their usage text and status 2.
    @Test func usageErrorsStillShowTheUsage() throws {
        let missingArgument = try CommandLineTests.run(["company", "approve"])
        #expect(missingArgument.status == 2)
        #expect(missingArgument.error.contains("Usage:"), "\(missingArgument.error)")
        let badSince = try CommandLineTests.run(["audit", "--since", "soon"])
        #expect(badSince.status == 2)
        #expect(badSince.error.contains("Usage:"), "\(badSince.error)")
    }

    /// On PostgreSQL a database that exists but was never migrated is refused the same way;
    /// once migrated, the operator commands work on it: a name in another case, the audited
    /// change, the queue's totals.
    @Test(.enabled(if: TestPostgres.isAvailable, Comment(rawValue: TestPostgres.howToEnable)))
    func aPostgreSQLDatabaseWithoutTheSchemaIsRefused() async throws {
        let url = try await TestPostgres.createDatabase()
        let dataDir = CommandLineTests.temporaryDirectory()
        let file = dataDir + "-shops.json"
        defer {
            try? FileManager.default.removeItem(atPath: dataDir)
            try? FileManager.default.removeItem(atPath: file)
        }
        let database = ["--database-url", url, "--data-dir", dataDir]
        let refused = try CommandLineTests.run(["company", "list"] + database)
        let migrated = try CommandLineTests.run(["migrate"] + database)
        try Data(#"{ "companies": [ { "name": "Fixit Phones", "status": "pending_approval" } ] }"#.utf8).write(to: URL(fileURLWithPath: file))
        let seeded = try CommandLineTests.run(["seed", file] + database)
        let approved = try CommandLineTests.run(["company", "approve", "FIXIT phones"] + database)
        let audit = try CommandLineTests.run(["audit"] + database)
        let queue = try CommandLineTests.run(["outbox", "--status"] + database)
        await TestPostgres.dropDatabase(url: url)

        Self.expectOneErrorLine(refused, containing: ["holds no Repair Minder database (no schema_migrations table)", "repairminder migrate"])
        #expect(migrated.status == 0 && seeded.status == 0, "\(migrated.error) \(seeded.error)")
        #expect(approved.output == "Fixit Phones: pending_approval → active\n", "\(approved.error)")
        #expect(audit.output.contains("  shop \"Fixit Phones\"  company_approved  by \(CompanyAdministrationCommandTests.osUser)\n"), "\(audit.output)")
        #expect(queue.status == 0, "\(queue.error)")
        #expect(queue.output.contains("is empty"), "\(queue.output)")
    }
}
