import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@testable import RepairMinderServer

/// bcrypt runs on its own thread pool: logins hashing at the production cost must not hold up
/// other requests (issue 2, "Speed").
@Suite struct HashingConcurrencyTests {
    @Test func healthAnswersWhileLoginsHash() async throws {
        let server = try await TestServer { $0.bcryptCost = 12 }
        try await server.run(.live) { client in
            // URLSession with one connection per request, so nothing queues in the client:
            // HummingbirdTesting's live client sends its requests one after another on one connection.
            let base = "http://127.0.0.1:\(try #require(client.client.port))"
            let answered = Locked(0)
            async let logins: [Int] = withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        var request = URLRequest(url: try #require(URL(string: "\(base)/api/auth/login")))
                        request.httpMethod = "POST"
                        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                        request.httpBody = Data(#"{"email":"admin@acme.test","password":"wrong password"}"#.utf8)
                        let (_, response) = try await URLSession(configuration: .ephemeral).data(for: request)
                        answered.update { $0 += 1 }
                        return (response as? HTTPURLResponse)?.statusCode ?? 0
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            // Health, again and again until the first login answers. 4 logins at cost 12 hash
            // for about a second on 2 cores; a health answer takes a few milliseconds unless it
            // waits for them. So the count of health answers before the first login's is the
            // measure: dozens to hundreds on a quiet machine, none (or the one or two sent before
            // the server read the logins) if hashing held health up. No duration is compared, so a machine
            // loaded by other suites slows both sides alike.
            var statuses: [Int] = []
            let probe = URLSession(configuration: .ephemeral)
            let healthURL = try #require(URL(string: "\(base)/api/health"))
            while answered.value == 0 {
                let (_, response) = try await probe.data(from: healthURL)
                if answered.value == 0 { statuses.append((response as? HTTPURLResponse)?.statusCode ?? 0) }
            }
            #expect(try await logins == [401, 401, 401, 401])
            // 503 is health's own answer when the database took over its 2 s budget: on a
            // machine loaded by the whole suite (CI, PostgreSQL) a probe can.
            #expect(statuses.allSatisfy { $0 == 200 || $0 == 503 }, "\(statuses)")
            // Answers, not only 200s: a 503 is the server answering too. More than the couple a
            // probe can send before the server has read the logins: a fresh-clone CI run on
            // PostgreSQL, loaded by the whole suite, counted 7 where a quiet machine counts dozens.
            #expect(statuses.count >= 3, "health answered \(statuses.count) times while the logins hashed")
        }
    }
}
