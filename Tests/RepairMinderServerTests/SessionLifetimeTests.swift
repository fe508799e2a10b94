import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import RepairMinderServer

/// A refreshed session ends at its absolute lifetime from the sign-in, however often it is
/// refreshed (`--session-max-lifetime-web` / `-mobile`, docs/API.md §2.7, ASVS 3.3.2).
@Suite struct SessionLifetimeTests {
    static func server() async throws -> TestServer {
        try await TestServer {
            $0.refreshTokenTTLWeb = 60
            $0.refreshTokenTTLMobile = 60
            $0.sessionMaxLifetimeWeb = 100
            $0.sessionMaxLifetimeMobile = 200
        }
    }

    static func refresh(_ client: TestClient, _ token: String, userAgent: String = TestClient.browser) async throws -> Reply {
        try await client.post("/api/auth/refresh", ["refreshToken": token], userAgent: userAgent)
    }

    /// The attack the limit answers: a stolen refresh token kept alive by refreshing it
    /// before each expiry. Sliding refreshes work up to the end, then never again.
    @Test func aBrowserSessionEndsAtItsAbsoluteLifetimeHoweverOftenRefreshed() async throws {
        let server = try await Self.server()
        try await server.run { client in
            var token = try #require(try await client.signIn().string("refreshToken"))
            let start = server.clock.now
            for _ in 0..<2 {
                server.clock.advance(by: 45)
                let reply = try await Self.refresh(client, token)
                #expect(reply.status == .ok)
                token = try #require(reply.string("refreshToken"))
            }
            // The last successor expires with the session, not 60 s after it was issued.
            let expiries = try await server.withDatabase { db in
                try await db.withConnection { sql in
                    try await sql.raw("SELECT expires_at FROM refresh_tokens WHERE rotated_at IS NULL")
                        .all(decodingColumn: "expires_at", as: Double.self)
                }
            }
            #expect(expiries.count == 1)
            #expect(expiries.allSatisfy { abs($0 - (start + 100)) < 0.001 })
            server.clock.advance(by: 11)
            try await Self.refresh(client, token).expectFailure(.unauthorized, "REFRESH_TOKEN_EXPIRED", "Refresh token expired")
            // Nothing was issued in its place.
            #expect(try await server.withDatabase { try await $0.count("refresh_tokens", where: "rotated_at IS NULL") } == 1)
        }
    }

    @Test func aMobileSessionHasItsOwnLifetime() async throws {
        let server = try await Self.server()
        try await server.run { client in
            var token = try #require(try await client.signIn(userAgent: TestClient.iPhone).string("refreshToken"))
            for _ in 0..<4 {
                server.clock.advance(by: 45)
                let reply = try await Self.refresh(client, token, userAgent: TestClient.iPhone)
                #expect(reply.status == .ok)
                token = try #require(reply.string("refreshToken"))
            }
            server.clock.advance(by: 21)
            try await Self.refresh(client, token, userAgent: TestClient.iPhone).expectFailure(.unauthorized, "REFRESH_TOKEN_EXPIRED")
        }
    }

    /// A session signed in before the limit was enforced (its token's expiry not capped) is
    /// refused once it is older than the limit, by every rotation path.
    @Test func aSessionOlderThanTheLimitIsRefusedEvenWithALiveToken() async throws {
        let server = try await Self.server()
        try await server.run { client in
            let token = try #require(try await client.signIn().string("refreshToken"))
            try await server.withDatabase { db in
                try await db.withConnection { sql in
                    try await sql.raw("UPDATE sessions SET created_at = created_at - 1000").run()
                }
            }
            try await Self.refresh(client, token).expectFailure(.unauthorized, "REFRESH_TOKEN_EXPIRED")
            #expect(try await server.withDatabase { try await $0.count("refresh_tokens", where: "rotated_at IS NULL AND expires_at > \(server.clock.now)") } == 0)
        }
    }

    /// REKI's sessions end the same way.
    @Test func aREKISessionEndsAtItsAbsoluteLifetime() async throws {
        let server = try await Self.server()
        try await server.run(.live) { client in
            let signUp = try await client.post("/auth/register", ["email": "reki@example.test", "password": "violet kettle 1987"])
            var token = try #require(signUp.json["refresh_token"] as? String)
            for _ in 0..<2 {
                server.clock.advance(by: 45)
                let reply = try await client.post("/auth/refresh", ["refreshToken": token])
                #expect(reply.status == .ok)
                token = try #require(reply.json["refresh_token"] as? String)
            }
            server.clock.advance(by: 11)
            #expect(try await client.post("/auth/refresh", ["refreshToken": token]).status == .unauthorized)
        }
    }

    @Test func theLifetimesMustBePositive() {
        for change in [{ (s: inout ServerSettings) in s.sessionMaxLifetimeWeb = 0 }, { $0.sessionMaxLifetimeMobile = -1 }] {
            var settings = TestServer.defaultSettings()
            change(&settings)
            #expect(throws: SettingsError.self) { try settings.validate() }
        }
    }
}
