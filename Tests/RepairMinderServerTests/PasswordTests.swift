import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import RepairMinderServer

/// Password reset, set and change, and the password policy (docs/API.md §9.2, §9.3).
@Suite struct PasswordTests {
    let admin = DemoFixtures.adminEmail
    let oldPassword = DemoFixtures.adminPassword
    let newPassword = "violet kettle 1987 drum"

    private func passwordHash(_ server: TestServer, _ email: String) async throws -> String? {
        try await server.withDatabase { db in try await AccountStore(database: db).user(email: email)?.passwordHash }
    }

    /// Login step 1's status with this password.
    private func loginStatus(_ client: TestClient, _ email: String, _ password: String) async throws -> HTTPResponse.Status {
        try await client.post("/api/auth/login", ["email": email, "password": password]).status
    }

    @Test(arguments: ["admin@acme.test", "nobody@acme.test", "deactivated@acme.test", "archived@acme.test"])
    func forgotAnswersTheSameForEveryAddressAndMailsOnlyLiveAccounts(email: String) async throws {
        let server = try await TestServer()
        try await server.run { client in
            let reply = try await client.post("/api/auth/password/forgot", ["email": email])
            #expect(reply.status == .ok)
            #expect(NSDictionary(dictionary: reply.json) == NSDictionary(dictionary: [
                "success": true, "data": ["message": "If an account exists, a password reset code has been sent"],
            ]))
            let mails = try await client.mail(to: email)
            #expect(mails.count == (email == admin ? 1 : 0))
            if let mail = mails.first { #expect(mail.subject == "Reset your Repair Minder password") }
        }
    }

    /// Reset codes follow the send limits of every emailed code (§7), for every address alike.
    @Test(arguments: ["admin@acme.test", "nobody@acme.test"])
    func resetCodesFollowTheSendLimits(email: String) async throws {
        let server = try await TestServer { $0.codeResendInterval = 30 }
        try await server.run { client in
            #expect(try await client.post("/api/auth/password/forgot", ["email": email]).status == .ok)
            let limited = try await client.post("/api/auth/password/forgot", ["email": email])
            limited.expectFailure(.tooManyRequests, "RATE_LIMITED")
            #expect(limited.headers[.retryAfter].flatMap(Int.init).map { (1...30).contains($0) } == true)
            #expect(try await client.mail(to: email).count == (email == admin ? 1 : 0))
        }
    }

    @Test func aResetSetsThePasswordRevokesEverySessionAndDoesNotSignIn() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let signedIn = try await client.signIn()
            let refreshToken = try #require(signedIn.string("refreshToken"))
            #expect(try await client.post("/api/auth/password/forgot", ["email": admin]).status == .ok)
            let code = try await client.latestCode(to: admin)
            let reply = try await client.post("/api/auth/password/reset", ["email": admin, "code": code, "password": newPassword])
            #expect(reply.status == .ok)
            #expect(NSDictionary(dictionary: reply.json) == NSDictionary(dictionary: [
                "success": true, "data": ["message": "Your password has been reset. Please sign in."],
            ]))
            try await client.post("/api/auth/refresh", ["refreshToken": refreshToken]).expectFailure(.unauthorized, "INVALID_REFRESH_TOKEN")
            try await client.send(.get, "/api/auth/me", bearer: signedIn.string("token")).expectFailure(.unauthorized, "UNAUTHORIZED")
            #expect(try await loginStatus(client, admin, oldPassword) == .unauthorized)
            #expect(try await loginStatus(client, admin, newPassword) == .ok)
            // The code worked once.
            try await client.post("/api/auth/password/reset", ["email": admin, "code": code, "password": "another fine password"])
                .expectFailure(.unauthorized, "INVALID_CODE", "Invalid or expired code")
        }
    }

    @Test func aWrongOrExpiredCodeChangesNothing() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let before = try await passwordHash(server, admin)
            #expect(try await client.post("/api/auth/password/forgot", ["email": admin]).status == .ok)
            let code = try await client.latestCode(to: admin)
            let wrong = code == "000000" ? "111111" : "000000"
            try await client.post("/api/auth/password/reset", ["email": admin, "code": wrong, "password": newPassword])
                .expectFailure(.unauthorized, "INVALID_CODE", "Invalid or expired code")
            server.clock.advance(by: 601)
            try await client.post("/api/auth/password/reset", ["email": admin, "code": code, "password": newPassword])
                .expectFailure(.unauthorized, "INVALID_CODE")
            #expect(try await passwordHash(server, admin) == before)
            // A code for another purpose is not a reset code.
            #expect(try await client.post("/api/auth/magic-link/request", ["email": admin]).status == .ok)
            let magic = try await client.latestCode(to: admin)
            try await client.post("/api/auth/password/reset", ["email": admin, "code": magic, "password": newPassword])
                .expectFailure(.unauthorized, "INVALID_CODE")
            #expect(try await passwordHash(server, admin) == before)
        }
    }

    @Test(arguments: [
        ("short1!", "Password must be at least 8 characters"),
        (String(repeating: "a1", count: 64) + "b", "Password must be at most 128 characters"),
        // Counted in NFKC: 129 decomposed "é" are 129 characters, not 258.
        (String(repeating: "e\u{301}", count: 129), "Password must be at most 128 characters"),
        (String(repeating: "\u{0}", count: 8), "Password must not contain the NUL character"),
        ("correct horse\u{0}battery", "Password must not contain the NUL character"),
        ("Admin@Acme.test", "Password must not be your email address"),
        ("password1", "This password is too common. Choose another."),
        ("Sunshine1", "This password is too common. Choose another."),
    ])
    func aWeakPasswordIsRefusedByRuleAndLeavesTheCodeUnused(password: String, message: String) async throws {
        let server = try await TestServer()
        try await server.run { client in
            let before = try await passwordHash(server, admin)
            #expect(try await client.post("/api/auth/password/forgot", ["email": admin]).status == .ok)
            let code = try await client.latestCode(to: admin)
            try await client.post("/api/auth/password/reset", ["email": admin, "code": code, "password": password])
                .expectFailure(.badRequest, "WEAK_PASSWORD", message)
            #expect(try await passwordHash(server, admin) == before)
            #expect(try await client.post("/api/auth/password/reset", ["email": admin, "code": code, "password": newPassword]).status == .ok)
        }
    }

    @Test func seventyTwoBytesAndEightCharactersAreAccepted() async throws {
        let policy = try PasswordPolicy.bundled()
        #expect(throws: Never.self) { try policy.check(String(repeating: "é", count: 36), email: "a@b.test") }
        #expect(throws: Never.self) { try policy.check("zq8#Lm2v", email: "a@b.test") }
    }

    @Test func twoResetsWithOneCodeOneWins() async throws {
        let server = try await TestServer()
        try await server.run { client in
            #expect(try await client.post("/api/auth/password/forgot", ["email": admin]).status == .ok)
            let code = try await client.latestCode(to: admin)
            let passwords = (1...6).map { "racing password number \($0)" }
            let statuses = try await withThrowingTaskGroup(of: (String, Int).self) { group in
                for password in passwords {
                    group.addTask {
                        (password, try await client.post("/api/auth/password/reset", ["email": admin, "code": code, "password": password]).status.code)
                    }
                }
                return try await group.reduce(into: [(String, Int)]()) { $0.append($1) }
            }
            let winners = statuses.filter { $0.1 == 200 }
            #expect(winners.count == 1, "\(statuses)")
            for (password, _) in statuses {
                #expect(try await loginStatus(client, admin, password) == (password == winners.first?.0 ? .ok : .unauthorized))
            }
        }
    }

    @Test func changeNeedsTheCurrentPasswordAndKeepsOnlyThisSession() async throws {
        let server = try await TestServer { $0.loginFailureLimit = 3 }
        try await server.run { client in
            let other = try await client.signIn(userAgent: TestClient.iPhone)
            let this = try await client.signIn()
            let token = try #require(this.string("token"))
            let before = try await passwordHash(server, admin)
            try await client.send(.put, "/api/users/me/password", json: #"{"newPassword":"\#(newPassword)"}"#, bearer: token)
                .expectFailure(.badRequest, "VALIDATION_ERROR", "currentPassword is required")
            try await client.send(
                .put, "/api/users/me/password", json: #"{"currentPassword":"wrong","newPassword":"\#(newPassword)"}"#, bearer: token)
                .expectFailure(.unauthorized, "INVALID_CREDENTIALS", "Invalid credentials")
            try await client.send(
                .put, "/api/users/me/password", json: #"{"currentPassword":"\#(oldPassword)","newPassword":"password1"}"#, bearer: token)
                .expectFailure(.badRequest, "WEAK_PASSWORD")
            #expect(try await passwordHash(server, admin) == before)
            #expect(try await client.send(.get, "/api/auth/me", bearer: other.string("token")).status == .ok)

            let changed = try await client.send(
                .put, "/api/users/me/password", json: #"{"currentPassword":"\#(oldPassword)","newPassword":"\#(newPassword)"}"#, bearer: token)
            #expect(changed.status == .ok)
            #expect(changed.string("message") == "Password updated")
            #expect(try await client.send(.get, "/api/auth/me", bearer: token).status == .ok)
            #expect(try await client.post("/api/auth/refresh", ["refreshToken": this.string("refreshToken") ?? ""]).status == .ok)
            try await client.send(.get, "/api/auth/me", bearer: other.string("token")).expectFailure(.unauthorized, "UNAUTHORIZED")
            try await client.post("/api/auth/refresh", ["refreshToken": other.string("refreshToken") ?? ""], userAgent: TestClient.iPhone)
                .expectFailure(.unauthorized, "INVALID_REFRESH_TOKEN")
            #expect(try await loginStatus(client, admin, newPassword) == .ok)
        }
    }

    /// Guessing the current password runs into the per-account failure budget (§7). Those
    /// guesses count toward the address's sign-in ceiling, not the user's own network's
    /// sign-in budget: the user can still sign in.
    @Test func wrongCurrentPasswordsAreCountedLikeLogins() async throws {
        let server = try await TestServer { $0.loginFailureLimit = 3 }
        try await server.run { client in
            let token = try #require(try await client.signIn().string("token"))
            for _ in 1...3 {
                try await client.send(
                    .put, "/api/users/me/password", json: #"{"currentPassword":"wrong","newPassword":"\#(newPassword)"}"#, bearer: token)
                    .expectFailure(.unauthorized, "INVALID_CREDENTIALS")
            }
            try await client.send(
                .put, "/api/users/me/password", json: #"{"currentPassword":"\#(oldPassword)","newPassword":"\#(newPassword)"}"#, bearer: token)
                .expectFailure(.tooManyRequests, "RATE_LIMITED")
            #expect(try await loginStatus(client, admin, oldPassword) == .ok)
        }
    }

    /// A magic-link user without a password sets one (no current password asked), then signs in with it.
    @Test func aUserWithoutAPasswordSetsOne() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let email = "nopassword@acme.test"
            #expect(try await client.post("/api/auth/magic-link/request", ["email": email]).status == .ok)
            let code = try await client.latestCode(to: email)
            let token = try #require(try await client.post("/api/auth/magic-link/verify-code", ["email": email, "code": code]).string("token"))
            let set = try await client.send(
                .put, "/api/users/me/password", json: #"{"currentPassword":"ignored","newPassword":"\#(newPassword)"}"#, bearer: token)
            #expect(set.status == .ok)
            #expect(try await client.send(.get, "/api/auth/me", bearer: token).data["hasPassword"] as? Bool == true)
            #expect(try await loginStatus(client, email, newPassword) == .ok)
        }
    }

    /// Allowed while the company awaits approval (§4 quarantine).
    @Test func changeIsAllowedInQuarantine() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let token = try #require(try await client.signIn("owner@pending.test", "pending password").string("token"))
            let changed = try await client.send(
                .put, "/api/users/me/password", json: #"{"currentPassword":"pending password","newPassword":"\#(newPassword)"}"#,
                bearer: token)
            #expect(changed.status == .ok)
        }
    }
}
