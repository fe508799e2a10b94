import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import RepairMinderServer

/// Binding login steps 2 and 3 to step 1 (docs/API.md §2.3): knowing a `userId` is not enough
/// to burn a victim's tries or replace their code.
@Suite struct ChallengeBindingTests {
    let admin = DemoFixtures.adminEmail
    static let otherBrowser = "Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0"

    /// Step 1's challenge with its token.
    private func login(_ client: TestClient, userAgent: String = TestClient.browser) async throws -> (userId: String, token: String) {
        let reply = try await client.post("/api/auth/login", ["email": admin, "password": DemoFixtures.adminPassword], userAgent: userAgent)
        let token = try #require(reply.string("challengeToken"))
        return (try #require(reply.string("userId")), token)
    }

    /// The challenge is untouched: no try spent, still open, no new code.
    private func expectUntouched(_ server: TestServer, mails: Int, _ client: TestClient, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let untouched = try await server.withDatabase {
            try await $0.count("login_challenges", where: "failed_attempts = 0 AND closed_at IS NULL")
        }
        #expect(untouched == 1, sourceLocation: sourceLocation)
        #expect(try await client.mail(to: admin).count == mails, sourceLocation: sourceLocation)
    }

    @Test func stepOneReturnsA256BitTokenStoredOnlyAsAHash() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let (_, token) = try await login(client)
            #expect(token.count == 43)
            #expect(Data(base64URLEncoded: token)?.count == 32)
            let plain = try await server.withDatabase { try await $0.count("login_challenges", where: "token_hash = '\(token)'") }
            #expect(plain == 0)
        }
    }

    /// With the token, the steps work from anywhere (a phone that changes network mid-login).
    @Test func theTokenCarriesTheStepsAcrossUserAgents() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let (userId, token) = try await login(client)
            let request = try await client.post(
                "/api/auth/2fa/request", ["userId": userId, "email": admin, "challengeToken": token], userAgent: Self.otherBrowser)
            #expect(request.status == .ok)
            let code = try await client.latestCode(to: admin)
            let reply = try await client.post(
                "/api/auth/2fa/verify", ["userId": userId, "code": code, "challengeToken": token], userAgent: TestClient.iPhone)
            #expect(reply.status == .ok)
        }
    }

    /// A wrong token is refused as if there were no challenge, and spends nothing: the
    /// attacker's ten tries and code requests leave the victim's login as it was.
    @Test func aWrongTokenSpendsNothingAndReplacesNoCode() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let (userId, token) = try await login(client)
            let code = try await client.requestCode(userId: userId, email: admin)
            let forged = String(token.reversed())
            for _ in 1...10 {
                try await client.post("/api/auth/2fa/verify", ["userId": userId, "code": "000000", "challengeToken": forged])
                    .expectFailure(.unauthorized, "LOGIN_CHALLENGE_EXPIRED", "Login session expired. Please log in again.")
            }
            try await client.post("/api/auth/2fa/request", ["userId": userId, "email": admin, "challengeToken": forged])
                .expectFailure(.unauthorized, "LOGIN_CHALLENGE_EXPIRED")
            try await expectUntouched(server, mails: 1, client)
            let reply = try await client.post("/api/auth/2fa/verify", ["userId": userId, "code": code, "challengeToken": token])
            #expect(reply.status == .ok)
        }
    }

    /// Without a token (a seed client), another User-Agent is refused and spends nothing.
    @Test func withoutATokenAnotherUserAgentSpendsNothing() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let (userId, _) = try await login(client)
            let code = try await client.requestCode(userId: userId, email: admin)
            for _ in 1...10 {
                try await client.post("/api/auth/2fa/verify", ["userId": userId, "code": "000000"], userAgent: Self.otherBrowser)
                    .expectFailure(.unauthorized, "LOGIN_CHALLENGE_EXPIRED")
            }
            try await client.post("/api/auth/2fa/request", ["userId": userId, "email": admin], userAgent: Self.otherBrowser)
                .expectFailure(.unauthorized, "LOGIN_CHALLENGE_EXPIRED")
            try await expectUntouched(server, mails: 1, client)
            #expect(try await client.post("/api/auth/2fa/verify", ["userId": userId, "code": code]).status == .ok)
        }
    }

    /// Without a token, another client IP (127.0.0.2, same User-Agent) is refused and spends nothing.
    @Test func withoutATokenAnotherAddressSpendsNothing() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            let port = try #require(client.client.port)
            let (userId, _) = try await login(client)
            let code = try await client.requestCode(userId: userId, email: admin)
            for body in [
                #"{"userId":"\#(userId)","code":"000000"}"#, #"{"userId":"\#(userId)","code":"\#(code)"}"#,
            ] {
                let reply = try LoopbackHTTP.post(
                    port: port, path: "/api/auth/2fa/verify", json: body, from: "127.0.0.2", userAgent: TestClient.browser)
                #expect(reply.status == 401)
                #expect(reply.body.contains("LOGIN_CHALLENGE_EXPIRED"))
            }
            try await expectUntouched(server, mails: 1, client)
            #expect(try await client.post("/api/auth/2fa/verify", ["userId": userId, "code": code]).status == .ok)
        }
    }

    /// `--require-challenge-token`: a step without it is bad input and changes nothing.
    @Test func requiredTokenMissingIsAValidationError() async throws {
        let server = try await TestServer { $0.requireChallengeToken = true }
        try await server.run { client in
            let (userId, token) = try await login(client)
            try await client.post("/api/auth/2fa/request", ["userId": userId, "email": admin])
                .expectFailure(.badRequest, "VALIDATION_ERROR", "challengeToken is required")
            try await expectUntouched(server, mails: 0, client)
            #expect(try await client.post("/api/auth/2fa/request", ["userId": userId, "email": admin, "challengeToken": token]).status == .ok)
            let code = try await client.latestCode(to: admin)
            try await client.post("/api/auth/2fa/verify", ["userId": userId, "code": code])
                .expectFailure(.badRequest, "VALIDATION_ERROR", "challengeToken is required")
            try await expectUntouched(server, mails: 1, client)
            #expect(try await client.post("/api/auth/2fa/verify", ["userId": userId, "code": code, "challengeToken": token]).status == .ok)
        }
    }

    /// A newer login's token does not open the older challenge, and vice versa.
    @Test func aTokenBelongsToItsOwnChallenge() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let (userId, first) = try await login(client)
            let (_, second) = try await login(client)
            try await client.post("/api/auth/2fa/request", ["userId": userId, "email": admin, "challengeToken": first])
                .expectFailure(.unauthorized, "LOGIN_CHALLENGE_EXPIRED")
            #expect(try await client.post("/api/auth/2fa/request", ["userId": userId, "email": admin, "challengeToken": second]).status == .ok)
        }
    }
}
