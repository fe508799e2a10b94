import Foundation
import SQLKit
import TestSupport
import Testing

@testable import RepairMinderServer

/// SQLite commits survive a power loss unless the operator trades that away: every connection
/// of the server runs with `synchronous = FULL` by default (PostgreSQL's `synchronous_commit = on`).
@Suite struct SQLiteDurabilityTests {
    @Test(arguments: [(nil, 2), (SQLiteSynchronous.full, 2), (.normal, 1)])
    func everyConnectionUsesTheConfiguredSynchronousMode(mode: SQLiteSynchronous?, pragma: Int) async throws {
        var settings = TestServer.defaultSettings()
        settings.databaseURL = nil
        if let mode { settings.sqliteSynchronous = mode }
        defer { try? FileManager.default.removeItem(atPath: settings.dataDirectory) }
        let database = try await Database.open(settings: settings, logger: TestServer.quietLogger)
        // Several at once, each holding its connection until another holds one too, so the
        // pool has opened more than its first connection.
        let holding = Locked(0)
        let values = try await race(4) {
            try await database.withConnection { db in
                holding.update { $0 += 1 }
                try await waitUntil("a second connection open at once") { holding.value >= 2 }
                return try await db.raw("PRAGMA synchronous").first(decodingColumn: "synchronous", as: Int.self)
            }
        }
        await database.close()
        #expect(values == Array(repeating: pragma, count: 4))
    }
}
