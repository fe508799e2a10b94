import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import RepairMinderServer

/// The code-guessing budgets of docs/API.md §7 that span several codes: wrong second factors
/// per staff user across login challenges, and wrong emailed codes per address across codes.
@Suite struct GuessBudgetTests {
    let admin = DemoFixtures.adminEmail

    /// "Log in, guess 5 times" repeated: the second login's tries run out the user's hourly
    /// budget, and a third login with the right password does not reset it: even the right
    /// code is refused with 429 for the rest of the hour, and nothing is spent or signed in.
    @Test func wrongSecondFactorsAcrossLoginsRunIntoTheUsersBudget() async throws {
        let server = try await TestServer { $0.secondFactorFailureLimit = 10 }
        try await server.run { client in
            let token = try #require(try await client.signIn().string("token"))
            let (_, recovery) = try await TOTPTests.enrol(client, server: server, token: token)
            for _ in 1...2 {
                let userId = try await client.login(admin, DemoFixtures.adminPassword)
                for attempt in 1...5 {
                    let wrong = attempt % 2 == 0 ? "ZZZZ2345" : "000000"
                    let reply = try await client.post("/api/auth/2fa/verify", ["userId": userId, "code": wrong])
                    #expect(reply.code == (attempt < 5 ? "INVALID_CODE" : "TOO_MANY_ATTEMPTS"))
                }
            }
            let sessionsBefore = try await server.withDatabase { try await $0.count("sessions") }
            let userId = try await client.login(admin, DemoFixtures.adminPassword)
            let limited = try await client.post("/api/auth/2fa/verify", ["userId": userId, "code": recovery[0]])
            limited.expectFailure(.tooManyRequests, "RATE_LIMITED")
            let retryAfter = try #require(limited.headers[.retryAfter].flatMap(Int.init))
            #expect((3590...3600).contains(retryAfter))
            // So is the emailed code, right as it is.
            let emailed = try await client.requestCode(userId: userId, email: admin)
            try await client.post("/api/auth/2fa/verify", ["userId": userId, "code": emailed])
                .expectFailure(.tooManyRequests, "RATE_LIMITED")
            #expect(try await server.withDatabase { try await $0.count("sessions") } == sessionsBefore)
            #expect(try await client.send(.get, "/api/auth/totp/status", bearer: token).data["recoveryCodesRemaining"] as? Int == 10)
            // After the hour the budget is whole again, and the unspent recovery code signs in.
            server.clock.advance(by: 3601)
            let again = try await client.login(admin, DemoFixtures.adminPassword)
            #expect(try await client.post("/api/auth/2fa/verify", ["userId": again, "code": recovery[0]]).status == .ok)
        }
    }

    /// Only wrong codes count: three rounds of three wrong codes and a right one leave room
    /// for exactly one more wrong code before the budget of 10 is used up.
    @Test func rightSecondFactorsAreNotCounted() async throws {
        let server = try await TestServer { $0.secondFactorFailureLimit = 10 }
        try await server.run { client in
            for _ in 1...3 {
                let userId = try await client.login(admin, DemoFixtures.adminPassword)
                let code = try await client.requestCode(userId: userId, email: admin)
                let wrong = code == "000000" ? "111111" : "000000"
                for _ in 1...3 {
                    try await client.post("/api/auth/2fa/verify", ["userId": userId, "code": wrong])
                        .expectFailure(.unauthorized, "INVALID_CODE")
                }
                #expect(try await client.post("/api/auth/2fa/verify", ["userId": userId, "code": code]).status == .ok)
            }
            let userId = try await client.login(admin, DemoFixtures.adminPassword)
            try await client.post("/api/auth/2fa/verify", ["userId": userId, "code": "000000"])
                .expectFailure(.unauthorized, "INVALID_CODE")
            try await client.post("/api/auth/2fa/verify", ["userId": userId, "code": "000000"])
                .expectFailure(.tooManyRequests, "RATE_LIMITED")
        }
    }

    /// Concurrent wrong guesses cannot overrun the budget: of 20 at once, exactly 10 are
    /// compared and the other 10 answer 429.
    @Test func concurrentGuessesAreCountedExactly() async throws {
        let server = try await TestServer { $0.secondFactorFailureLimit = 10; $0.maxCodeAttempts = 100 }
        try await server.run { client in
            let userId = try await client.login(admin, DemoFixtures.adminPassword)
            let codes = try await race(20) {
                try await client.post("/api/auth/2fa/verify", ["userId": userId, "code": "000000"]).code ?? ""
            }
            #expect(codes.filter { $0 == "INVALID_CODE" }.count == 10, "\(codes)")
            #expect(codes.filter { $0 == "RATE_LIMITED" }.count == 10, "\(codes)")
        }
    }

    /// Reissuing does not bring fresh guesses: two codes' worth of wrong tries use up the
    /// address's hourly budget, and the third code, right as it is, answers 429 and stays unused.
    @Test(arguments: [
        ("/api/auth/magic-link/request", "/api/auth/magic-link/verify-code", "nopassword@acme.test"),
        ("/api/customer/auth/request-magic-link", "/api/customer/auth/verify-code", "jane@example.test"),
    ])
    func wrongEmailedCodesAcrossReissuedCodesRunIntoTheAddressBudget(request: String, verify: String, email: String) async throws {
        let server = try await TestServer { $0.wrongCodeLimit = 10 }
        try await server.run { client in
            for _ in 1...2 {
                #expect(try await client.post(request, ["email": email]).status == .ok)
                let code = try await client.latestCode(to: email)
                let wrong = code == "000000" ? "111111" : "000000"
                for _ in 1...5 {
                    try await client.post(verify, ["email": email, "code": wrong]).expectFailure(.unauthorized, "INVALID_CODE")
                }
            }
            #expect(try await client.post(request, ["email": email]).status == .ok)
            let code = try await client.latestCode(to: email)
            let limited = try await client.post(verify, ["email": email, "code": code])
            limited.expectFailure(.tooManyRequests, "RATE_LIMITED")
            let retryAfter = try #require(limited.headers[.retryAfter].flatMap(Int.init))
            #expect((3590...3600).contains(retryAfter))
            let unused = try await server.withDatabase { try await $0.count("magic_codes", where: "used_at IS NULL") }
            #expect(unused == 1)
            // Another address has its own budget.
            let other = request.contains("customer") ? "multi@example.test" : DemoFixtures.engineerEmail
            #expect(try await client.post(request, ["email": other]).status == .ok)
            try await client.post(verify, ["email": other, "code": "000000"]).expectFailure(.unauthorized, "INVALID_CODE")
        }
    }

    /// A right emailed code is taken back from the budget.
    @Test func rightEmailedCodesAreNotCounted() async throws {
        let server = try await TestServer { $0.wrongCodeLimit = 3 }
        try await server.run { client in
            let email = "nopassword@acme.test"
            for _ in 1...4 {
                #expect(try await client.post("/api/auth/magic-link/request", ["email": email]).status == .ok)
                let code = try await client.latestCode(to: email)
                #expect(try await client.post("/api/auth/magic-link/verify-code", ["email": email, "code": code]).status == .ok)
            }
        }
    }
}
