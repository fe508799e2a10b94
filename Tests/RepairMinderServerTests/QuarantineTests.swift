import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import RepairMinderServer

/// Staff of pending or suspended companies (docs/API.md §4).
@Suite struct QuarantineTests {
    static let cases: [(email: String, password: String, code: String, message: String)] = [
        ("owner@pending.test", "pending password", "ACCOUNT_PENDING_APPROVAL",
         "Your account is pending approval. You will be notified when it is activated."),
        ("owner@suspended.test", "suspended password", "ACCOUNT_SUSPENDED",
         "Your account has been suspended. Please contact support."),
    ]

    @Test(arguments: cases)
    func allowlistedPathsAnswerAndOthersAre403(email: String, password: String, code: String, message: String) async throws {
        let server = try await TestServer()
        try await server.run { client in
            // Quarantined staff can sign in.
            let signIn = try await client.signIn(email, password)
            let token = try #require(signIn.string("token"))
            let companyId = try #require((signIn.data["company"] as? [String: Any])?["id"] as? String)
            // Allowlisted: answered normally.
            #expect(try await client.send(.get, "/api/auth/me", bearer: token).status == .ok)
            #expect(try await client.send(.get, "/api/users/me", bearer: token).status == .ok)
            #expect(try await client.send(.get, "/api/companies/\(companyId)", bearer: token).status == .ok)
            for path in ["/api/company-locations", "/api/company-locations/abc", "/api/users/me/avatar", "/api/subscription/features"] {
                // Not implemented here: 404, but never the quarantine 403.
                try await client.send(.get, path, bearer: token).expectFailure(.notFound, "NOT_FOUND")
            }
            // Everything else: the exact 403 body, implemented or not.
            let forbidden: [(HTTPRequest.Method, String, String?)] = [
                (.get, "/api/user/device-tokens", nil),
                (.post, "/api/user/device-token", #"{"deviceToken":"abc","platform":"ios","appType":"staff"}"#),
                (.get, "/api/user/push-preferences", nil),
                (.put, "/api/user/push-preferences", #"{"enabled":false}"#),
                (.get, "/api/companies/some-other-company", nil),
                (.get, "/api/orders", nil),
                (.get, "/api/devices/123", nil),
                (.get, "/api/dashboard/stats", nil),
                (.get, "//api/user/device-tokens", nil),
                (.get, "/api//user/push-preferences", nil),
            ]
            for (method, path, body) in forbidden {
                let reply = try await client.send(method, path, json: body, bearer: token)
                reply.expectFailure(.forbidden, code, message)
                #expect(Set(reply.json.keys) == ["success", "error", "code"], "\(path)")
            }
            let registered = try await server.withDatabase { try await $0.count("device_tokens") }
            #expect(registered == 0)
            // Refresh and logout are allowed.
            let refreshed = try await client.post("/api/auth/refresh", ["refreshToken": signIn.string("refreshToken")!])
            #expect(refreshed.status == .ok)
            #expect(try await client.send(.post, "/api/auth/logout", bearer: refreshed.string("token")).status == .ok)
        }
    }

    @Test func aStatusChangeTakesEffectOnTheNextRequest() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let token = try #require(try await client.signIn().string("token"))
            #expect(try await client.send(.get, "/api/user/device-tokens", bearer: token).status == .ok)
            try await Self.setStatus("suspended", server: server)
            try await client.send(.get, "/api/user/device-tokens", bearer: token).expectFailure(.forbidden, "ACCOUNT_SUSPENDED")
            let me = try await client.send(.get, "/api/auth/me", bearer: token)
            #expect((me.data["company"] as? [String: Any])?["status"] as? String == "suspended")
            #expect((me.data["user"] as? [String: Any])?["company_status"] as? String == "suspended")
            try await Self.setStatus("pending_approval", server: server)
            try await client.send(.get, "/api/user/device-tokens", bearer: token).expectFailure(.forbidden, "ACCOUNT_PENDING_APPROVAL")
            try await Self.setStatus("active", server: server)
            #expect(try await client.send(.get, "/api/user/device-tokens", bearer: token).status == .ok)
        }
    }

    /// The check fails closed: when the company cannot be read (here its table is gone; it is
    /// read on every request, the session may come from `StaffCallerCache`), a quarantined
    /// member's request to a client-only path is an error, not a pass to the 404.
    @Test func aDatabaseErrorWhileCheckingFailsTheRequest() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let token = try #require(try await client.signIn("owner@suspended.test", "suspended password").string("token"))
            try await client.send(.get, "/api/orders", bearer: token).expectFailure(.forbidden, "ACCOUNT_SUSPENDED")
            try await server.withDatabase { db in
                try await db.withConnection { try await $0.raw("ALTER TABLE companies RENAME TO companies_unreadable").run() }
            }
            try await client.send(.get, "/api/orders", bearer: token).expectFailure(.internalServerError, "INTERNAL_ERROR")
            // Requests without a staff token still get their own answer.
            try await client.send(.get, "/api/orders").expectFailure(.notFound, "NOT_FOUND")
        }
    }

    @Test func invalidTokensAreStill401NotQuarantine() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let token = try #require(try await client.signIn("owner@suspended.test", "suspended password").string("token"))
            server.clock.advance(by: 901)
            try await client.send(.get, "/api/user/device-tokens", bearer: token).expectFailure(.unauthorized, "TOKEN_EXPIRED")
            try await client.send(.get, "/api/user/device-tokens", bearer: "garbage").expectFailure(.unauthorized, "UNAUTHORIZED")
        }
    }

    @Test func activeStaffSeeOnlyTheirOwnCompany() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let signIn = try await client.signIn()
            let token = try #require(signIn.string("token"))
            let own = try #require((signIn.data["company"] as? [String: Any])?["id"] as? String)
            let company = try await client.send(.get, "/api/companies/\(own)", bearer: token)
            #expect(company.status == .ok)
            #expect(company.string("name") == "Acme Repairs")
            #expect(company.string("vat_number") == "GB123456789")
            let beta = try await server.withDatabase { db in
                try #require(try await db.withConnection {
                    try await $0.raw("SELECT id FROM companies WHERE name = 'Beta Tech'").first(decodingColumn: "id", as: String.self)
                })
            }
            try await client.send(.get, "/api/companies/\(beta)", bearer: token).expectFailure(.forbidden, "FORBIDDEN")
            let me = try await client.send(.get, "/api/users/me", bearer: token)
            #expect(me.string("email") == "admin@acme.test")
            #expect(me.data["is_active"] as? Int == 1)
            try await client.send(.get, "/api/users/me").expectFailure(.unauthorized, "UNAUTHORIZED")
        }
    }

    static func setStatus(_ status: String, server: TestServer) async throws {
        try await server.withDatabase { db in
            try await db.withConnection {
                try await $0.raw("UPDATE companies SET status = \(bind: status) WHERE name = 'Acme Repairs'").run()
            }
        }
    }
}

/// A token of one kind never opens the other kind's endpoints (docs/API.md §1).
@Suite struct CrossTokenTests {
    static let staffEndpoints: [(HTTPRequest.Method, String, String?)] = [
        (.get, "/api/auth/me", nil), (.post, "/api/auth/logout", nil), (.get, "/api/users/me", nil),
        (.get, "/api/companies/x", nil), (.get, "/api/user/device-tokens", nil),
        (.post, "/api/user/device-token", #"{"deviceToken":"t","platform":"ios","appType":"staff"}"#),
        (.delete, "/api/user/device-token", #"{"deviceToken":"t"}"#),
        (.get, "/api/user/push-preferences", nil), (.put, "/api/user/push-preferences", #"{"orders":false}"#),
    ]
    static let customerEndpoints: [(HTTPRequest.Method, String, String?)] = [
        (.get, "/api/customer/auth/me", nil), (.post, "/api/customer/auth/logout", nil),
        (.post, "/api/customer/device-token", #"{"deviceToken":"t","platform":"ios","appType":"customer"}"#),
        (.delete, "/api/customer/device-token", #"{"deviceToken":"t"}"#),
    ]

    @Test func customerTokensOpenNoStaffEndpointAndStaffTokensNoCustomerEndpoint() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let customer = try #require(try await client.customerSignIn("jane@example.test").string("token"))
            let staff = try #require(try await client.signIn().string("token"))
            for (method, path, body) in Self.staffEndpoints {
                let reply = try await client.send(method, path, json: body, bearer: customer)
                reply.expectFailure(.unauthorized, "UNAUTHORIZED")
                #expect(reply.code == "UNAUTHORIZED", "\(method) \(path)")
            }
            for (method, path, body) in Self.customerEndpoints {
                let reply = try await client.send(method, path, json: body, bearer: staff)
                #expect(reply.code == "UNAUTHORIZED", "\(method) \(path)")
            }
            // Both still work where they belong, and nothing was registered.
            #expect(try await client.send(.get, "/api/auth/me", bearer: staff).status == .ok)
            #expect(try await client.send(.get, "/api/customer/auth/me", bearer: customer).status == .ok)
            let tokens = try await server.withDatabase { try await $0.count("device_tokens") }
            #expect(tokens == 0)
        }
    }
}
