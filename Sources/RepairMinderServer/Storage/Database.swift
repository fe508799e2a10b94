import Foundation
import Logging
import NIOCore
import NIOPosix
import SQLKit

/// The server's database: SQLite (embedded, the default) or PostgreSQL (several server
/// instances on one database). Stores write one SQL for both through SQLKit; the engines agree
/// on everything the stores use (`RETURNING`, `ON CONFLICT ... DO UPDATE`, times as seconds in
/// double-precision columns, booleans as 0/1 integers, bound parameters). Where they differ is
/// this seam: how a connection is pooled, and how a transaction keeps concurrent writers apart;
/// `engine` lets a hot path use what only PostgreSQL has (`RefreshTokenRotation`'s one-statement
/// rotation with data-modifying CTEs), beside the common SQL that stays the reference.
public final class Database: Sendable {
    /// Which engine is behind the database.
    public enum Engine: String, Sendable {
        case sqlite
        case postgres
    }

    public let engine: Engine
    /// Where the data lives, for messages: a file path, or `host:port/database` (no password).
    public let location: String
    private let pool: any DatabaseEngine
    private let metrics: ServerMetrics?

    private init(engine: Engine, location: String, pool: any DatabaseEngine, metrics: ServerMetrics?) {
        self.engine = engine
        self.location = location
        self.pool = pool
        self.metrics = metrics
    }

    /// Opens the database at `location` (connects, or creates the SQLite file), without migrating
    /// it. With `metrics`, every wait for a free connection is recorded.
    public static func open(
        _ location: DatabaseLocation, poolSize: Int, sqliteSynchronous: SQLiteSynchronous = .full, logger: Logger,
        metrics: ServerMetrics? = nil
    ) async throws -> Database {
        switch location {
        case .sqlite(let path):
            let pool = try await SQLitePool(path: path, maxConnections: poolSize, synchronous: sqliteSynchronous, logger: logger)
            return Database(engine: .sqlite, location: path, pool: pool, metrics: metrics)
        case .postgres(let configuration):
            let pool = try await PostgresPool(configuration, poolSize: poolSize, logger: logger)
            return Database(engine: .postgres, location: configuration.description, pool: pool, metrics: metrics)
        }
    }

    /// Runs `body` with a connection of its own (statements of other tasks cannot interleave).
    public func withConnection<T: Sendable>(
        _ body: @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        let requested = ContinuousClock.now
        return try await pool.withConnection { db in
            recordWait(since: requested)
            return try await body(db)
        }
    }

    /// Runs `body` in one transaction: committed if it returns, rolled back if it throws.
    ///
    /// Transactions that read before they write and must not interleave with each other name
    /// a `key` (an email, a user id): transactions with the same key run one after another on
    /// every server instance. SQLite serialises every write transaction anyway; PostgreSQL takes
    /// a transaction-scoped advisory lock on the key.
    public func transaction<T: Sendable>(
        serializedOn key: String? = nil, _ body: @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        let requested = ContinuousClock.now
        return try await pool.transaction(serializedOn: key) { db in
            recordWait(since: requested)
            return try await body(db)
        }
    }

    /// With metrics on, how long a call waited for its connection.
    private func recordWait(since requested: ContinuousClock.Instant) {
        metrics?.poolWaited(ContinuousClock.now - requested)
    }

    /// Closes every connection once the calls in progress are done; later calls fail.
    public func close() async {
        await pool.close()
    }
}

/// What each engine provides to `Database`.
protocol DatabaseEngine: Sendable {
    func withConnection<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T
    func transaction<T: Sendable>(
        serializedOn key: String?, _ body: @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T
    func close() async
}

extension SQLDatabase {
    /// Runs `body` between `begin` and `COMMIT`, or `ROLLBACK` if it throws.
    func committing<T>(begin: SQLQueryString, _ body: () async throws -> T) async throws -> T {
        try await raw(begin).run()
        do {
            let result = try await body()
            try await raw("COMMIT").run()
            return result
        } catch {
            try? await raw("ROLLBACK").run()
            throw error
        }
    }
}

/// The database was closed (the server is shutting down).
public struct DatabaseClosedError: Error {}

extension Database {
    /// Whether the database answers a trivial query within `timeout`. The answer never waits
    /// longer: a query that hangs is left to finish (or fail) in the background.
    public func isAnswering(timeout: Duration = .seconds(2)) async -> Bool {
        let answer = FirstAnswer<Bool>()
        return await withCheckedContinuation { continuation in
            answer.continuation = continuation
            Task {
                // An event loop's timer, not a sleeping task: a cancelled `Task.sleep` keeps its
                // memory until the time it would have woken, which at thousands of checks a
                // second held tens of MiB. Started here, when the check runs: the budget is the
                // database's, not the time this task waited for a thread on a busy machine.
                let timer = MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: TimeAmount(timeout)) {
                    answer.give(false)
                }
                answer.give((try? await self.withConnection { db in try await db.raw("SELECT 1 AS ok").first() }) != nil)
                timer.cancel()
            }
        }
    }
}

/// Resumes a continuation with the first answer given; later ones are dropped: a wait with a
/// deadline that never outlasts it, whatever the awaited work does.
final class FirstAnswer<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var pending: CheckedContinuation<Value, Never>?

    var continuation: CheckedContinuation<Value, Never>? {
        get { lock.withLock { pending } }
        set { lock.withLock { pending = newValue } }
    }

    func give(_ value: Value) {
        let waiting: CheckedContinuation<Value, Never>? = lock.withLock {
            defer { pending = nil }
            return pending
        }
        waiting?.resume(returning: value)
    }
}
