import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import RepairMinderServer

/// Issue 50, item 2: PostgreSQL stops under load and starts again. Meanwhile every request is
/// answered 503 `SERVICE_UNAVAILABLE` with `Retry-After` (docs/API.md §1), never 500 and never
/// held for the pool's minute; once it is back, the first request is served (`PostgresPool`).
/// The server gets a PostgreSQL of its own (`.ci/postgres.sh`), so the other tests' keeps running.
@Suite struct DatabaseOutageTests {
    /// Runs `.ci/postgres.sh action directory` and waits for it to exit, on a thread of its
    /// own, not the concurrency pool the server under test answers from. Spawned and reaped
    /// here (posix_spawn, waitpid), not by Foundation's `Process`, which here left the script a
    /// zombie it never noticed; output goes to /dev/null, as a pipe would be held open by the
    /// PostgreSQL the script starts.
    static func postgres(_ action: String, _ directory: String) async throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".ci/postgres.sh").path
        let status: Int32 = await withCheckedContinuation { done in
            Thread.detachNewThread {
                var actions = posix_spawn_file_actions_t()
                posix_spawn_file_actions_init(&actions)
                defer { posix_spawn_file_actions_destroy(&actions) }
                posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
                posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
                let words: [String] = ["/bin/bash", script, action, directory]
                let arguments: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
                defer { arguments.forEach { free($0) } }
                var pid: pid_t = 0
                guard posix_spawn(&pid, "/bin/bash", &actions, nil, arguments, environ) == 0 else { return done.resume(returning: -1) }
                var status: Int32 = 0
                while waitpid(pid, &status, 0) == -1, errno == EINTR {}
                done.resume(returning: status)
            }
        }
        guard status == 0 else { throw SettingsError("postgres.sh \(action) \(directory) failed (wait status \(status))") }
    }

    @Test(.enabled(if: TestPostgres.isAvailable, Comment(rawValue: TestPostgres.howToEnable)), .timeLimit(.minutes(5)))
    func whileTheDatabaseIsDownRequestsAreToldToRetryAndTheFirstOneAfterIsServed() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rm-outage-\(UUID().uuidString)").path
        try await Self.postgres("start", directory)
        let port = try String(contentsOfFile: directory + "/port", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let url = "postgres://postgres@127.0.0.1:\(port)/postgres?sslmode=disable"
        let shared = Locked<String?>(nil)
        defer {
            let given = shared.value
            Task.detached {
                try? await Self.postgres("stop", directory)
                if let given { await TestPostgres.dropDatabase(url: given) }
            }
        }
        // First in line: the other tests' databases are prepared one at a time, and this one's
        // wait there would eat the time limit, which is for a hang.
        let server = try await TestServer(firstInLine: true) { settings in
            shared.value = settings.databaseURL
            settings.databaseURL = url
        }
        try await server.run(.live) { client in
            let signedIn = try await client.signIn()
            let token = try #require(signedIn.string("token")), refresh = try #require(signedIn.string("refreshToken"))
            // Load: four callers reading the sessions (a query each) until told to stop, and
            // stopped however this test ends: a load left running after a failure would spin on
            // a closed server and starve every other test of the two cores.
            let stop = Locked(false), answers = Locked<[Reply]>([])
            let load = Task {
                await withTaskGroup(of: Void.self) { group in
                    for _ in 0..<4 {
                        group.addTask {
                            while !stop.value, !Task.isCancelled {
                                guard let reply = try? await client.send(.get, "/api/auth/sessions", bearer: token) else {
                                    try? await Task.sleep(for: .milliseconds(50))
                                    continue
                                }
                                answers.update { $0.append(reply) }
                            }
                        }
                    }
                }
            }
            defer {
                stop.value = true
                load.cancel()
            }
            try await waitUntil("the load answered", timeout: .seconds(30)) { answers.value.count > 20 }
            try await withDeadline("stopping PostgreSQL", .seconds(90)) { try await Self.postgres("pause", directory) }
            let paused = answers.value.count
            try await waitUntil("503s under load", timeout: .seconds(30)) {
                answers.value.dropFirst(paused).filter { $0.status == .serviceUnavailable }.count >= 8
            }
            stop.value = true
            try await withDeadline("the load's last requests", .seconds(30)) { await load.value }
            // Each kind of request, while it is down: told to retry, quickly.
            for (name, send) in [
                ("login", { @Sendable in try await client.post("/api/auth/login", ["email": DemoFixtures.adminEmail, "password": "x"]) }),
                ("refresh", { @Sendable in try await client.post("/api/auth/refresh", ["refreshToken": refresh]) }),
                ("sessions", { @Sendable in try await client.send(.get, "/api/auth/sessions", bearer: token) }),
            ] as [(String, @Sendable () async throws -> Reply)] {
                let started = ContinuousClock.now
                let reply = try await withDeadline("\(name) while PostgreSQL is down") { try await send() }
                #expect(reply.status == .serviceUnavailable, "\(name)")
                #expect(reply.headers[.retryAfter] == "5", "\(name)")
                #expect(started.duration(to: .now) < .seconds(5), "\(name) was held \(started.duration(to: .now))")
            }
            #expect(answers.value.allSatisfy { [.ok, .serviceUnavailable].contains($0.status) }, "\(Set(answers.value.map(\.status.code)))")
            for reply in answers.value where reply.status == .serviceUnavailable {
                reply.expectFailure(.serviceUnavailable, "SERVICE_UNAVAILABLE")
            }

            try await withDeadline("starting PostgreSQL again", .seconds(90)) { try await Self.postgres("resume", directory) }
            // Back: the first request is served, and each kind after it.
            let sessions = try await withDeadline("the first request after the outage") {
                try await client.send(.get, "/api/auth/sessions", bearer: token)
            }
            #expect(sessions.status == .ok)
            let refreshed = try await withDeadline("a refresh after the outage") { try await client.post("/api/auth/refresh", ["refreshToken": refresh]) }
            #expect(refreshed.status == .ok)
            let login = try await withDeadline("a login after the outage") {
                try await client.post("/api/auth/login", ["email": DemoFixtures.adminEmail, "password": DemoFixtures.adminPassword])
            }
            #expect(login.status == .ok)
            #expect(try await withDeadline("/readyz after the outage") { try await client.send(.get, "/readyz") }.status == .ok)
        }
    }
}
