import Foundation
import TestSupport
import Testing

/// `repairminder backup` and `restore` on SQLite (issue 29, item 7): a backup taken while a
/// server runs, the database changed, the backup restored, the change gone; and the refusals.
@Suite struct BackupTests {
    static func seed(_ dataDir: String) throws {
        let file = dataDir + "-fixtures.json"
        defer { try? FileManager.default.removeItem(atPath: file) }
        try Data(
            #"""
            { "companies": [ { "name": "Acme Repairs" } ],
              "users": [ { "email": "admin@acme.test", "password": "a long enough password", "firstName": "Ada", "company": "Acme Repairs", "role": "admin" } ] }
            """#.utf8
        ).write(to: URL(fileURLWithPath: file))
        let seeded = try CommandLineTests.run(["seed", file, "--data-dir", dataDir, "--bcrypt-cost", "4"])
        try #require(seeded.status == 0, "\(seeded.error)")
    }

    @Test func aBackupTakenWhileServingRestoresTheDatabase() throws {
        let dataDir = CommandLineTests.temporaryDirectory(), backup = CommandLineTests.temporaryDirectory() + ".sqlite"
        defer {
            try? FileManager.default.removeItem(atPath: dataDir)
            try? FileManager.default.removeItem(atPath: backup)
        }
        try Self.seed(dataDir)
        // A server on the same database while the backup is taken.
        let port = try freeLoopbackPort()
        let server = Process()
        server.executableURL = CommandLineTests.binary
        server.arguments = ["serve", "--data-dir", dataDir, "--port", String(port)]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { if server.isRunning { kill(server.processIdentifier, SIGKILL) } }
        try waitUntilBlocking("serve listening", interval: .milliseconds(100)) { ClientCommandTests.Server.answers(port) }

        let made = try CommandLineTests.run(["backup", "--data-dir", dataDir, "--to", backup])
        #expect(made.status == 0, "\(made.error)")
        #expect(made.output.hasPrefix("Backed up \(dataDir)/repairminder.sqlite to \(backup) ("))
        // Password hashes and sealed secrets: readable by its owner only.
        let mode = try FileManager.default.attributesOfItem(atPath: backup)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        // A backup never overwrites a file.
        let again = try CommandLineTests.run(["backup", "--data-dir", dataDir, "--to", backup])
        #expect(again.status == 1)
        #expect(again.error == "error: \(backup) already exists: choose a new file (a backup never overwrites one)\n")
        // The same database named by a sqlite:/// URL is SQLite too.
        let byURL = try CommandLineTests.run(["backup", "--database-url", "sqlite://\(dataDir)/repairminder.sqlite", "--to", backup + ".url"])
        #expect(byURL.status == 0, "\(byURL.error)")

        // The database changes after the backup; the server stops; the backup comes back.
        let suspended = try CommandLineTests.run(["company", "suspend", "Acme Repairs", "--data-dir", dataDir])
        #expect(suspended.status == 0, "\(suspended.error)")
        #expect(try CommandLineTests.sqlite(dataDir, "SELECT status FROM companies").contains("suspended"))
        // Not while the server runs: it would go on writing to the replaced file.
        let refused = try CommandLineTests.run(["restore", "--data-dir", dataDir, "--from", backup])
        #expect(refused.status == 1)
        #expect(refused.error == "error: a server is running on \(dataDir): stop it before restoring (repairminder.lock is held)\n")
        #expect(try CommandLineTests.sqlite(dataDir, "SELECT status FROM companies").contains("suspended"))
        kill(server.processIdentifier, SIGTERM)
        server.waitUntilExit()
        // Issue 50, item 7: the backup checked as a restore would, first, changing nothing.
        let verified = try CommandLineTests.run(["backup", "--verify", backup, "--data-dir", dataDir])
        #expect(verified.status == 0, "\(verified.error)")
        #expect(verified.output.hasPrefix("\(backup) is intact: schema "), "\(verified.output)")
        let restored = try CommandLineTests.run(["restore", "--data-dir", dataDir, "--from", backup])
        #expect(restored.status == 0, "\(restored.error)")
        #expect(restored.output.contains("Restored \(backup) into \(dataDir)/repairminder.sqlite (schema "))
        // The replaced database is kept beside it, and still holds the change.
        let aside = try #require(
            try FileManager.default.contentsOfDirectory(atPath: dataDir).first { $0.hasPrefix("repairminder.sqlite.pre-restore-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") })
        #expect(restored.output.contains("kept as \(dataDir)/\(aside)"))
        #expect(try CommandLineTests.sqlite(dataDir, "SELECT status FROM companies").trimmingCharacters(in: .whitespacesAndNewlines) == "active")
        #expect(try CommandLineTests.sqlite(dataDir, "SELECT email FROM users").contains("admin@acme.test"))
        // And a server starts on it.
        let migrated = try CommandLineTests.run(["migrate", "--data-dir", dataDir])
        #expect(migrated.status == 0, "\(migrated.error)")
    }

    @Test func restoreRefusesWhatIsNotAnIntactBackupAndChangesNothing() throws {
        let dataDir = CommandLineTests.temporaryDirectory(), junk = CommandLineTests.temporaryDirectory() + ".sqlite"
        defer {
            try? FileManager.default.removeItem(atPath: dataDir)
            try? FileManager.default.removeItem(atPath: junk)
        }
        try Self.seed(dataDir)
        let before = try Data(contentsOf: URL(fileURLWithPath: dataDir + "/repairminder.sqlite"))
        try Data("not a database at all, just some text that is long enough".utf8).write(to: URL(fileURLWithPath: junk))
        let notADatabase = try CommandLineTests.run(["restore", "--data-dir", dataDir, "--from", junk])
        #expect(notADatabase.status == 1)
        #expect(notADatabase.error.hasPrefix("error: \(junk) is not a"), "\(notADatabase.error)")
        let postgres = try CommandLineTests.run(["backup", "--database-url", "postgres://u@127.0.0.1/db", "--to", junk + ".pg"])
        #expect(postgres.status == 1)
        #expect(postgres.error.contains("for PostgreSQL use pg_dump and pg_restore"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: dataDir + "/repairminder.sqlite")) == before)
        let damaged = try CommandLineTests.run(["backup", "--verify", junk, "--data-dir", dataDir])
        #expect(damaged.status == 1 && damaged.error.hasPrefix("error: \(junk) is not a"), "\(damaged.error)")
        #expect(try CommandLineTests.run(["backup", "--data-dir", dataDir]).status == 2, "--to or --verify")
        let missing = try CommandLineTests.run(["restore", "--data-dir", dataDir, "--from", junk + ".missing"])
        #expect(missing.status == 1)
        #expect(missing.error == "error: no backup at \(junk).missing\n")
    }

    /// Issue 50, item 7: before an upgrade, what it would apply is listed, and nothing applied.
    @Test func migrateStatusListsWhatAnUpgradeWouldApplyAndAppliesNothing() throws {
        let dataDir = CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        try Self.seed(dataDir)
        let status = try CommandLineTests.run(["migrate", "--status", "--data-dir", dataDir])
        #expect(status.status == 0, "\(status.error)")
        #expect(status.output.contains("Nothing pending"), "\(status.output)")
        // As if this version had one more migration than the database.
        let last = try CommandLineTests.sqlite(dataDir, "SELECT MAX(version) || '  ' || name FROM schema_migrations").trimmingCharacters(in: .newlines)
        _ = try CommandLineTests.sqlite(dataDir, "DELETE FROM schema_migrations WHERE version = (SELECT MAX(version) FROM schema_migrations)")
        let before = try CommandLineTests.sqlite(dataDir, "SELECT COUNT(*) FROM schema_migrations")
        let pending = try CommandLineTests.run(["migrate", "--status", "--data-dir", dataDir])
        #expect(pending.status == 0, "\(pending.error)")
        #expect(pending.output.hasSuffix("Pending, applied by `repairminder migrate` or the next `serve` (docs/operating.md, \"Upgrades and rollbacks\"):\n  \(last)\n"), "\(pending.output)")
        #expect(try CommandLineTests.sqlite(dataDir, "SELECT COUNT(*) FROM schema_migrations") == before, "nothing applied")
        // No database there: refused, and none is made.
        let nowhere = try CommandLineTests.run(["migrate", "--status", "--data-dir", dataDir + "-none"])
        #expect(nowhere.status == 1 && !FileManager.default.fileExists(atPath: dataDir + "-none"), "\(nowhere.error)")
    }
}
