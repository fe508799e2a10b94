import Foundation
import Logging
import SQLKit
import Testing

@testable import RepairMinderServer

/// The PostgreSQL server the tests may use. With `REPAIRMINDER_TEST_POSTGRES_URL` set (an admin
/// URL: `bash .ci/postgres.sh start DIR` starts a throwaway server and prints one), every
/// `TestServer` runs on a fresh database of its own there, and the PostgreSQL-only tests run;
/// without it everything runs on SQLite and those tests are skipped.
enum TestPostgres {
    static let adminURL = ProcessInfo.processInfo.environment["REPAIRMINDER_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }

    static var isAvailable: Bool { adminURL != nil }

    static let howToEnable = """
        needs PostgreSQL: run `bash .ci/postgres.sh start /tmp/rm-pg` and set REPAIRMINDER_TEST_POSTGRES_URL to the URL it prints
        """

    /// Creates an empty database and returns its URL.
    static func createDatabase() async throws -> String {
        guard let adminURL, var components = URLComponents(string: adminURL) else { throw SettingsError(howToEnable) }
        let name = "rm_test_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
        try await withAdmin { db in try await db.raw("CREATE DATABASE \(unsafeRaw: name)").run() }
        components.path = "/\(name)"
        return try #require(components.string)
    }

    /// Drops a database `createDatabase` made, cutting off connections still open to it.
    static func dropDatabase(url: String) async {
        guard let name = URLComponents(string: url)?.path.dropFirst(), name.hasPrefix("rm_test_") else { return }
        try? await withAdmin { db in try await db.raw("DROP DATABASE IF EXISTS \(unsafeRaw: String(name)) WITH (FORCE)").run() }
    }

    private static func withAdmin(_ body: @Sendable (any SQLDatabase) async throws -> Void) async throws {
        guard let adminURL else { throw SettingsError(howToEnable) }
        let admin = try await Database.open(DatabaseLocation(url: adminURL), poolSize: 1, logger: TestServer.quietLogger)
        do {
            try await admin.withConnection(body)
            await admin.close()
        } catch {
            await admin.close()
            throw error
        }
    }
}
