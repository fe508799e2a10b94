import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import RepairMinderServer

/// The purge of dead rows (issue 14, item 10): everything dead for longer than the retention
/// goes, in batches; everything live stays and still works.
@Suite struct PurgeTests {
    static let week = 7.0 * 24 * 3600
    let admin = DemoFixtures.adminEmail

    @Test func aPassDeletesWhatIsDeadAndKeepsEverythingLive() async throws {
        let server = try await TestServer {
            $0.secondFactorFailureLimit = 10
            $0.purgeRetention = Int(Self.week)
        }
        try await server.run { client in
            // Live for 90 days (mobile): a staff session with a rotated token, a customer session.
            let live = try await client.signIn(userAgent: TestClient.iPhone)
            let rotated = try #require(live.string("refreshToken"))
            let current = try #require(try await client.post("/api/auth/refresh", ["refreshToken": rotated], userAgent: TestClient.iPhone).string("refreshToken"))
            let customer = try #require(try await client.customerSignIn("jane@example.test", userAgent: TestClient.iPhone).string("token"))
            // Dead within a week (web): three sessions that run out (one with a device token),
            // three logged out, a customer session logged out and one that runs out, a challenge
            // with a wrong try (a limit counter), and the codes they all used.
            for index in 1...3 {
                let token = try #require(try await client.signIn().string("token"))
                if index == 1 { #expect(try await PushTests.register(client, "apns-dead", bearer: token).status == .ok) }
            }
            for _ in 1...3 {
                let token = try #require(try await client.signIn().string("token"))
                #expect(try await client.send(.post, "/api/auth/logout", bearer: token).status == .ok)
            }
            _ = try await client.customerSignIn("multi@example.test", companyName: "Beta Tech")
            let loggedOut = try #require(try await client.customerSignIn("multi@example.test", companyName: "Acme Repairs").string("token"))
            #expect(try await client.send(.post, "/api/customer/auth/logout", bearer: loggedOut).status == .ok)
            let stale = try await client.login(admin, DemoFixtures.adminPassword)
            _ = try await client.post("/api/auth/2fa/verify", ["userId": stale, "code": "000000"])

            server.clock.advance(by: 2 * Self.week + 60)
            // Live now: a fresh challenge and its limit counter.
            let fresh = try await client.login(admin, DemoFixtures.adminPassword)
            try await client.post("/api/auth/2fa/verify", ["userId": fresh, "code": "000000"]).expectFailure(.unauthorized, "INVALID_CODE")

            let removed = try await purge(server, batchSize: 2)
            #expect(removed["revoked sessions"] == 3)
            #expect(removed["expired refresh tokens"] == 3)
            #expect(removed["customer sessions"] == 2)
            #expect(removed["login challenges"] == 7 + 1)
            #expect(removed["idle limit counters"] == nil)  // the user's counter was used again just now
            let left = try await server.withDatabase { db in
                [
                    try await db.count("sessions"), try await db.count("refresh_tokens"), try await db.count("customer_sessions"),
                    try await db.count("login_challenges"), try await db.count("magic_codes"), try await db.count("device_tokens"),
                ]
            }
            #expect(left == [1, 2, 1, 1, 0, 0], "sessions, refresh tokens, customer sessions, challenges, codes, device tokens")

            // What is live still works: the session refreshes and its new access token is
            // accepted, the customer session, the open challenge, and the rotated token's reuse detection.
            let refreshed = try await client.post("/api/auth/refresh", ["refreshToken": current], userAgent: TestClient.iPhone)
            #expect(try await client.send(.get, "/api/auth/me", bearer: refreshed.string("token")).status == .ok)
            #expect(try await client.send(.get, "/api/customer/auth/me", bearer: customer).status == .ok)
            let code = try await client.requestCode(userId: fresh, email: admin)
            #expect(try await client.post("/api/auth/2fa/verify", ["userId": fresh, "code": code]).status == .ok)
            try await client.post("/api/auth/refresh", ["refreshToken": rotated], userAgent: TestClient.iPhone)
                .expectFailure(.unauthorized, "TOKEN_REUSE_DETECTED")
        }
    }

    /// Dead for less than the retention: kept. A rotated token that expired a day ago, of a
    /// session still refreshing, still gives its theft away.
    @Test func theRecentlyDeadStayForTheRetention() async throws {
        let server = try await TestServer { $0.purgeRetention = Int(Self.week) }
        try await server.run { client in
            let first = try #require(try await client.signIn().string("refreshToken"))
            let second = try #require(try await client.post("/api/auth/refresh", ["refreshToken": first]).string("refreshToken"))
            server.clock.advance(by: 6 * 24 * 3600)
            #expect(try await client.post("/api/auth/refresh", ["refreshToken": second]).status == .ok)
            let token = try #require(try await client.signIn().string("token"))
            #expect(try await client.send(.post, "/api/auth/logout", bearer: token).status == .ok)
            server.clock.advance(by: 2 * 24 * 3600)

            let removed = try await purge(server)
            #expect(removed["expired refresh tokens"] == nil)
            #expect(removed["revoked sessions"] == nil)
            #expect(try await server.withDatabase { try await $0.count("sessions") } == 2)
            try await client.post("/api/auth/refresh", ["refreshToken": first]).expectFailure(.unauthorized, "TOKEN_REUSE_DETECTED")
        }
    }

    @Test func idleLimitCountersGoAfterTheirWindow() async throws {
        let server = try await TestServer { $0.secondFactorFailureLimit = 10 }
        try await server.run { client in
            let userId = try await client.login(admin, DemoFixtures.adminPassword)
            _ = try await client.post("/api/auth/2fa/verify", ["userId": userId, "code": "000000"])
            server.clock.advance(by: WindowCounters.longestWindow + 1)
            let removed = try await purge(server)
            #expect(removed == ["idle limit counters": 1])
        }
    }

    /// A pending registration can be verified for as long as its code lives (`--code-ttl`), even
    /// when the retention is shorter; after both it goes.
    @Test func aPendingRegistrationStaysWhileItsCodeIsValid() async throws {
        let server = try await TestServer {
            $0.purgeRetention = 60
            $0.codeTTL = 600
        }
        try await server.run { client in
            #expect(try await client.post("/api/auth/register", RegistrationTests.body()).status == .created)
            let code = try await client.latestCode(to: RegistrationTests.email)
            #expect(try await client.post("/api/auth/register", RegistrationTests.body(email: "bo@fixit.test", company: "Bo's")).status == .created)
            server.clock.advance(by: 300)
            #expect(try await purge(server)["pending registrations"] == nil)
            #expect(try await client.post("/api/auth/register/verify", ["email": RegistrationTests.email, "code": code]).status == .ok)
            server.clock.advance(by: 300 + 60 + 1)
            #expect(try await purge(server)["pending registrations"] == 1)
        }
    }

    /// The code-email counter also spaces emails (`--code-resend-interval`), which may be longer
    /// than any window: the purge keeps it until that spacing is over too.
    @Test func aCodeEmailCounterStaysForItsResendInterval() async throws {
        let server = try await TestServer { $0.codeResendInterval = 7200 }
        try await server.run { client in
            let email = DemoFixtures.engineerEmail
            #expect(try await client.post("/api/auth/magic-link/request", ["email": email]).status == .ok)
            server.clock.advance(by: WindowCounters.longestWindow + 60)
            #expect(try await purge(server)["idle limit counters"] == nil)
            try await client.post("/api/auth/magic-link/request", ["email": email]).expectFailure(.tooManyRequests, "RATE_LIMITED")
            server.clock.advance(by: 7200)
            // The address's count from this network, and its count from every network.
            #expect(try await purge(server)["idle limit counters"] == 2)
            #expect(try await client.post("/api/auth/magic-link/request", ["email": email]).status == .ok)
        }
    }

    /// One pass with the server's settings, at the server's time.
    /// REKI's sessions go through the same purge: logged out or run out, with their tokens,
    /// and expired reset links; a live session and its rotated token stay and still work.
    @Test func rekiSessionsAndResetLinksArePurgedLikeStaffOnes() async throws {
        let server = try await TestServer { $0.purgeRetention = Int(Self.week) }
        try await server.run { client in
            let credentials = ["email": "test@example.com", "password": "violet kettle 1987"]
            let live = try await client.post("/auth/register", credentials)
            let first = try #require(live.top("refresh_token"))
            let loggedOut = try await client.post("/auth/login", credentials)
            #expect(try await client.send(.post, "/auth/logout", bearer: loggedOut.top("access_token")).status == .ok)
            #expect(try await client.post("/auth/forgot-password", ["email": "test@example.com"]).status == .ok)
            server.clock.advance(by: Self.week - 60)
            let current = try #require(try await client.post("/auth/refresh", ["refreshToken": first]).top("refresh_token"))
            server.clock.advance(by: Self.week - 3600)

            let removed = try await purge(server, batchSize: 2)
            #expect(removed["revoked sessions"] == 1)
            #expect(removed["reset links"] == 1)
            let left = try await server.withDatabase { db in
                [try await db.count("reki_sessions"), try await db.count("reki_refresh_tokens"), try await db.count("reki_password_resets")]
            }
            #expect(left == [1, 2, 0], "REKI sessions, refresh tokens, reset links")
            #expect(try await client.post("/auth/refresh", ["refreshToken": current]).status == .ok)
        }
    }

    private func purge(_ server: TestServer, batchSize: Int = 500) async throws -> [String: Int] {
        try await server.withDatabase { db in
            try await Purge(database: db, settings: server.settings, batchSize: batchSize).run(now: server.clock.now)
        }
    }
}
