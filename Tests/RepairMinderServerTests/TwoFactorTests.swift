import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import RepairMinderServer

/// Login steps 2 and 3 (docs/API.md §2.2, §2.3).
@Suite struct TwoFactorTests {
    let admin = DemoFixtures.adminEmail
    let password = DemoFixtures.adminPassword

    @Test func fullFlowAnswersTheTokenResponse() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let userId = try await client.login(admin, password)
            let request = try await client.post("/api/auth/2fa/request", ["userId": userId, "email": admin])
            #expect(request.status == .ok)
            #expect(request.string("message") == "2FA code sent to your email")
            let code = try await client.latestCode(to: admin)
            let reply = try await client.post("/api/auth/2fa/verify", ["userId": userId, "code": code])
            #expect(reply.status == .ok)
            #expect((reply.string("token") ?? "").split(separator: ".").count == 3)
            #expect((reply.string("refreshToken") ?? "").count >= 43)
            #expect(reply.data["expiresIn"] as? Int == 900)
            let user = try #require(reply.data["user"] as? [String: Any])
            #expect(user["id"] as? String == userId)
            #expect(user["first_name"] as? String == "Ada")
            #expect(user["is_active"] as? Int == 1)
            #expect(user["magic_link_enabled"] as? Int == 1)
            #expect(user["company_status"] as? String == "active")
            #expect(user["role"] as? String == "admin")
            #expect(user["last_login"] is String)
            let company = try #require(reply.data["company"] as? [String: Any])
            #expect(company["name"] as? String == "Acme Repairs")
            #expect(company["currency_code"] as? String == "GBP")
            #expect(company["vat_rate_repair"] as? String == "20.00")
            #expect(company["vat_rate_device_purchase"] as? String == "0.00")
            #expect(company.keys.contains("logo_url"))
        }
    }

    @Test func requestWithoutAnOpenChallengeIsRefused() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let userId = try await server.withDatabase { db in
                try #require(try await AccountStore(database: db).user(email: "admin@acme.test")).id
            }
            try await client.post("/api/auth/2fa/request", ["userId": userId, "email": admin])
                .expectFailure(.unauthorized, "LOGIN_CHALLENGE_EXPIRED", "Login session expired. Please log in again.")
            #expect(try await client.mail(to: admin).isEmpty)
        }
    }

    @Test func requestWithAnotherEmailIsRefused() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let userId = try await client.login(admin, password)
            try await client.post("/api/auth/2fa/request", ["userId": userId, "email": "engineer@acme.test"])
                .expectFailure(.unauthorized, "LOGIN_CHALLENGE_EXPIRED")
            #expect(try await client.mail(to: "engineer@acme.test").isEmpty)
            #expect(try await client.mail(to: admin).isEmpty)
        }
    }

    @Test func verifyWithAValidUserIdButNoChallengeIsRefused() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let userId = try await server.withDatabase { db in
                try #require(try await AccountStore(database: db).user(email: "admin@acme.test")).id
            }
            try await client.post("/api/auth/2fa/verify", ["userId": userId, "code": "123456"])
                .expectFailure(.unauthorized, "LOGIN_CHALLENGE_EXPIRED", "Login session expired. Please log in again.")
            let sessions = try await server.withDatabase { try await $0.count("sessions") }
            #expect(sessions == 0)
        }
    }

    @Test func theChallengeExpiresAfterTenMinutes() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let userId = try await client.login(admin, password)
            server.clock.advance(by: 601)
            try await client.post("/api/auth/2fa/request", ["userId": userId, "email": admin])
                .expectFailure(.unauthorized, "LOGIN_CHALLENGE_EXPIRED")
        }
    }

    @Test func wrongCodeIsRefusedAndCounted() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let userId = try await client.login(admin, password)
            let code = try await client.requestCode(userId: userId, email: admin)
            let wrong = code == "000000" ? "111111" : "000000"
            try await client.post("/api/auth/2fa/verify", ["userId": userId, "code": wrong])
                .expectFailure(.unauthorized, "INVALID_CODE", "Invalid verification code")
            let attempts = try await server.withDatabase { try await $0.count("login_challenges", where: "failed_attempts = 1") }
            #expect(attempts == 1)
            let sessions = try await server.withDatabase { try await $0.count("sessions") }
            #expect(sessions == 0)
            // The right code still works after a wrong one.
            let reply = try await client.post("/api/auth/2fa/verify", ["userId": userId, "code": code])
            #expect(reply.status == .ok)
        }
    }

    @Test func fiveWrongCodesCloseTheChallengeEvenAcrossResends() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let userId = try await client.login(admin, password)
            var code = try await client.requestCode(userId: userId, email: admin)
            for attempt in 1...5 {
                if attempt == 3 {
                    // Requesting a new code does not reset the budget.
                    code = try await client.requestCode(userId: userId, email: admin)
                }
                let wrong = code == "000000" ? "111111" : "000000"
                let reply = try await client.post("/api/auth/2fa/verify", ["userId": userId, "code": wrong])
                if attempt < 5 {
                    reply.expectFailure(.unauthorized, "INVALID_CODE", "Invalid verification code")
                } else {
                    reply.expectFailure(.unauthorized, "TOO_MANY_ATTEMPTS", "Too many attempts. Please log in again.")
                }
            }
            // Closed: even the right code fails now, and no new code can be requested.
            try await client.post("/api/auth/2fa/verify", ["userId": userId, "code": code])
                .expectFailure(.unauthorized, "LOGIN_CHALLENGE_EXPIRED")
            try await client.post("/api/auth/2fa/request", ["userId": userId, "email": admin])
                .expectFailure(.unauthorized, "LOGIN_CHALLENGE_EXPIRED")
            let sessions = try await server.withDatabase { try await $0.count("sessions") }
            #expect(sessions == 0)
        }
    }

    @Test func aCodeWorksOnce() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let userId = try await client.login(admin, password)
            let code = try await client.requestCode(userId: userId, email: admin)
            #expect(try await client.post("/api/auth/2fa/verify", ["userId": userId, "code": code]).status == .ok)
            try await client.post("/api/auth/2fa/verify", ["userId": userId, "code": code])
                .expectFailure(.unauthorized, "LOGIN_CHALLENGE_EXPIRED")
            let sessions = try await server.withDatabase { try await $0.count("sessions") }
            #expect(sessions == 1)
        }
    }

    @Test func aNewCodeReplacesThePreviousOne() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let userId = try await client.login(admin, password)
            var first = try await client.requestCode(userId: userId, email: admin)
            var second = try await client.requestCode(userId: userId, email: admin)
            while first == second {  // one in a million: ask again so the test means something
                first = second
                second = try await client.requestCode(userId: userId, email: admin)
            }
            try await client.post("/api/auth/2fa/verify", ["userId": userId, "code": first])
                .expectFailure(.unauthorized, "INVALID_CODE")
            #expect(try await client.post("/api/auth/2fa/verify", ["userId": userId, "code": second]).status == .ok)
        }
    }

    @Test func anExpiredCodeIsRefused() async throws {
        let server = try await TestServer { $0.codeTTL = 60 }
        try await server.run { client in
            let userId = try await client.login(admin, password)
            let code = try await client.requestCode(userId: userId, email: admin)
            server.clock.advance(by: 61)
            try await client.post("/api/auth/2fa/verify", ["userId": userId, "code": code])
                .expectFailure(.unauthorized, "CODE_EXPIRED", "Verification code expired")
            let sessions = try await server.withDatabase { try await $0.count("sessions") }
            #expect(sessions == 0)
        }
    }

    @Test func concurrentVerifiesOfOneCodeSignInOnce() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let userId = try await client.login(admin, password)
            let code = try await client.requestCode(userId: userId, email: admin)
            let statuses = try await race(10) {
                try await client.post("/api/auth/2fa/verify", ["userId": userId, "code": code]).status.code
            }
            #expect(statuses.filter { $0 == 200 }.count == 1)
            #expect(statuses.filter { $0 == 401 }.count == 9)
            let sessions = try await server.withDatabase { try await $0.count("sessions") }
            #expect(sessions == 1)
        }
    }

    @Test func deactivatedBetweenPasswordAndCodeGetsNoToken() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let userId = try await client.login(admin, password)
            let code = try await client.requestCode(userId: userId, email: admin)
            try await server.withDatabase { db in
                try await db.withConnection { try await $0.raw("UPDATE users SET is_active = 0 WHERE id = \(bind: userId)").run() }
            }
            try await client.post("/api/auth/2fa/verify", ["userId": userId, "code": code])
                .expectFailure(.unauthorized, "ACCOUNT_DEACTIVATED")
            let sessions = try await server.withDatabase { try await $0.count("sessions") }
            #expect(sessions == 0)
        }
    }
}
