import Foundation
import Logging
import PostgresKit
import PostgresNIO
import SQLKit

/// The PostgreSQL engine: PostgresNIO's `PostgresClient` pool, which runs for as long as the
/// database is open (its `run()` is the pool's life; `close()` ends it after the calls in
/// progress). Nothing is queued in this process: concurrency is PostgreSQL's, so several
/// server instances on one database behave as one.
///
/// PostgresClient alone handles an outage badly (issue 50, item 2): while PostgreSQL is away
/// a call waits for a connection until the pool's circuit breaker trips (a minute), and once
/// it is back the pool reconnects only at its next backoff (seconds later). So a watchdog
/// (`watch()`) looks at calls waiting for a connection: when one waited `leaseWait` with none
/// served meanwhile and none in use, it asks PostgreSQL directly (one connection of its own).
/// If the connection is refused at once (nothing listens), the pool is dropped (the waiting calls fail, 503) and the database is
/// down: each call then waits at most for the next probe (at most one a second, shared by the
/// calls meanwhile) and answers 503, until a probe connects and a fresh pool takes over, so
/// the first request after the outage is served. If PostgreSQL answers while the pool has served nothing for three times that wait,
/// the pool is stuck in its backoff and is replaced the same way.
final class PostgresPool: DatabaseEngine, @unchecked Sendable {
    private let location: PostgresLocation
    private let poolSize: Int
    private let logger: Logger
    /// How long a call may wait for a connection, with none served, before PostgreSQL is asked.
    private let leaseWait: Duration
    private let lock = NSLock()
    private var state = State()  // guarded by `lock`
    private var watchdog: Task<Void, Never>?

    private struct State {
        /// Set by `close()`: later calls fail with `DatabaseClosedError`, as on SQLite, so
        /// background services can tell "closed" from "not answering" and stop.
        var closed = false
        /// nil while the database is down.
        var pool: (client: PostgresClient, running: Task<Void, Never>)?
        /// When each call still waiting for a connection asked for one.
        var waiting: [Int: ContinuousClock.Instant] = [:]
        var nextTicket = 0
        /// When a call last got a connection, and how many hold one now.
        var lastServed = ContinuousClock.now
        var inUse = 0
        /// The probe in progress (true: PostgreSQL answered), and when the last one ended.
        var probing: Task<ProbeOutcome, Never>?
        var lastProbe: ContinuousClock.Instant?
    }

    init(_ location: PostgresLocation, poolSize: Int, logger: Logger, leaseWait: Duration = .seconds(2)) async throws {
        self.location = location
        self.poolSize = max(1, poolSize)
        self.logger = logger
        self.leaseWait = leaseWait
        // One connection first, so a wrong address, password or sslmode fails at start-up with
        // PostgreSQL's own reason, rather than as the pool's retries on the first request.
        do {
            try await Self.probe(location, logger: logger, connectTimeout: .seconds(10))
        } catch {
            throw SettingsError("cannot connect to PostgreSQL at \(location): \(PostgresLocation.reason(error))")
        }
        state.pool = try makePool()
        watchdog = Task { [weak self] in await self?.watch() }
    }

    /// A new pool, running.
    private func makePool() throws -> (client: PostgresClient, running: Task<Void, Never>) {
        let client = PostgresClient(configuration: try location.clientConfiguration(poolSize: poolSize), backgroundLogger: logger)
        // Started at once, so the pool counts as running before the first lease.
        let running: Task<Void, Never>
        if #available(macOS 26, iOS 26, *) {
            running = Task.immediate { await client.run() }
        } else {
            running = Task { await client.run() }
        }
        return (client, running)
    }

    /// What a probe found: PostgreSQL answered; it refused at once (nothing listens: stopped,
    /// restarting); or neither clearly (a timeout, a server too busy to take a connection), which
    /// changes nothing: an overloaded database must not lose its pools to a probe.
    private enum ProbeAnswer { case answered, refused, unclear }

    /// The probe's answer within 6 s, whatever it does: the connect timeout covers only TCP,
    /// and a server that takes the connection but never answers its startup must not hold
    /// every call waiting on the probe (an unanswered probe is `unclear`, and finishes unseen).
    private static func ask(_ location: PostgresLocation, logger: Logger) async -> ProbeAnswer {
        let answer = FirstAnswer<ProbeAnswer>()
        return await withCheckedContinuation { continuation in
            answer.continuation = continuation
            let probing = Task {
                let started = ContinuousClock.now
                do {
                    try await probe(location, logger: logger, connectTimeout: .seconds(5))
                    answer.give(.answered)
                } catch let error as PSQLError where error.code == .connectionError && started.duration(to: .now) < .seconds(1) {
                    answer.give(.refused)
                } catch {
                    answer.give(.unclear)
                }
            }
            Task {
                try? await Task.sleep(for: .seconds(6))
                answer.give(.unclear)
                probing.cancel()
            }
        }
    }

    /// One connection of its own, opened and closed: whether PostgreSQL answers.
    private static func probe(_ location: PostgresLocation, logger: Logger, connectTimeout: TimeAmount) async throws {
        var configuration = try location.connectionConfiguration()
        configuration.options.connectTimeout = connectTimeout
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
        try await connection.close()
    }

    func withConnection<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        var pool = try lock.withLock { () throws -> PostgresClient? in
            if state.closed { throw DatabaseClosedError() }
            return state.pool?.client
        }
        if pool == nil { pool = try await reconnect() }
        guard let client = pool else { throw DatabaseUnreachableError() }
        let ticket = lock.withLock {
            state.nextTicket += 1
            state.waiting[state.nextTicket] = .now
            return state.nextTicket
        }
        do {
            return try await client.withConnection { connection in
                lock.withLock {
                    state.waiting[ticket] = nil
                    state.lastServed = .now
                    state.inUse += 1
                }
                defer { lock.withLock { state.inUse -= 1 } }
                // No query logging: bound values include hashes, sealed secrets and device tokens.
                return try await body(connection.sql(queryLogLevel: nil))
            }
        } catch {
            lock.withLock { _ = state.waiting.removeValue(forKey: ticket) }
            throw error
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

    /// While down: a fresh pool once PostgreSQL answers a probe (one at a time, at most one a
    /// second, shared by the calls meanwhile), else nil.
    private func reconnect() async throws -> PostgresClient? {
        guard await startProbe().value != .down else { return nil }
        return try lock.withLock { () throws -> PostgresClient? in
            if state.closed { throw DatabaseClosedError() }
            return state.pool?.client
        }
    }

    /// What a probe found, and what became of the pool.
    private enum ProbeOutcome {
        /// PostgreSQL refused the connection (or was already down and nothing changed): no pool
        /// until a probe connects.
        case down
        /// It answered, and a fresh pool serves (the old one, if any, is shut down: its waiting
        /// calls fail, 503).
        case replaced
        /// The pool is kept: PostgreSQL answered but the waiting call has not waited long
        /// enough to call the pool stuck rather than slow, or the probe found nothing clear.
        case kept
    }

    /// The probe in progress, or a new one, made a second after the last ended at the
    /// earliest (an outage costs PostgreSQL one connection attempt a second, not one a call).
    private func startProbe() -> Task<ProbeOutcome, Never> {
        lock.withLock {
            if let probing = state.probing { return probing }
            let wait = state.lastProbe.map { .seconds(1) - $0.duration(to: .now) } ?? .zero
            let task = Task<ProbeOutcome, Never> { [location, logger, leaseWait] in
                if wait > .zero { try? await Task.sleep(for: wait) }
                let answer = await Self.ask(location, logger: logger)
                let answered = answer == .answered
                let (outcome, old, wasDown) = self.lock.withLock { () -> (ProbeOutcome, Task<Void, Never>?, Bool) in
                    defer {
                        self.state.probing = nil
                        self.state.lastProbe = .now
                    }
                    guard !self.state.closed else { return (.down, nil, false) }
                    let wasDown = self.state.pool == nil
                    if answer == .unclear { return (wasDown ? .down : .kept, nil, false) }
                    // A live pool is replaced only once it has served nothing for three times
                    // the lease wait (stuck in its backoff), not for one slow connection.
                    if answered, !wasDown,
                        (self.state.waiting.values.min()?.duration(to: .now) ?? .zero) < leaseWait * 3
                    {
                        return (.kept, nil, false)
                    }
                    let old = self.state.pool?.running
                    self.state.pool = answered ? try? self.makePool() : nil
                    if self.state.pool != nil { self.state.lastServed = .now }
                    return (self.state.pool == nil ? .down : .replaced, old, wasDown)
                }
                old?.cancel()
                switch outcome {
                case .replaced where wasDown: logger.notice("Database: PostgreSQL answers again; a new pool serves")
                case .replaced: logger.notice("Database: the pool served nothing while PostgreSQL answers; a new pool serves")
                case .down where !wasDown: logger.error("Database: PostgreSQL does not answer; requests are answered 503 until it does")
                default: break
                }
                return outcome
            }
            state.probing = task
            return task
        }
    }

    /// Every quarter second: a call has waited `leaseWait` for a connection, none was served
    /// meanwhile and none is in use (a pool busy with slow queries is not stuck, and its
    /// connections are never taken from under them): PostgreSQL is asked (`startProbe`).
    private func watch() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(250))
            let stuck = lock.withLock { () -> Bool in
                guard state.pool != nil, state.probing == nil, state.inUse == 0, let oldest = state.waiting.values.min() else { return false }
                let now = ContinuousClock.now
                return oldest.duration(to: now) > leaseWait && state.lastServed.duration(to: now) > leaseWait
            }
            if stuck { _ = await startProbe().value }
        }
    }

    func close() async {
        let running = lock.withLock { () -> Task<Void, Never>? in
            state.closed = true
            return state.pool?.running
        }
        watchdog?.cancel()
        running?.cancel()
        await running?.value
    }
}
