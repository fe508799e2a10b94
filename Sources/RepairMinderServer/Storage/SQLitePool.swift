import Foundation
import Logging
import NIOCore
import NIOPosix
import SQLKit
import SQLiteKit

/// The embedded engine: a small pool of SQLite connections on one file in WAL mode.
///
/// Several connections let reads proceed while one write is in progress, and let other
/// processes (`repairminder seed`) write to the same file while a server runs: SQLite's
/// busy timeout makes them wait for each other instead of failing.
actor SQLitePool: DatabaseEngine {
    private let path: String
    private let logger: Logger
    private var idle: [SQLiteConnection] = []
    private var all: [SQLiteConnection] = []
    private var waiters: [CheckedContinuation<SQLiteConnection, any Error>] = []
    private let maxConnections: Int
    private var opening = 0
    /// Runs SQLite's blocking calls. One thread per connection: a connection waiting for the write
    /// lock blocks its thread, and the connection holding the lock must still find one to finish.
    private let threadPool: NIOThreadPool
    private var writerActive = false
    private var writerWaiters: [CheckedContinuation<Void, Never>] = []
    private var isClosed = false
    private let synchronous: SQLiteSynchronous

    /// Creates the database file readable by its owner only (0600, whatever the umask) and
    /// narrows an existing one and its `-wal` and `-shm` to that: they hold bcrypt hashes and
    /// session rows. SQLite gives the `-wal` and `-shm` files it creates the database file's mode.
    static func restrictToOwner(_ path: String) throws {
        let files = FileManager.default, ownerOnly: [FileAttributeKey: Any] = [.posixPermissions: 0o600]
        // Created empty and private before SQLite opens it; a path that cannot be created is
        // left to SQLite's open, which says what is wrong with it.
        if !files.fileExists(atPath: path), !files.createFile(atPath: path, contents: nil, attributes: ownerOnly) { return }
        for file in [path, path + "-wal", path + "-shm"] where files.fileExists(atPath: file) {
            do {
                try files.setAttributes(ownerOnly, ofItemAtPath: file)
            } catch {
                throw SettingsError("cannot make \(file) readable by its owner only (chmod 600): \(error.localizedDescription)")
            }
        }
    }

    /// Opens (creating if needed) the SQLite database at `path`.
    init(path: String, maxConnections: Int, synchronous: SQLiteSynchronous, logger: Logger) async throws {
        self.path = path
        self.synchronous = synchronous
        self.logger = logger
        self.maxConnections = max(1, maxConnections)
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        try DataDirectory.create(directory)
        try Self.restrictToOwner(path)
        let pool = NIOThreadPool(numberOfThreads: self.maxConnections)
        pool.start()
        threadPool = pool
        // Open one connection up front so a bad path fails at start-up, not on the first request.
        let first: SQLiteConnection
        do {
            first = try await Self.open(path: path, synchronous: synchronous, threadPool: pool, logger: logger)
        } catch {
            try? await pool.shutdownGracefully()
            throw error
        }
        idle.append(first)
        all.append(first)
    }

    private static func open(
        path: String, synchronous: SQLiteSynchronous, threadPool: NIOThreadPool, logger: Logger
    ) async throws -> SQLiteConnection {
        let connection = try await SQLiteConnection.open(
            storage: .file(path: path), threadPool: threadPool, logger: logger,
            on: MultiThreadedEventLoopGroup.singleton.any())
        do {
            // WAL lets readers and a writer work at once; the busy timeout queues concurrent
            // writers (other connections, other processes) instead of failing with SQLITE_BUSY.
            _ = try await connection.query("PRAGMA busy_timeout = 10000")
            _ = try await connection.query("PRAGMA journal_mode = WAL")
            _ = try await connection.query("PRAGMA foreign_keys = ON")
            _ = try await connection.query("PRAGMA synchronous = \(synchronous.pragma)")
        } catch {
            await closeEvenIfCancelled(connection)
            throw error
        }
        return connection
    }

    /// Closes `connection` in a task of its own. Cleanup must happen even when the caller's
    /// task is cancelled (a graceful shutdown cancels the mail worker mid-query, and then a
    /// close in that task fails at once), because SQLiteNIO's deinit traps, in debug builds, on
    /// a connection left open.
    private static func closeEvenIfCancelled(_ connection: SQLiteConnection) async {
        await Task { try? await connection.close() }.value
    }

    func withConnection<T: Sendable>(
        _ body: @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        let connection = try await checkout()
        do {
            // No query logging: bound values include hashes, sealed secrets and device tokens.
            let result = try await body(connection.sql(queryLogLevel: nil))
            checkin(connection)
            return result
        } catch {
            checkin(connection)
            throw error
        }
    }

    /// A write transaction (`BEGIN IMMEDIATE`): it takes the database's one write lock at the
    /// start, so every transaction is serialised and `key` needs no lock of its own.
    /// Transactions of this process queue here, in Swift, rather than in SQLite's sleeping busy
    /// handler; other processes are still kept out by the busy timeout.
    func transaction<T: Sendable>(
        serializedOn key: String?, _ body: @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        await acquireWriter()
        defer { releaseWriter() }
        return try await withConnection { db in
            try await db.committing(begin: "BEGIN IMMEDIATE") { try await body(db) }
        }
    }

    private func acquireWriter() async {
        if !writerActive {
            writerActive = true
            return
        }
        await withCheckedContinuation { writerWaiters.append($0) }
    }

    private func releaseWriter() {
        if writerWaiters.isEmpty {
            writerActive = false
        } else {
            // Hand the slot straight to the next waiter; it stays taken.
            writerWaiters.removeFirst().resume()
        }
    }

    /// Closes every connection, then the thread pool; in a task of its own, so that a
    /// cancelled caller (a shutdown) still waits for work in flight and closes everything.
    func close() async {
        await Task { await self.closeAll() }.value
    }

    private func closeAll() async {
        isClosed = true
        for waiter in waiters { waiter.resume(throwing: DatabaseClosedError()) }
        waiters.removeAll()
        // SQLite cannot close a connection in the middle of a query, and SQLiteNIO's deinit
        // traps (in debug builds) on one left open: so work in flight ends first, for up to
        // 10 s. A connection being opened is closed by `checkout` (the pool being closed); one
        // checked out comes back to `idle`.
        var waited = 0
        while opening > 0 || idle.count < all.count, waited < 10_000 {
            try? await Task.sleep(for: .milliseconds(1))
            waited += 1
        }
        for connection in all { await Self.closeEvenIfCancelled(connection) }
        all.removeAll()
        idle.removeAll()
        try? await threadPool.shutdownGracefully()
    }

    private func checkout() async throws -> SQLiteConnection {
        if isClosed { throw DatabaseClosedError() }
        if let connection = idle.popLast() { return connection }
        if all.count + opening < maxConnections {
            // Reserve the slot before suspending: the actor is re-entered while opening.
            opening += 1
            defer { opening -= 1 }
            let connection = try await Self.open(path: path, synchronous: synchronous, threadPool: threadPool, logger: logger)
            if isClosed {
                // Closed while this one was opening: `close()` waits for it.
                await Self.closeEvenIfCancelled(connection)
                throw DatabaseClosedError()
            }
            all.append(connection)
            return connection
        }
        return try await withCheckedThrowingContinuation { waiters.append($0) }
    }

    private func checkin(_ connection: SQLiteConnection) {
        if !waiters.isEmpty {
            waiters.removeFirst().resume(returning: connection)
        } else {
            idle.append(connection)
        }
    }
}

/// How hard SQLite works to keep a commit through a power loss (`PRAGMA synchronous`).
public enum SQLiteSynchronous: String, Sendable, CaseIterable {
    /// Every commit is on disk before it is acknowledged: what PostgreSQL's
    /// `synchronous_commit = on` promises. A logout, a revoked token or a used code stays done.
    case full
    /// Commits are on disk at WAL checkpoints: faster, but a power loss (not a crash of the
    /// process) can undo the last transactions.
    case normal

    var pragma: String { rawValue.uppercased() }
}
