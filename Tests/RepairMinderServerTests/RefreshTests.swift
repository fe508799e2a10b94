import Foundation
import Hummingbird
import HummingbirdTesting
import RepairMinderModels
import Testing

@testable import RepairMinderServer

/// Refresh rotation, reuse detection, grace, lifetimes (docs/API.md §2.6, §2.7).
@Suite struct RefreshTests {
    @Test func refreshRotatesTheToken() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let signIn = try await client.signIn()
            let first = try #require(signIn.string("refreshToken"))
            let reply = try await client.post("/api/auth/refresh", ["refreshToken": first])
            #expect(reply.status == .ok)
            let second = try #require(reply.string("refreshToken"))
            #expect(second != first)
            #expect(reply.data["expiresIn"] as? Int == 900)
            #expect(reply.data.keys.sorted() == ["expiresIn", "refreshToken", "token"])
            let me = try await client.send(.get, "/api/auth/me", bearer: reply.string("token"))
            #expect(me.status == .ok)
            // Only hashes are stored.
            let stored = try await server.withDatabase {
                try await $0.count("refresh_tokens", where: "token_hash = '\(first)' OR token_hash = '\(second)'")
            }
            #expect(stored == 0)
        }
    }

    @Test func aRetryWithinTheGraceWindowGetsTheSameSuccessor() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let first = try #require(try await client.signIn().string("refreshToken"))
            let a = try await client.post("/api/auth/refresh", ["refreshToken": first])
            server.clock.advance(by: 5)
            let b = try await client.post("/api/auth/refresh", ["refreshToken": first])
            #expect(b.status == .ok)
            #expect(a.string("refreshToken") == b.string("refreshToken"))
            // The successor still works.
            #expect(try await client.post("/api/auth/refresh", ["refreshToken": a.string("refreshToken")!]).status == .ok)
        }
    }

    /// Longer than any token issued and than the document allows: bad input, and nothing rotates.
    @Test func anOverlongRefreshTokenIsBadInputAndRotatesNothing() async throws {
        let server = try await TestServer()
        try await server.run { client in
            _ = try await client.signIn()
            try await client.post("/api/auth/refresh", ["refreshToken": String(repeating: "x", count: 513)])
                .expectFailure(.badRequest, "VALIDATION_ERROR", "refreshToken is too long")
            #expect(try await server.withDatabase { try await $0.count("refresh_tokens", where: "rotated_at IS NOT NULL") } == 0)
        }
    }

    @Test func reuseAfterTheGraceWindowRevokesTheWholeSession() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let signIn = try await client.signIn()
            let first = try #require(signIn.string("refreshToken"))
            let rotated = try await client.post("/api/auth/refresh", ["refreshToken": first])
            let successor = try #require(rotated.string("refreshToken"))
            server.clock.advance(by: 11)
            try await client.post("/api/auth/refresh", ["refreshToken": first])
                .expectFailure(.unauthorized, "TOKEN_REUSE_DETECTED", "Token reuse detected. All sessions revoked. Please log in again.")
            // The successor and the session's access tokens stop working too.
            try await client.post("/api/auth/refresh", ["refreshToken": successor])
                .expectFailure(.unauthorized, "INVALID_REFRESH_TOKEN", "Invalid refresh token")
            try await client.send(.get, "/api/auth/me", bearer: rotated.string("token"))
                .expectFailure(.unauthorized, "UNAUTHORIZED")
            try await client.send(.get, "/api/auth/me", bearer: signIn.string("token"))
                .expectFailure(.unauthorized, "UNAUTHORIZED")
        }
    }

    @Test func reuseWithinGraceAfterTheSuccessorWasUsedIsTheft() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let first = try #require(try await client.signIn().string("refreshToken"))
            let second = try #require(try await client.post("/api/auth/refresh", ["refreshToken": first]).string("refreshToken"))
            let third = try #require(try await client.post("/api/auth/refresh", ["refreshToken": second]).string("refreshToken"))
            try await client.post("/api/auth/refresh", ["refreshToken": first])
                .expectFailure(.unauthorized, "TOKEN_REUSE_DETECTED")
            try await client.post("/api/auth/refresh", ["refreshToken": third])
                .expectFailure(.unauthorized, "INVALID_REFRESH_TOKEN")
        }
    }

    @Test func twentyConcurrentRefreshesYieldExactlyOneSuccessor() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let first = try #require(try await client.signIn().string("refreshToken"))
            let replies = try await race(20) { try await client.post("/api/auth/refresh", ["refreshToken": first]) }
            #expect(replies.allSatisfy { $0.status == .ok })
            #expect(Set(replies.compactMap { $0.string("refreshToken") }).count == 1)
            let live = try await server.withDatabase { try await $0.count("refresh_tokens", where: "rotated_at IS NULL") }
            #expect(live == 1)
            let total = try await server.withDatabase { try await $0.count("refresh_tokens") }
            #expect(total == 2)
        }
    }

    @Test func concurrentRefreshesOfManySessionsEachRotateOnce() async throws {
        // On SQLite, exchanges that arrive together are claimed in one transaction
        // (`GroupCommit`): batches mix sessions, and a token presented twice in one batch.
        let server = try await TestServer()
        try await server.run { client in
            var firsts: [String] = []
            for _ in 0..<6 { firsts.append(try #require(try await client.signIn().string("refreshToken"))) }
            let presented = firsts + firsts + firsts
            let replies = try await withThrowingTaskGroup(of: (String, Reply).self) { group in
                for token in presented {
                    group.addTask { (token, try await client.post("/api/auth/refresh", ["refreshToken": token])) }
                }
                return try await group.reduce(into: [(String, Reply)]()) { $0.append($1) }
            }
            #expect(replies.allSatisfy { $0.1.status == .ok })
            // Each session got one successor, whichever of its three exchanges were batched together.
            let successors = Dictionary(grouping: replies, by: \.0).mapValues { Set($0.compactMap { $0.1.string("refreshToken") }) }
            #expect(successors.count == 6)
            #expect(successors.values.allSatisfy { $0.count == 1 })
            #expect(Set(successors.values.compactMap(\.first)).count == 6)
            let live = try await server.withDatabase { try await $0.count("refresh_tokens", where: "rotated_at IS NULL") }
            #expect(live == 6)
            // And each successor works.
            for successor in successors.values.compactMap(\.first) {
                #expect(try await client.post("/api/auth/refresh", ["refreshToken": successor]).status == .ok)
            }
        }
    }

    @Test func unknownAndLoggedOutTokensAreInvalid() async throws {
        let server = try await TestServer()
        try await server.run { client in
            try await client.post("/api/auth/refresh", ["refreshToken": "not-a-token-we-issued"])
                .expectFailure(.unauthorized, "INVALID_REFRESH_TOKEN", "Invalid refresh token")
            let signIn = try await client.signIn()
            #expect(try await client.send(.post, "/api/auth/logout", bearer: signIn.string("token")).status == .ok)
            try await client.post("/api/auth/refresh", ["refreshToken": signIn.string("refreshToken")!])
                .expectFailure(.unauthorized, "INVALID_REFRESH_TOKEN", "Invalid refresh token")
        }
    }

    @Test(arguments: [
        (TestClient.browser, 7 * 24 * 3600),
        (TestClient.iPhone, 90 * 24 * 3600),
        ("Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/120 Mobile Safari/537.36", 90 * 24 * 3600),
    ])
    func lifetimeDependsOnTheUserAgent(userAgent: String, lifetime: Int) async throws {
        let server = try await TestServer()
        try await server.run { client in
            let signIn = try await client.signIn(userAgent: userAgent)
            let token = try #require(signIn.string("refreshToken"))
            // Valid one second before its lifetime ends, expired one second after.
            server.clock.advance(by: Double(lifetime) - 1)
            let refreshed = try await client.post("/api/auth/refresh", ["refreshToken": token])
            #expect(refreshed.status == .ok)
            // Sliding: the successor lives a full lifetime from now.
            server.clock.advance(by: Double(lifetime) - 1)
            let again = try await client.post("/api/auth/refresh", ["refreshToken": refreshed.string("refreshToken")!])
            #expect(again.status == .ok)
            server.clock.advance(by: Double(lifetime) + 1)
            try await client.post("/api/auth/refresh", ["refreshToken": again.string("refreshToken")!])
                .expectFailure(.unauthorized, "REFRESH_TOKEN_EXPIRED", "Refresh token expired")
        }
    }

    @Test func accessTokenCarriesIsMobile() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let mobile = try await client.signIn(userAgent: TestClient.iPhone)
            let token = try #require(mobile.string("token"))
            let payload = try #require(Data(base64URLEncoded: token.split(separator: ".")[1]))
            let claims = try JSONDecoder().decode(AccessTokenClaims.self, from: payload)
            #expect(claims.isMobile == true)
        }
    }

    @Test(arguments: ["is_active = 0", "archived = 1"])
    func aDeactivatedUsersRefreshIsRefusedAndTheSessionRevoked(change: String) async throws {
        let server = try await TestServer()
        try await server.run { client in
            let signIn = try await client.signIn()
            try await server.withDatabase { db in
                try await db.withConnection {
                    try await $0.raw("UPDATE users SET \(unsafeRaw: change) WHERE email = 'admin@acme.test'").run()
                }
            }
            try await client.post("/api/auth/refresh", ["refreshToken": signIn.string("refreshToken")!])
                .expectFailure(.unauthorized, "USER_INACTIVE", "User account is no longer active")
            let revoked = try await server.withDatabase { try await $0.count("sessions", where: "revoked_at IS NOT NULL") }
            #expect(revoked == 1)
        }
    }
}
