import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import RepairMinderServer

/// Login step 1 (docs/API.md §2.1).
@Suite struct LoginTests {
    @Test func correctPasswordOpensAChallengeAndAnswersTheSummary() async throws {
        let server = try await TestServer()
        try await server.run { client in
            // Emails are trimmed and case-insensitive.
            let reply = try await client.post(
                "/api/auth/login", ["email": "  Admin@ACME.test ", "password": DemoFixtures.adminPassword])
            #expect(reply.status == .ok)
            #expect(reply.json["success"] as? Bool == true)
            #expect(reply.data["requiresTwoFactor"] as? Bool == true)
            #expect(reply.string("email") == "admin@acme.test")
            let user = try #require(reply.data["user"] as? [String: Any])
            #expect(user["firstName"] as? String == "Ada")
            #expect(user["lastName"] as? String == "Admin")
            #expect(user["id"] as? String == reply.string("userId"))
            #expect(user["companyId"] is String)
            #expect(reply.data["methods"] as? [String] == ["email"])
            // No code is sent until step 2 asks for one.
            #expect(try await client.mail(to: "admin@acme.test").isEmpty)
            let open = try await server.withDatabase { try await $0.count("login_challenges", where: "closed_at IS NULL") }
            #expect(open == 1)
        }
    }

    @Test func unknownEmailAndWrongPasswordGiveTheSameAnswer() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let unknown = try await client.post("/api/auth/login", ["email": "nobody@acme.test", "password": "whatever"])
            let wrong = try await client.post("/api/auth/login", ["email": DemoFixtures.adminEmail, "password": "wrong"])
            unknown.expectFailure(.unauthorized, "INVALID_CREDENTIALS", "Invalid credentials")
            wrong.expectFailure(.unauthorized, "INVALID_CREDENTIALS", "Invalid credentials")
            #expect(NSDictionary(dictionary: unknown.json) == NSDictionary(dictionary: wrong.json))
            let challenges = try await server.withDatabase { try await $0.count("login_challenges") }
            #expect(challenges == 0)
        }
    }

    @Test func unknownEmailTakesAboutAsLongAsAWrongPassword() async throws {
        // Real bcrypt cost so the difference would show if the unknown email skipped hashing.
        let server = try await TestServer { $0.bcryptCost = 10 }
        try await server.run { client in
            func time(_ email: String) async throws -> Double {
                let start = ContinuousClock.now
                _ = try await client.post("/api/auth/login", ["email": email, "password": "wrong password"])
                let elapsed = ContinuousClock.now - start
                return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            }
            _ = try await time(DemoFixtures.adminEmail)  // warm up
            var unknown: [Double] = [], known: [Double] = []
            for _ in 0..<3 {
                unknown.append(try await time("nobody@acme.test"))
                known.append(try await time(DemoFixtures.adminEmail))
            }
            // Skipping bcrypt would make unknown emails ~100 times faster; the wide bounds only
            // absorb noise from tests running in parallel.
            let unknownMedian = unknown.sorted()[1], knownMedian = known.sorted()[1]
            #expect(unknownMedian > knownMedian * 0.25, "unknown \(unknownMedian)s vs known \(knownMedian)s")
            #expect(unknownMedian < knownMedian * 4.0, "unknown \(unknownMedian)s vs known \(knownMedian)s")
        }
    }

    @Test(arguments: [
        ("deactivated@acme.test", "deactivated password", "ACCOUNT_DEACTIVATED", "Account is deactivated"),
        ("archived@acme.test", "archived password", "ACCOUNT_ARCHIVED", "Account has been archived and cannot login"),
    ])
    func inactiveAccountsAreToldOnlyAfterThePasswordIsRight(email: String, password: String, code: String, message: String) async throws {
        let server = try await TestServer()
        try await server.run { client in
            try await client.post("/api/auth/login", ["email": email, "password": password])
                .expectFailure(.unauthorized, code, message)
            // A wrong password reveals nothing about the account's state.
            try await client.post("/api/auth/login", ["email": email, "password": "not it"])
                .expectFailure(.unauthorized, "INVALID_CREDENTIALS", "Invalid credentials")
            let challenges = try await server.withDatabase { try await $0.count("login_challenges") }
            #expect(challenges == 0)
        }
    }

    @Test func userWithoutPasswordIsToldToUseMagicLink() async throws {
        let server = try await TestServer()
        try await server.run { client in
            try await client.post("/api/auth/login", ["email": "nopassword@acme.test", "password": "anything"])
                .expectFailure(
                    .unauthorized, "NO_PASSWORD_SET",
                    "No password set. Please use Magic Link login or set a password in Settings.")
        }
    }

    @Test func aNewLoginClosesTheEarlierChallenge() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let userId = try await client.login(DemoFixtures.adminEmail, DemoFixtures.adminPassword)
            let firstCode = try await client.requestCode(userId: userId, email: DemoFixtures.adminEmail)
            _ = try await client.login(DemoFixtures.adminEmail, DemoFixtures.adminPassword)
            // The first challenge's code belongs to a closed challenge and cannot complete the new one.
            try await client.post("/api/auth/2fa/verify", ["userId": userId, "code": firstCode])
                .expectFailure(.unauthorized, "INVALID_CODE", "Invalid verification code")
        }
    }
}
