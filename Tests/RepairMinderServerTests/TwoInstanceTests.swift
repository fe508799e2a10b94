import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import RepairMinderServer

/// Two server instances on one PostgreSQL database, with requests for the same user
/// alternating between them: every guarantee of docs/API.md holds as it does on one instance.
/// The one thing kept in process memory, the bearer check's `StaffCallerCache`, lags on the
/// other instance by at most its lifetime (2 s), within API.md's 5.
@Suite(.enabled(if: TestPostgres.isAvailable, Comment(rawValue: TestPostgres.howToEnable)))
struct TwoInstanceTests {
    /// The instance for the `index`-th request: even to `a`, odd to `b`.
    static func alternate(_ index: Int, _ a: TestClient, _ b: TestClient) -> TestClient { index % 2 == 0 ? a : b }

    /// `count` requests at once, alternating between the instances; their replies.
    static func concurrently(
        _ count: Int, _ a: TestClient, _ b: TestClient, _ request: @escaping @Sendable (TestClient, Int) async throws -> Reply
    ) async throws -> [Reply] {
        try await withThrowingTaskGroup(of: Reply.self) { group in
            for index in 0..<count { group.addTask { try await request(alternate(index, a, b), index) } }
            return try await group.reduce(into: [Reply]()) { $0.append($1) }
        }
    }

    @Test func twentyConcurrentRefreshesSplitBetweenInstancesYieldOneSuccessor() async throws {
        let server = try await TestServer()
        try await server.runTwoInstances { a, b in
            let first = try #require(try await a.signIn().string("refreshToken"))
            let replies = try await Self.concurrently(20, a, b) { client, _ in
                try await client.post("/api/auth/refresh", ["refreshToken": first])
            }
            #expect(replies.count == 20)
            #expect(replies.allSatisfy { $0.status == .ok })
            #expect(Set(replies.compactMap { $0.string("refreshToken") }).count == 1)
            #expect(try await server.withDatabase { try await $0.count("refresh_tokens", where: "rotated_at IS NULL") } == 1)
            #expect(try await server.withDatabase { try await $0.count("refresh_tokens") } == 2)
            // The one successor works on either instance; the first token is now spent for good.
            let successor = try #require(replies.first?.string("refreshToken"))
            #expect(try await b.post("/api/auth/refresh", ["refreshToken": successor]).status == .ok)
        }
    }

    /// Both instances have the session cached (`StaffCallerCache`); the company is still read on
    /// every request, so a status change written elsewhere is seen on the next one by both.
    @Test func aCompanyStatusChangeIsSeenOnTheNextRequestByBothInstances() async throws {
        let server = try await TestServer()
        try await server.runTwoInstances { a, b in
            let token = try #require(try await a.signIn().string("token"))
            for client in [a, b] { #expect(try await client.send(.get, "/api/user/device-tokens", bearer: token).status == .ok) }
            try await QuarantineTests.setStatus("suspended", server: server)
            for client in [a, b] {
                try await client.send(.get, "/api/user/device-tokens", bearer: token).expectFailure(.forbidden, "ACCOUNT_SUSPENDED")
            }
            try await QuarantineTests.setStatus("active", server: server)
            for client in [a, b] { #expect(try await client.send(.get, "/api/user/device-tokens", bearer: token).status == .ok) }
        }
    }

    /// Every way a session ends, on one instance: refused there at once (the revocation service
    /// cleared that instance's cache), on the other within the cache's lifetime (2 s, API.md
    /// allows 5), though both had just answered it from their caches.
    @Test(arguments: RevocationPath.allCases)
    func aSessionEndedOnOneInstanceIsRefusedThereAtOnceAndOnTheOtherWithinSeconds(_ path: RevocationPath) async throws {
        let server = try await TestServer()
        try await server.runTwoInstances { a, b in
            let ended = try await a.signIn(), other = try await a.signIn()
            let token = ended.string("token")
            for client in [a, b] { #expect(try await client.send(.get, "/api/auth/me", bearer: token).status == .ok) }
            try await path.end(ended, other: other, client: a, server: server)
            try await a.send(.get, "/api/auth/me", bearer: token).expectFailure(.unauthorized, "UNAUTHORIZED")
            // On the other, once its cached entry expires (StaffCallerCacheTests checks how soon).
            var reply = try await b.send(.get, "/api/auth/me", bearer: token)
            try await waitUntil("the ended session refused on the other instance", interval: .milliseconds(100)) {
                if reply.status == .ok { reply = try await b.send(.get, "/api/auth/me", bearer: token) }
                return reply.status != .ok
            }
            reply.expectFailure(.unauthorized, "UNAUTHORIZED")
        }
    }

    @Test func theLoginChallengeAttemptCapHoldsWhenAttemptsAlternate() async throws {
        let server = try await TestServer()
        try await server.runTwoInstances { a, b in
            let admin = DemoFixtures.adminEmail
            let userId = try await a.login(admin, DemoFixtures.adminPassword)
            let code = try await b.requestCode(userId: userId, email: admin)
            let wrong = code == "000000" ? "111111" : "000000"
            // Eight wrong codes at once, split between the instances: five are counted, the
            // fifth closes the challenge, and the rest find it closed.
            let replies = try await Self.concurrently(8, a, b) { client, _ in
                try await client.post("/api/auth/2fa/verify", ["userId": userId, "code": wrong])
            }
            #expect(replies.filter { $0.code == "INVALID_CODE" }.count == 4)
            #expect(replies.filter { $0.code == "TOO_MANY_ATTEMPTS" }.count == 1)
            #expect(replies.filter { $0.code == "LOGIN_CHALLENGE_EXPIRED" }.count == 3)
            #expect(try await server.withDatabase { try await $0.count("login_challenges", where: "failed_attempts = 5") } == 1)
            // The right code is refused on both now, and no session was made.
            for client in [a, b] {
                try await client.post("/api/auth/2fa/verify", ["userId": userId, "code": code])
                    .expectFailure(.unauthorized, "LOGIN_CHALLENGE_EXPIRED")
            }
            #expect(try await server.withDatabase { try await $0.count("sessions") } == 0)
        }
    }

    @Test func anEmailedCodeIsUsedOnceAcrossInstancesAndItsAttemptCapHolds() async throws {
        let server = try await TestServer()
        try await server.runTwoInstances { a, b in
            let email = DemoFixtures.engineerEmail
            #expect(try await a.post("/api/auth/magic-link/request", ["email": email]).status == .ok)
            let code = try await a.latestCode(to: email)
            // Ten uses of the right code at once: one session.
            let replies = try await Self.concurrently(10, a, b) { client, _ in
                try await client.post("/api/auth/magic-link/verify-code", ["email": email, "code": code])
            }
            #expect(replies.filter { $0.status == .ok }.count == 1)
            #expect(replies.filter { $0.code == "INVALID_CODE" }.count == 9)
            #expect(try await server.withDatabase { try await $0.count("sessions") } == 1)

            // A new code and five wrong tries, alternating: the code is spent.
            #expect(try await b.post("/api/auth/magic-link/request", ["email": email]).status == .ok)
            let second = try await b.latestCode(to: email)
            let wrong = second == "000000" ? "111111" : "000000"
            for index in 0..<5 {
                try await Self.alternate(index, a, b).post("/api/auth/magic-link/verify-code", ["email": email, "code": wrong])
                    .expectFailure(.unauthorized, "INVALID_CODE")
            }
            try await a.post("/api/auth/magic-link/verify-code", ["email": email, "code": second])
                .expectFailure(.unauthorized, "INVALID_CODE")
            #expect(try await server.withDatabase { try await $0.count("sessions") } == 1)
        }
    }

    @Test func theLoginFailureBudgetIsOneForBothInstances() async throws {
        let server = try await TestServer { $0.loginFailureLimit = 4 }
        try await server.runTwoInstances { a, b in
            let replies = try await Self.concurrently(10, a, b) { client, index in
                try await client.post("/api/auth/login", ["email": DemoFixtures.adminEmail, "password": "wrong \(index)"])
            }
            #expect(replies.filter { $0.code == "INVALID_CREDENTIALS" }.count == 4)
            #expect(replies.filter { $0.code == "RATE_LIMITED" }.count == 6)
            for client in [a, b] {
                try await client.post("/api/auth/login", ["email": DemoFixtures.adminEmail, "password": DemoFixtures.adminPassword])
                    .expectFailure(.tooManyRequests, "RATE_LIMITED")
            }
        }
    }

    @Test func thePerIPLimitIsOneBudgetForBothInstances() async throws {
        let server = try await TestServer { $0.ipRateLimit = 6 }
        try await server.runTwoInstances { a, b in
            let replies = try await Self.concurrently(10, a, b) { client, _ in
                try await client.post("/api/auth/magic-link/request", ["email": "nobody@acme.test"])
            }
            #expect(replies.filter { $0.status == .ok }.count == 6)
            #expect(replies.filter { $0.code == "RATE_LIMITED" }.count == 4)
            server.clock.advance(by: 60)
            #expect(try await b.post("/api/auth/magic-link/request", ["email": "nobody@acme.test"]).status == .ok)
        }
    }
}
