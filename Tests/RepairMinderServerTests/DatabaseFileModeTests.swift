import Foundation
import Testing

@testable import RepairMinderServer

/// Issue 25, item 8: the SQLite database and its `-wal` and `-shm` hold bcrypt hashes and
/// session rows; they are the owner's alone (0600) whatever the umask, and an existing file
/// made readable by others is narrowed when the server opens it.
@Suite struct DatabaseFileModeTests {
    static func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) & 0o777
    }

    @Test func theDatabaseAndItsCompanionsAreTheOwnersAlone() async throws {
        var settings = TestServer.defaultSettings()
        let database = URL(fileURLWithPath: settings.dataDirectory).appendingPathComponent("repairminder.sqlite").path
        defer { try? FileManager.default.removeItem(atPath: settings.dataDirectory) }
        settings.databaseURL = nil
        // The umask is the process's (022 here): without the fix, SQLite creates the files 0644.
        for _ in 0..<2 {
            let opened = try await Database.openMigrated(settings: settings, logger: TestServer.quietLogger)
            try await opened.withConnection { try await $0.raw("CREATE TABLE IF NOT EXISTS probe (x INTEGER)").run() }
            try await opened.withConnection { try await $0.raw("INSERT INTO probe VALUES (1)").run() }
            for path in [database, database + "-wal", database + "-shm"] where FileManager.default.fileExists(atPath: path) {
                #expect(try Self.mode(path) == 0o600, "\(path)")
            }
            #expect(FileManager.default.fileExists(atPath: database + "-wal"), "WAL mode: the companion exists to check")
            await opened.close()
            // Made readable by others meanwhile (a backup restored, a chmod): narrowed at the next open.
            for path in [database, database + "-wal", database + "-shm"] where FileManager.default.fileExists(atPath: path) {
                _ = chmod(path, 0o644)
            }
        }
        #expect(try Self.mode(database) == 0o644, "the loop's last chmod, undone by the next open only")
    }
}
