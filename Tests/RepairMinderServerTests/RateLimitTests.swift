import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import RepairMinderServer

/// The limits of docs/API.md §7 that answer 429 with `Retry-After`.
@Suite struct RateLimitTests {
    @Test func authRequestsPerClientIPAreLimited() async throws {
        let server = try await TestServer { $0.ipRateLimit = 5 }
        // Real sockets, so the server sees the client's address.
        try await server.run(.live) { client in
            for _ in 1...5 {
                let reply = try await client.post("/api/auth/magic-link/request", ["email": "nobody@acme.test"])
                #expect(reply.status == .ok)
            }
            let limited = try await client.post("/api/auth/magic-link/request", ["email": "nobody@acme.test"])
            limited.expectFailure(.tooManyRequests, "RATE_LIMITED")
            let retryAfter = try #require(limited.headers[.retryAfter].flatMap(Int.init))
            #expect((1...60).contains(retryAfter))
            // Non-auth endpoints are not counted.
            #expect(try await client.send(.get, "/api/health").status == .ok)
            // A new window admits again.
            server.clock.advance(by: 60)
            #expect(try await client.post("/api/auth/magic-link/request", ["email": "nobody@acme.test"]).status == .ok)
        }
    }

    /// REKI's refresh is a sign-in route too (docs/API.md §10): a stolen-token guesser meets the per-IP limit.
    @Test func rekiRefreshesPerClientIPAreLimited() async throws {
        let server = try await TestServer { $0.ipRateLimit = 2 }
        try await server.run(.live) { client in
            for _ in 1...2 {
                try await client.post("/auth/refresh", ["refreshToken": "not-a-token"]).expectREKIFailure(.unauthorized, "Unauthorized")
            }
            try await client.post("/auth/refresh", ["refreshToken": "not-a-token"]).expectREKIFailure(.tooManyRequests, "Too many requests")
        }
    }

    @Test func failedLoginsPerAccountAreLimitedEvenForUnknownEmails() async throws {
        let server = try await TestServer { $0.loginFailureLimit = 3 }
        try await server.run { client in
            for email in [DemoFixtures.adminEmail, "nobody@acme.test"] {
                for _ in 1...3 {
                    try await client.post("/api/auth/login", ["email": email, "password": "wrong"])
                        .expectFailure(.unauthorized, "INVALID_CREDENTIALS")
                }
                // Even the right password is refused for the rest of the window.
                let limited = try await client.post("/api/auth/login", ["email": email, "password": DemoFixtures.adminPassword])
                limited.expectFailure(.tooManyRequests, "RATE_LIMITED")
                let retryAfter = try #require(limited.headers[.retryAfter].flatMap(Int.init))
                #expect((890...900).contains(retryAfter))
            }
            // Another account is unaffected.
            _ = try await client.login(DemoFixtures.engineerEmail, DemoFixtures.engineerPassword)
            let challenges = try await server.withDatabase { try await $0.count("login_challenges") }
            #expect(challenges == 1)
            // After the window the account can sign in again.
            server.clock.advance(by: 15 * 60 + 1)
            _ = try await client.login(DemoFixtures.adminEmail, DemoFixtures.adminPassword)
        }
    }

    @Test func codeEmailsAreSpacedPerChallengeAndAddress() async throws {
        let server = try await TestServer {
            $0.codeResendInterval = 30
            $0.codeEmailsPerHour = 10
        }
        try await server.run { client in
            let admin = DemoFixtures.adminEmail
            let userId = try await client.login(admin, DemoFixtures.adminPassword)
            _ = try await client.requestCode(userId: userId, email: admin)
            server.clock.advance(by: 10)
            let limited = try await client.post("/api/auth/2fa/request", ["userId": userId, "email": admin])
            limited.expectFailure(.tooManyRequests, "RATE_LIMITED")
            #expect(limited.headers[.retryAfter] == "20")
            #expect(try await client.mail(to: admin).count == 1)
            // The challenge's sends are its own: the address's anonymous budget is untouched.
            #expect(try await client.post("/api/auth/magic-link/request", ["email": admin]).status == .ok)
            server.clock.advance(by: 20)
            #expect(try await client.post("/api/auth/2fa/request", ["userId": userId, "email": admin]).status == .ok)
            #expect(try await client.mail(to: admin).count == 3)
        }
    }

    @Test func codeEmailsPerAddressPerHourAreCapped() async throws {
        let server = try await TestServer {
            $0.codeResendInterval = 30
            $0.codeEmailsPerHour = 3
        }
        try await server.run { client in
            let email = DemoFixtures.engineerEmail
            for _ in 1...3 {
                #expect(try await client.post("/api/auth/magic-link/request", ["email": email]).status == .ok)
                server.clock.advance(by: 31)
            }
            let limited = try await client.post("/api/auth/magic-link/request", ["email": email])
            limited.expectFailure(.tooManyRequests, "RATE_LIMITED")
            // The oldest of the three was sent 93 s ago: it leaves the hour in 3600 - 93 s.
            #expect(limited.headers[.retryAfter] == "3507")
            #expect(try await client.mail(to: email).count == 3)
            // Unknown addresses are limited the same way, so a 429 reveals nothing.
            for _ in 1...3 {
                #expect(try await client.post("/api/auth/magic-link/request", ["email": "ghost@acme.test"]).status == .ok)
                server.clock.advance(by: 31)
            }
            try await client.post("/api/auth/magic-link/request", ["email": "ghost@acme.test"])
                .expectFailure(.tooManyRequests, "RATE_LIMITED")
        }
    }

    @Test func concurrentCodeRequestsSendOneEmail() async throws {
        let server = try await TestServer { $0.codeResendInterval = 30 }
        try await server.run { client in
            let admin = DemoFixtures.adminEmail
            let userId = try await client.login(admin, DemoFixtures.adminPassword)
            let statuses = try await race(10) { try await client.post("/api/auth/2fa/request", ["userId": userId, "email": admin]).status.code }
            #expect(statuses.filter { $0 == 200 }.count == 1)
            #expect(statuses.filter { $0 == 429 }.count == 9)
            #expect(try await client.mail(to: admin).count == 1)
        }
    }
}

extension RateLimitTests {
    @Test func concurrentWrongPasswordsCannotOverrunTheFailureBudget() async throws {
        let server = try await TestServer { $0.loginFailureLimit = 5 }
        try await server.run { client in
            let statuses = try await race(20) {
                try await client.post("/api/auth/login", ["email": DemoFixtures.adminEmail, "password": "wrong"]).status.code
            }
            #expect(statuses.filter { $0 == 401 }.count == 5)
            #expect(statuses.filter { $0 == 429 }.count == 15)
        }
    }
}
