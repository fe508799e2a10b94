import Logging
import PostgresKit
import PostgresNIO
import SQLKit

/// The PostgreSQL engine: PostgresNIO's `PostgresClient` pool, which runs for as long as the
/// database is open (its `run()` is the pool's life; `close()` ends it after the calls in
/// progress). Nothing is queued in this process: concurrency is PostgreSQL's, so several
/// server instances on one database behave as one.
final class PostgresPool: DatabaseEngine {
    private let client: PostgresClient
    private let running: Task<Void, Never>

    init(_ location: PostgresLocation, poolSize: Int, logger: Logger) async throws {
        let client = PostgresClient(configuration: try location.clientConfiguration(poolSize: max(1, poolSize)), backgroundLogger: logger)
        self.client = client
        running = Task { await client.run() }
        // Fail at start-up, with the address, rather than on the first request.
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await client.withConnection { _ = try await $0.query("SELECT 1", logger: logger) } }
                group.addTask {
                    try await Task.sleep(for: .seconds(10))
                    throw SettingsError("no answer within 10 seconds")
                }
                try await group.next()
                group.cancelAll()
            }
        } catch {
            running.cancel()
            await running.value
            throw SettingsError("cannot reach PostgreSQL at \(location): \(String(reflecting: error))")
        }
    }

    func withConnection<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await client.withConnection { connection in
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
            try await db.raw("BEGIN").run()
            do {
                if let key {
                    try await db.raw("SELECT pg_advisory_xact_lock(hashtextextended(\(bind: key), 0))").run()
                }
                let result = try await body(db)
                try await db.raw("COMMIT").run()
                return result
            } catch {
                try? await db.raw("ROLLBACK").run()
                throw error
            }
        }
    }

    func close() async {
        running.cancel()
        await running.value
    }
}
