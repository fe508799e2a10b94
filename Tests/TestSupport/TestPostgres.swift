import Foundation
import Logging
import RepairMinderServer
import SQLKit

/// The PostgreSQL server the tests may use. With `REPAIRMINDER_TEST_POSTGRES_URL` set (an admin
/// URL: `bash .ci/postgres.sh start DIR` starts a throwaway server and prints one), every
/// `ServerHarness` (the server tests' `TestServer`, the SDK tests' `LiveServer`) runs on a
/// fresh database of its own there, and the PostgreSQL-only tests run;
/// without it everything runs on SQLite and those tests are skipped.
public enum TestPostgres {
    public static let adminURL = ProcessInfo.processInfo.environment["REPAIRMINDER_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }

    public static var isAvailable: Bool { adminURL != nil }

    public static let howToEnable = """
        needs PostgreSQL: run `bash .ci/postgres.sh start /tmp/rm-pg` and set REPAIRMINDER_TEST_POSTGRES_URL to the URL it prints
        """

    /// Runs `body` (create a database, migrate it, load fixtures) with at most a few others at
    /// once: hundreds of tests starting together would otherwise open so many connections at
    /// once that PostgreSQL takes longer than the client's 10 s to accept the next one.
    ///
    /// The line is long: Swift Testing starts every test at once, so on two cores the last in
    /// line waits about three minutes, the whole run's preparations. A test whose outside party
    /// keeps time from the test's start (a browser check under a time limit) goes `firstInLine`.
    public static func preparing<T: Sendable>(firstInLine: Bool = false, _ body: () async throws -> T) async throws -> T {
        await preparations.enter(firstInLine: firstInLine)
        do {
            let result = try await body()
            await preparations.leave()
            return result
        } catch {
            await preparations.leave()
            throw error
        }
    }

    private static let preparations = Gate(limit: 6)

    /// At most `limit` holders at once; the others wait in line.
    private actor Gate {
        let limit: Int
        private var holders = 0
        private var waiting: [CheckedContinuation<Void, Never>] = []

        init(limit: Int) { self.limit = limit }

        func enter(firstInLine: Bool) async {
            if holders < limit {
                holders += 1
                return
            }
            await withCheckedContinuation { waiting.insert($0, at: firstInLine ? 0 : waiting.endIndex) }
        }

        /// Hands the place to the next in line, if any (it keeps the count as it was).
        func leave() {
            if waiting.isEmpty { holders -= 1 } else { waiting.removeFirst().resume() }
        }
    }

    /// Creates an empty database and returns its URL.
    public static func createDatabase() async throws -> String {
        guard let adminURL, var components = URLComponents(string: adminURL) else { throw SettingsError(howToEnable) }
        let name = "rm_test_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
        try await withAdmin { db in try await db.raw("CREATE DATABASE \(unsafeRaw: name)").run() }
        components.path = "/\(name)"
        guard let url = components.string else { throw SettingsError("cannot build a URL from \(adminURL)") }
        return url
    }

    /// Drops a database `createDatabase` made, cutting off connections still open to it.
    public static func dropDatabase(url: String) async {
        guard let name = URLComponents(string: url)?.path.dropFirst(), name.hasPrefix("rm_test_") else { return }
        try? await withAdmin { db in try await db.raw("DROP DATABASE IF EXISTS \(unsafeRaw: String(name)) WITH (FORCE)").run() }
    }

    /// How many sessions are connected to the database `url` names, once none is (waiting up
    /// to 2 s: a closed connection takes a moment to leave `pg_stat_activity`).
    public static func connectionCount(to url: String) async throws -> Int {
        guard let name = URLComponents(string: url)?.path.dropFirst().description else { return 0 }
        var count = 0
        // What is left at the deadline is the answer (the caller checks it), not an error.
        try? await waitUntil("no connections to \(name)", timeout: .seconds(2), interval: .milliseconds(100)) {
            count = try await withAdmin { db in
                try await db.raw("SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = \(bind: name)")
                    .first(decodingColumn: "n", as: Int.self) ?? 0
            }
            return count == 0
        }
        return count
    }

    private static func withAdmin<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        guard let adminURL else { throw SettingsError(howToEnable) }
        var quiet = Logger(label: "test-postgres")
        quiet.logLevel = .critical
        let admin = try await Database.open(DatabaseLocation(url: adminURL), poolSize: 1, logger: quiet)
        do {
            let result = try await admin.withConnection(body)
            await admin.close()
            return result
        } catch {
            await admin.close()
            throw error
        }
    }
}
