import Foundation
import Logging
import PostgresKit
import PostgresNIO
import SQLKit

/// The PostgreSQL engine: PostgresNIO's `PostgresClient` pool, which runs for as long as the
/// database is open (its `run()` is the pool's life; `close()` ends it after the calls in
/// progress). Nothing is queued in this process: concurrency is PostgreSQL's, so several
/// server instances on one database behave as one.
final class PostgresPool: DatabaseEngine, @unchecked Sendable {
    private let client: PostgresClient
    private let running: Task<Void, Never>
    /// Set by `close()`: later calls fail with `DatabaseClosedError`, as on SQLite, so
    /// background services can tell "closed" from "not answering" and stop.
    private let lock = NSLock()
    private var closed = false  // guarded by `lock`

    init(_ location: PostgresLocation, poolSize: Int, logger: Logger) async throws {
        // One connection first, so a wrong address, password or sslmode fails at start-up with
        // PostgreSQL's own reason, rather than as the pool's retries on the first request.
        do {
            let probe = try await PostgresConnection.connect(
                configuration: try location.connectionConfiguration(), id: 0, logger: logger)
            try await probe.close()
        } catch {
            throw SettingsError("cannot connect to PostgreSQL at \(location): \(PostgresLocation.reason(error))")
        }
        let client = PostgresClient(configuration: try location.clientConfiguration(poolSize: max(1, poolSize)), backgroundLogger: logger)
        self.client = client
        // Started at once, so the pool counts as running before the first lease.
        if #available(macOS 26, iOS 26, *) {
            running = Task.immediate { await client.run() }
        } else {
            running = Task { await client.run() }
        }
    }

    func withConnection<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        if lock.withLock({ closed }) { throw DatabaseClosedError() }
        return try await client.withConnection { connection in
            // No query logging: bound values include hashes, sealed secrets and device tokens.
            try await body(connection.sql(queryLogLevel: nil))
        }
    }

    /// `BEGIN` at PostgreSQL's default isolation (read committed), then, with a key, a
    /// transaction-scoped advisory lock on it: held until `COMMIT`/`ROLLBACK`, on every instance.
    func transaction<T: Sendable>(
        serializedOn key: String?, _ body: @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        try await withConnection { db in
            try await db.committing(begin: "BEGIN") {
                if let key {
                    try await db.raw("SELECT pg_advisory_xact_lock(hashtextextended(\(bind: key), 0))").run()
                }
                return try await body(db)
            }
        }
    }

    func close() async {
        lock.withLock { closed = true }
        running.cancel()
        await running.value
    }
}
