import Foundation
import TestSupport
import Testing

@testable import RepairMinderServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Two `repairminder serve` processes on one PostgreSQL database; one is killed with SIGKILL
/// in the middle of sign-ins and refreshes. Whatever a client was told succeeded must hold on
/// the survivor: every session signed in, every rotated refresh token.
@Suite(.serialized, .enabled(if: TestPostgres.isAvailable, Comment(rawValue: TestPostgres.howToEnable)))
struct InstanceCrashTests {
    /// A `repairminder serve --demo` process on the shared database.
    final class Instance: @unchecked Sendable {
        let process = Process()
        let base: String

        /// `serve` on `databaseURL` (nil: SQLite in the data directory); `--demo` and bcrypt cost 4
        /// unless `arguments` say otherwise.
        init(databaseURL: String?, dataDir: String, arguments: [String] = ["--demo", "--bcrypt-cost", "4"]) throws {
            let port = try freeLoopbackPort()
            base = "http://127.0.0.1:\(port)"
            process.executableURL = CommandLineTests.binary
            process.arguments = [
                "serve", "--data-dir", dataDir, "--port", String(port), "--jwt-secret", "crash-test-secret-that-is-at-least-32-bytes",
                "--code-resend-interval", "0", "--code-emails-per-hour", "0", "--ip-rate-limit", "0", "--login-failure-limit", "0",
            ] + (databaseURL.map { ["--database-url", $0] } ?? []) + arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
        }

        func waitUntilHealthy() async throws {
            try await waitUntil("\(base) healthy", timeout: .seconds(120), interval: .milliseconds(100)) {
                (try? await HTTP.send("GET", base + "/api/health"))?.status == 200
            }
        }

        func kill() {
            Foundation.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// Minimal JSON over URLSession.
    enum HTTP {
        struct Reply: Sendable {
            let status: Int
            let data: [String: String]
        }

        static func send(_ method: String, _ url: String, json: [String: String]? = nil) async throws -> Reply {
            var request = URLRequest(url: URL(string: url)!, timeoutInterval: 10)
            request.httpMethod = method
            if let json {
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                request.httpBody = try JSONSerialization.data(withJSONObject: json)
            }
            let (body, response) = try await URLSession.shared.data(for: request)
            let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
            let data = (object?["data"] as? [String: Any] ?? [:]).compactMapValues { $0 as? String }
            return Reply(status: (response as? HTTPURLResponse)?.statusCode ?? 0, data: data)
        }
    }

    /// The password sign-in with the emailed code: the refresh token, or nil if a step failed.
    static func signIn(on instance: Instance, databaseURL: String, dataDir: String) async throws -> String? {
        let admin = DemoFixtures.adminEmail
        let login = try await HTTP.send("POST", instance.base + "/api/auth/login", json: ["email": admin, "password": DemoFixtures.adminPassword])
        guard let userId = login.data["userId"] else { return nil }
        let request = try await HTTP.send("POST", instance.base + "/api/auth/2fa/request", json: ["userId": userId, "email": admin])
        guard request.status == 200 else { return nil }
        var settings = ServerSettings()
        (settings.dataDirectory, settings.databaseURL) = (dataDir, databaseURL)
        guard let code = try await Mailbox.latestCode(to: admin, settings: settings) else { return nil }
        let verify = try await HTTP.send("POST", instance.base + "/api/auth/2fa/verify", json: ["userId": userId, "code": code])
        return verify.data["refreshToken"]
    }

    @Test func killingOneInstanceUnderLoadLosesNoCommittedSession() async throws {
        let databaseURL = try await TestPostgres.createDatabase()
        let dataDir = CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let doomed = try Instance(databaseURL: databaseURL, dataDir: dataDir)
        let survivor = try Instance(databaseURL: databaseURL, dataDir: dataDir)
        defer {
            if doomed.process.isRunning { doomed.kill() }
            survivor.process.terminate()
            survivor.process.waitUntilExit()
        }
        try await doomed.waitUntilHealthy()
        try await survivor.waitUntilHealthy()

        // Sessions signed in on the instance about to die, then refreshed on both at once.
        // Each client's current token, and how many rotations it saw acknowledged.
        var holders: [Locked<(token: String, rotations: Int)>] = []
        for _ in 0..<6 { holders.append(Locked((try #require(try await Self.signIn(on: doomed, databaseURL: databaseURL, dataDir: dataDir)), 0))) }
        let signedInDuringLoad = Locked([String]())
        let stop = Date().addingTimeInterval(3)
        let workers = holders
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, holder) in workers.enumerated() {
                group.addTask {
                    var turn = index
                    while Date() < stop {
                        turn += 1
                        let instance = turn % 2 == 0 && doomed.process.isRunning ? doomed : survivor
                        // A request cut off by the kill has an unknown outcome: the client keeps its
                        // token and retries on the survivor (the retry grace covers a lost answer).
                        guard let reply = try? await HTTP.send("POST", instance.base + "/api/auth/refresh", json: ["refreshToken": holder.value.token])
                        else { continue }
                        #expect(reply.status == 200, "refresh answered \(reply.status)")
                        if let successor = reply.data["refreshToken"] { holder.update { $0 = (successor, $0.rotations + 1) } }
                    }
                }
            }
            // Sign-ins alternating between the instances while the refreshes go on.
            group.addTask {
                var turn = 0
                while Date() < stop {
                    turn += 1
                    let instance = turn % 2 == 0 && doomed.process.isRunning ? doomed : survivor
                    if let token = try? await Self.signIn(on: instance, databaseURL: databaseURL, dataDir: dataDir) { signedInDuringLoad.update { $0.append(token) } }
                }
            }
            // Killed in the middle of the load: once refreshes were acknowledged on both
            // instances' turns and sign-ins made during it (or when the load ends, on a machine
            // too slow for that, so the test never hangs).
            group.addTask {
                try await waitUntil("the load under way", timeout: .seconds(60)) {
                    workers.map(\.value.rotations).reduce(0, +) >= 12 && signedInDuringLoad.value.count >= 2 || Date() >= stop
                }
                doomed.kill()
            }
            try await group.waitForAll()
        }

        #expect(!doomed.process.isRunning)
        let rotations = holders.map(\.value.rotations).reduce(0, +)
        #expect(rotations > 20, "the load ran: \(rotations) acknowledged rotations")
        #expect(!signedInDuringLoad.value.isEmpty, "sign-ins during the load: \(signedInDuringLoad.value.count)")
        // Every session's newest token works on the survivor, and so does every sign-in that was answered.
        for token in holders.map(\.value.token) + signedInDuringLoad.value {
            let reply = try await HTTP.send("POST", survivor.base + "/api/auth/refresh", json: ["refreshToken": token])
            #expect(reply.status == 200)
        }
        await TestPostgres.dropDatabase(url: databaseURL)
    }
}
