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
    /// Runs `.ci/postgres.sh action directory`; its standard output. Waited for off the
    /// concurrency pool, which the server under test answers from.
    static func postgres(_ action: String, _ directory: String) async throws -> String {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".ci/postgres.sh").path
        return try await withCheckedThrowingContinuation { done in
            DispatchQueue.global().async {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/bin/bash")
                process.arguments = [script, action, directory]
                let output = Pipe()
                process.standardOutput = output
                process.standardError = FileHandle.nullDevice
                do {
                    try process.run()
                    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                    process.waitUntilExit()
                    guard process.terminationStatus == 0 else { throw SettingsError("postgres.sh \(action) failed: \(text)") }
                    done.resume(returning: text)
                } catch {
                    done.resume(throwing: error)
                }
            }
        }
    }

    @Test(.enabled(if: TestPostgres.isAvailable, Comment(rawValue: TestPostgres.howToEnable)), .timeLimit(.minutes(3)))
    func whileTheDatabaseIsDownRequestsAreToldToRetryAndTheFirstOneAfterIsServed() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rm-outage-\(UUID().uuidString)").path
        let url = try #require(try await Self.postgres("start", directory).split(separator: "\n").last.map(String.init))
        let shared = Locked<String?>(nil)
        defer {
            let given = shared.value
            Task.detached {
                _ = try? await Self.postgres("stop", directory)
                if let given { await TestPostgres.dropDatabase(url: given) }
            }
        }
        let server = try await TestServer { settings in
            shared.value = settings.databaseURL
            settings.databaseURL = url
        }
        try await server.run(.live) { client in
            let signedIn = try await client.signIn()
            let token = try #require(signedIn.string("token")), refresh = try #require(signedIn.string("refreshToken"))
            // Load: four callers reading the sessions (a query each) until told to stop.
            let stop = Locked(false), answers = Locked<[Reply]>([])
            let load = Task {
                await withTaskGroup(of: Void.self) { group in
                    for _ in 0..<4 {
                        group.addTask {
                            while !stop.value {
                                if let reply = try? await client.send(.get, "/api/auth/sessions", bearer: token) { answers.update { $0.append(reply) } }
                            }
                        }
                    }
                }
            }
            try await waitUntil("the load answered", timeout: .seconds(30)) { answers.value.count > 20 }
            _ = try await Self.postgres("pause", directory)
            let paused = answers.value.count
            try await waitUntil("503s under load", timeout: .seconds(30)) {
                answers.value.dropFirst(paused).filter { $0.status == .serviceUnavailable }.count >= 8
            }
            stop.value = true
            await load.value
            // Each kind of request, while it is down: told to retry, quickly.
            for (name, send) in [
                ("login", { try await client.post("/api/auth/login", ["email": DemoFixtures.adminEmail, "password": "x"]) }),
                ("refresh", { try await client.post("/api/auth/refresh", ["refreshToken": refresh]) }),
                ("sessions", { try await client.send(.get, "/api/auth/sessions", bearer: token) }),
            ] as [(String, () async throws -> Reply)] {
                let started = ContinuousClock.now
                let reply = try await send()
                #expect(reply.status == .serviceUnavailable, "\(name)")
                #expect(reply.headers[.retryAfter] == "5", "\(name)")
                #expect(started.duration(to: .now) < .seconds(5), "\(name) was held \(started.duration(to: .now))")
            }
            #expect(answers.value.allSatisfy { [.ok, .serviceUnavailable].contains($0.status) }, "\(Set(answers.value.map(\.status.code)))")
            for reply in answers.value where reply.status == .serviceUnavailable {
                reply.expectFailure(.serviceUnavailable, "SERVICE_UNAVAILABLE")
            }

            _ = try await Self.postgres("resume", directory)
            // Back: the first request is served, and each kind after it.
            #expect(try await client.send(.get, "/api/auth/sessions", bearer: token).status == .ok)
            #expect(try await client.post("/api/auth/refresh", ["refreshToken": refresh]).status == .ok)
            #expect(try await client.post("/api/auth/login", ["email": DemoFixtures.adminEmail, "password": DemoFixtures.adminPassword]).status == .ok)
            #expect(try await client.send(.get, "/readyz").status == .ok)
        }
    }
}
