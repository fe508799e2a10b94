import Foundation
import TestSupport
import Testing

@testable import RepairMinderServer

/// SIGTERM to `repairminder serve`: requests in flight are answered, the database connections
/// are closed, and the process exits 0. On SQLite, and on PostgreSQL when the tests have one.
@Suite(.serialized) struct GracefulShutdownTests {
    typealias Instance = InstanceCrashTests.Instance
    typealias HTTP = InstanceCrashTests.HTTP

    /// Logins of unknown emails at bcrypt cost 16 (about four seconds of hashing each here), then
    /// SIGTERM once the server is hashing them (its CPU time has grown by a second, a quarter of
    /// one hash): each must still get its answer. (A request the server has not read before
    /// SIGTERM is rightly refused, so the signal waits for the hashing, not for a fixed time.)
    static func sigtermFinishesRequestsInFlight(databaseURL: String?) async throws {
        let dataDir = CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let server = try Instance(databaseURL: databaseURL, dataDir: dataDir, arguments: ["--bcrypt-cost", "16"])
        defer { if server.process.isRunning { server.kill() } }
        try await server.waitUntilHealthy()
        let idle = Self.cpuSeconds(server.process.processIdentifier)
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<3 {
                group.addTask {
                    try await HTTP.send(
                        "POST", server.base + "/api/auth/login", json: ["email": "nobody\(index)@acme.test", "password": "wrong password"]
                    ).status
                }
            }
            if let idle {
                try await waitUntil("the server hashing the logins", interval: .milliseconds(50)) {
                    (Self.cpuSeconds(server.process.processIdentifier) ?? .infinity) > idle + 1
                }
            } else {
                // No CPU time to read on this system (it comes from /proc): the old fixed wait.
                try await Task.sleep(for: .seconds(2))
            }
            #expect(server.process.isRunning)
            server.process.terminate()
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses == [401, 401, 401])
        server.process.waitUntilExit()
        #expect(server.process.terminationReason == .exit)
        #expect(server.process.terminationStatus == 0)
        await #expect(throws: (any Error).self) { try await HTTP.send("GET", server.base + "/api/health") }
    }

    /// The CPU seconds (user and system) process `pid` has used so far; nil where /proc does
    /// not tell (not Linux).
    static func cpuSeconds(_ pid: Int32) -> Double? {
        #if os(Linux)
        // Fields after the parenthesised command name: state is the first, utime the 12th, stime the 13th.
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let name = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: name)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
        #else
        return nil
        #endif
    }

    @Test func onSQLite() async throws {
        try await Self.sigtermFinishesRequestsInFlight(databaseURL: nil)
    }

    @Test(.enabled(if: TestPostgres.isAvailable, Comment(rawValue: TestPostgres.howToEnable)))
    func onPostgreSQLAndItsConnectionsAreClosed() async throws {
        let databaseURL = try await TestPostgres.createDatabase()
        try await Self.sigtermFinishesRequestsInFlight(databaseURL: databaseURL)
        // Nothing is left connected to the database (no session held open past the exit).
        #expect(try await TestPostgres.connectionCount(to: databaseURL) == 0)
        await TestPostgres.dropDatabase(url: databaseURL)
    }

    /// The database gone (dropped, unreachable): SIGTERM still ends the server, cleanly — the
    /// mail worker's wait for a connection is cancelled rather than left to time out. (How
    /// promptly is a matter for a benchmark; the deadline here only catches a hang.)
    @Test(.enabled(if: TestPostgres.isAvailable, Comment(rawValue: TestPostgres.howToEnable)))
    func sigtermIsPromptWhenTheDatabaseIsGone() async throws {
        let databaseURL = try await TestPostgres.createDatabase()
        let dataDir = CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let server = try Instance(databaseURL: databaseURL, dataDir: dataDir)
        defer { if server.process.isRunning { server.kill() } }
        try await server.waitUntilHealthy()
        await TestPostgres.dropDatabase(url: databaseURL)
        // The server has found the database gone: its health check, which asks it, fails.
        try await waitUntil("the health check to find the database gone") {
            (try? await HTTP.send("GET", server.base + "/api/health"))?.status == 503
        }
        server.process.terminate()
        try await waitUntil("the server to exit after SIGTERM") { !server.process.isRunning }
        #expect(server.process.terminationReason == .exit)
    }
}
