import Foundation
import Hummingbird
import HummingbirdTesting
import RepairMinderModels
import Testing

@testable import RepairMinderServer

/// No one can lock another person out of signing in (docs/API.md §7): anonymous budgets keyed
/// by an address count per address *and* client network under a ceiling five times higher,
/// login step 2 spends its challenge's budget, and REKI's counts are apart from Repair Minder's.
/// Clients are told apart by `X-Forwarded-For` from a trusted proxy (the test's own socket).
@Suite struct LockoutTests {
    static let admin = DemoFixtures.adminEmail
    static let attacker = "203.0.113.5"
    /// Another host of the attacker's /24.
    static let attackersNeighbour = "203.0.113.77"
    static let user = "198.51.100.7"

    static func server(_ configure: @escaping (inout ServerSettings) -> Void = { _ in }) async throws -> TestServer {
        try await TestServer {
            $0.trustedProxies = ["127.0.0.1", "::1"]
            configure(&$0)
        }
    }

    static func post(_ client: TestClient, _ path: String, _ body: [String: String], from address: String) async throws -> Reply {
        let json = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
        return try await client.send(.post, path, json: json, headers: [.xForwardedFor: address])
    }

    /// Login steps 1 and 2 from `address`: the status of step 2.
    static func passwordAndCodeRequest(_ client: TestClient, from address: String) async throws -> HTTPResponse.Status {
        let step1 = try await post(client, "/api/auth/login", ["email": admin, "password": DemoFixtures.adminPassword], from: address)
        #expect(step1.status == .ok)
        let userId = try #require(step1.string("userId"))
        return try await post(client, "/api/auth/2fa/request", ["userId": userId, "email": admin], from: address).status
    }

    /// The attack of the issue: ten REKI `forgot-password` calls for a staff address (no REKI
    /// account) used up that address's code emails, and the user with the right password got
    /// 429 at step 2. REKI's count is its own now, and step 2 spends the challenge's.
    @Test func rekiResetRequestsDoNotTouchRepairMindersBudgets() async throws {
        let server = try await Self.server {
            $0.codeResendInterval = 0
            $0.codeEmailsPerHour = 10
        }
        try await server.run(.live) { client in
            for _ in 0..<10 {
                #expect(try await Self.post(client, "/auth/forgot-password", ["email": Self.admin], from: Self.attacker).status == .ok)
            }
            let used = try await Self.post(client, "/auth/forgot-password", ["email": Self.admin], from: Self.attacker)
            #expect(used.status == .tooManyRequests)
            // Repair Minder's budgets for the address are whole, even from the attacker's network.
            #expect(try await Self.passwordAndCodeRequest(client, from: Self.user) == .ok)
            #expect(try await Self.post(client, "/api/auth/magic-link/request", ["email": Self.admin], from: Self.attacker).status == .ok)
        }
    }

    /// Step 2 after a right password is limited by its challenge (spacing and a few sends),
    /// never by the address's anonymous budget, which anyone can spend.
    @Test func loginStepTwoSpendsItsChallengesBudgetNotTheAddresss() async throws {
        let server = try await Self.server {
            $0.codeResendInterval = 0
            $0.codeEmailsPerHour = 2
        }
        try await server.run(.live) { client in
            // The address's budget from the user's own network, used up by someone else there.
            for _ in 0..<2 {
                #expect(try await Self.post(client, "/api/auth/magic-link/request", ["email": Self.admin], from: Self.user).status == .ok)
            }
            try await Self.post(client, "/api/auth/magic-link/request", ["email": Self.admin], from: Self.user)
                .expectFailure(.tooManyRequests, "RATE_LIMITED")
            let step1 = try await Self.post(client, "/api/auth/login", ["email": Self.admin, "password": DemoFixtures.adminPassword], from: Self.user)
            let userId = try #require(step1.string("userId"))
            let resend = ["userId": userId, "email": Self.admin]
            // The user's own hourly budget (2 here), which only the right password spends.
            for _ in 0..<2 { #expect(try await Self.post(client, "/api/auth/2fa/request", resend, from: Self.user).status == .ok) }
            let sent = try await client.mail(to: Self.admin).count
            try await Self.post(client, "/api/auth/2fa/request", resend, from: Self.user).expectFailure(.tooManyRequests, "RATE_LIMITED")
            #expect(try await client.mail(to: Self.admin).count == sent)
        }
    }

    /// A challenge sends a few codes at most, however large the user's hourly budget.
    @Test func aLoginChallengeSendsAFewCodesAtMost() async throws {
        let server = try await Self.server {
            $0.codeResendInterval = 0
            $0.codeEmailsPerHour = 50
        }
        try await server.run(.live) { client in
            let step1 = try await Self.post(client, "/api/auth/login", ["email": Self.admin, "password": DemoFixtures.adminPassword], from: Self.user)
            let resend = ["userId": try #require(step1.string("userId")), "email": Self.admin]
            for _ in 0..<AbuseLimits.emailsPerChallenge {
                #expect(try await Self.post(client, "/api/auth/2fa/request", resend, from: Self.user).status == .ok)
            }
            try await Self.post(client, "/api/auth/2fa/request", resend, from: Self.user).expectFailure(.tooManyRequests, "RATE_LIMITED")
        }
    }

    /// Anonymous code requests count per address and network: the attacker's /24 runs out, the
    /// user's network does not; every network together stops at five times the limit.
    @Test func codeRequestsCountPerNetworkUnderAnAddressWideCeiling() async throws {
        let server = try await Self.server {
            $0.codeResendInterval = 0
            $0.codeEmailsPerHour = 2
        }
        try await server.run(.live) { client in
            let request = { (address: String) in
                try await Self.post(client, "/api/auth/magic-link/request", ["email": Self.admin], from: address)
            }
            for _ in 0..<2 { #expect(try await request(Self.attacker).status == .ok) }
            try await request(Self.attacker).expectFailure(.tooManyRequests, "RATE_LIMITED")
            try await request(Self.attackersNeighbour).expectFailure(.tooManyRequests, "RATE_LIMITED")
            #expect(try await request(Self.user).status == .ok)
            // IPv6 clients count per /64.
            #expect(try await request("2001:db8:1:2::1").status == .ok)
            #expect(try await request("2001:db8:1:2::99").status == .ok)
            try await request("2001:db8:1:2:ffff::1").expectFailure(.tooManyRequests, "RATE_LIMITED")
            // 2 + 1 + 2 so far; the ceiling is 2 × 5 = 10.
            for network in 1...2 { for _ in 0..<2 { #expect(try await request("192.0.\(network).1").status == .ok) } }
            #expect(try await request("10.9.9.9").status == .ok)
            let ceiling = try await request("10.8.8.8")
            ceiling.expectFailure(.tooManyRequests, "RATE_LIMITED")
            #expect(ceiling.headers[.retryAfter] != nil)
            #expect(try await client.mail(to: Self.admin).count == 10)
        }
    }

    /// The resend spacing is per network too: an attacker's request does not make the user wait.
    @Test func theResendSpacingIsPerNetwork() async throws {
        let server = try await Self.server { $0.codeResendInterval = 30 }
        try await server.run(.live) { client in
            let body = ["email": Self.admin]
            #expect(try await Self.post(client, "/api/auth/password/forgot", body, from: Self.attacker).status == .ok)
            try await Self.post(client, "/api/auth/password/forgot", body, from: Self.attacker)
                .expectFailure(.tooManyRequests, "RATE_LIMITED")
            #expect(try await Self.post(client, "/api/auth/password/forgot", body, from: Self.user).status == .ok)
        }
    }

    /// Wrong codes from one network do not stop the user's right code from another.
    @Test func wrongCodesCountPerNetwork() async throws {
        let server = try await Self.server { $0.wrongCodeLimit = 3 }
        try await server.run(.live) { client in
            #expect(try await Self.post(client, "/api/auth/magic-link/request", ["email": Self.admin], from: Self.user).status == .ok)
            let code = try await client.latestCode(to: Self.admin)
            let wrong = code == "000000" ? "111111" : "000000"
            for _ in 0..<3 {
                try await Self.post(client, "/api/auth/magic-link/verify-code", ["email": Self.admin, "code": wrong], from: Self.attacker)
                    .expectFailure(.unauthorized, "INVALID_CODE")
            }
            try await Self.post(client, "/api/auth/magic-link/verify-code", ["email": Self.admin, "code": code], from: Self.attacker)
                .expectFailure(.tooManyRequests, "RATE_LIMITED")
            let signedIn = try await Self.post(client, "/api/auth/magic-link/verify-code", ["email": Self.admin, "code": code], from: Self.user)
            #expect(signedIn.status == .ok)
            #expect(signedIn.string("token") != nil)
        }
    }

    /// Wrong passwords likewise; across networks they stop at the ceiling, and the user's
    /// success does not give an attacker's network its tries back.
    @Test func wrongPasswordsCountPerNetworkUnderAnAddressWideCeiling() async throws {
        let server = try await Self.server { $0.loginFailureLimit = 2 }
        try await server.run(.live) { client in
            let login = { (password: String, address: String) in
                try await Self.post(client, "/api/auth/login", ["email": Self.admin, "password": password], from: address)
            }
            for _ in 0..<2 { try await login("wrong", Self.attacker).expectFailure(.unauthorized, "INVALID_CREDENTIALS") }
            try await login("wrong", Self.attackersNeighbour).expectFailure(.tooManyRequests, "RATE_LIMITED")
            #expect(try await login(DemoFixtures.adminPassword, Self.user).status == .ok)
            try await login("wrong", Self.attacker).expectFailure(.tooManyRequests, "RATE_LIMITED")
            // 2 so far; the ceiling is 2 × 5 = 10.
            for network in 1...4 {
                for _ in 0..<2 { try await login("wrong", "192.0.\(network).1").expectFailure(.unauthorized, "INVALID_CREDENTIALS") }
            }
            try await login("wrong", "10.9.9.9").expectFailure(.tooManyRequests, "RATE_LIMITED")
            // Even the right password waits now: the ceiling is what stops a distributed guesser.
            try await login(DemoFixtures.adminPassword, Self.user).expectFailure(.tooManyRequests, "RATE_LIMITED")
        }
    }
}
