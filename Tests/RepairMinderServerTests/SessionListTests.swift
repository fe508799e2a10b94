import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import RepairMinderServer

/// Signed-in devices: list, revoke one, revoke the others (docs/API.md §9.4).
@Suite struct SessionListTests {
    @Test func theListShowsLiveSessionsNewestFirstWithTheirDevice() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let phone = try await client.signIn(userAgent: TestClient.iPhone)
            server.clock.advance(by: 5)
            let ended = try await client.signIn()
            #expect(try await client.send(.post, "/api/auth/logout", bearer: ended.string("token")).status == .ok)
            server.clock.advance(by: 5)
            let browser = try await client.signIn()
            let reply = try await client.send(.get, "/api/auth/sessions", bearer: browser.string("token"))
            #expect(reply.status == .ok)
            let list = try #require(reply.json["data"] as? [[String: Any]])
            #expect(list.count == 2)
            #expect(Set(list[0].keys) == ["id", "current", "isMobile", "userAgent", "ipAddress", "createdAt", "lastUsedAt"])
            #expect(list[0]["current"] as? Bool == true)
            #expect(list[0]["isMobile"] as? Bool == false)
            #expect(list[0]["userAgent"] as? String == TestClient.browser)
            #expect(list[1]["current"] as? Bool == false)
            #expect(list[1]["isMobile"] as? Bool == true)
            #expect(list[1]["userAgent"] as? String == TestClient.iPhone)
            #expect((list[1]["createdAt"] as? String).flatMap(Timestamp.date(iso8601:)) != nil)
            #expect(try await client.send(.get, "/api/auth/me", bearer: phone.string("token")).status == .ok)
        }
    }

    @Test func revokingOneSignsOutThatDeviceOnly() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let phone = try await client.signIn(userAgent: TestClient.iPhone)
            let browser = try await client.signIn()
            let token = try #require(browser.string("token"))
            let list = try #require(try await client.send(.get, "/api/auth/sessions", bearer: token).json["data"] as? [[String: Any]])
            let phoneId = try #require(list.first { $0["current"] as? Bool == false }?["id"] as? String)
            let reply = try await client.send(.delete, "/api/auth/sessions/\(phoneId)", bearer: token)
            #expect(reply.status == .ok)
            #expect(NSDictionary(dictionary: reply.json) == NSDictionary(dictionary: ["success": true]))
            try await client.send(.get, "/api/auth/me", bearer: phone.string("token")).expectFailure(.unauthorized, "UNAUTHORIZED")
            try await client.post("/api/auth/refresh", ["refreshToken": phone.string("refreshToken") ?? ""], userAgent: TestClient.iPhone)
                .expectFailure(.unauthorized, "INVALID_REFRESH_TOKEN")
            #expect(try await client.send(.get, "/api/auth/me", bearer: token).status == .ok)
            // Again, or unknown: 404.
            try await client.send(.delete, "/api/auth/sessions/\(phoneId)", bearer: token).expectFailure(.notFound, "NOT_FOUND")
            try await client.send(.delete, "/api/auth/sessions/no-such-session", bearer: token).expectFailure(.notFound, "NOT_FOUND")
        }
    }

    @Test func anotherUsersSessionIsNotFoundAndStaysLive() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let engineer = try await client.signIn(DemoFixtures.engineerEmail, DemoFixtures.engineerPassword)
            let engineerToken = try #require(engineer.string("token"))
            let engineerSession = try #require(
                (try await client.send(.get, "/api/auth/sessions", bearer: engineerToken).json["data"] as? [[String: Any]])?.first?["id"] as? String)
            let admin = try #require(try await client.signIn().string("token"))
            try await client.send(.delete, "/api/auth/sessions/\(engineerSession)", bearer: admin).expectFailure(.notFound, "NOT_FOUND")
            #expect(try await client.send(.get, "/api/auth/me", bearer: engineerToken).status == .ok)
        }
    }

    @Test func logoutOthersKeepsOnlyThisSession() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let others = [try await client.signIn(userAgent: TestClient.iPhone), try await client.signIn(), try await client.signIn()]
            let engineer = try await client.signIn(DemoFixtures.engineerEmail, DemoFixtures.engineerPassword)
            let this = try await client.signIn()
            let token = try #require(this.string("token"))
            let reply = try await client.post("/api/auth/logout-others", [:], bearer: token)
            #expect(reply.status == .ok)
            #expect(reply.data["revoked"] as? Int == 3)
            for other in others {
                try await client.send(.get, "/api/auth/me", bearer: other.string("token")).expectFailure(.unauthorized, "UNAUTHORIZED")
            }
            #expect(try await client.send(.get, "/api/auth/me", bearer: token).status == .ok)
            #expect(try await client.send(.get, "/api/auth/me", bearer: engineer.string("token")).status == .ok)
            let list = try #require(try await client.send(.get, "/api/auth/sessions", bearer: token).json["data"] as? [[String: Any]])
            #expect(list.count == 1)
            #expect(try await client.post("/api/auth/logout-others", [:], bearer: token).data["revoked"] as? Int == 0)
        }
    }

    /// `lastUsedAt` follows use, but is written at most once a minute.
    @Test func lastUsedMovesAtMostOnceAMinute() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let token = try #require(try await client.signIn().string("token"))
            func lastUsed() async throws -> Double? {
                try await server.withDatabase { db in
                    try await db.withConnection {
                        try await $0.raw("SELECT last_used_at FROM sessions").first(decodingColumn: "last_used_at", as: Double.self)
                    }
                }
            }
            let start = try #require(try await lastUsed())
            server.clock.advance(by: 30)
            _ = try await client.send(.get, "/api/auth/me", bearer: token)
            #expect(try await lastUsed() == start)
            server.clock.advance(by: 31)
            _ = try await client.send(.get, "/api/auth/me", bearer: token)
            let moved = try #require(try await lastUsed())
            #expect(abs(moved - (start + 61)) < 0.01)
        }
    }

    @Test func quarantinedStaffSeeTheirSessions() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let token = try #require(try await client.signIn("owner@pending.test", "pending password").string("token"))
            #expect(try await client.send(.get, "/api/auth/sessions", bearer: token).status == .ok)
            #expect(try await client.post("/api/auth/logout-others", [:], bearer: token).status == .ok)
        }
    }
}
