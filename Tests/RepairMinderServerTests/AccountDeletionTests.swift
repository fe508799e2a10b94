import Foundation
import Hummingbird
import HummingbirdTesting
import SQLKit
import Testing

@testable import RepairMinderServer

/// Deleting one's own account and exporting what is kept about it (docs/API.md §9.5).
@Suite struct AccountDeletionTests {
    let engineer = DemoFixtures.engineerEmail

    private func delete(_ client: TestClient, _ body: String, bearer: String?) async throws -> Reply {
        try await client.send(.delete, "/api/auth/me", json: body, bearer: bearer)
    }

    /// The user row as stored, by id.
    private func userRow(_ server: TestServer, _ id: String) async throws -> (email: String, firstName: String?, deleted: Bool) {
        try await server.withDatabase { db in
            try await db.withConnection { conn in
                let row = try #require(try await conn.raw("SELECT email, first_name, deleted_at FROM users WHERE id = \(bind: id)").first())
                return (
                    try row.decode(column: "email", as: String.self), try row.decode(column: "first_name", as: String?.self),
                    try row.decode(column: "deleted_at", as: Double?.self) != nil
                )
            }
        }
    }

    private func count(_ server: TestServer, _ sql: String, _ value: String) async throws -> Int {
        try await server.withDatabase { db in
            try await db.withConnection { conn in
                try await conn.raw("SELECT COUNT(*) AS n FROM \(unsafeRaw: sql) \(bind: value)").first(decodingColumn: "n", as: Int.self) ?? -1
            }
        }
    }

    @Test func aMemberDeletesTheirAccountAndTheAddressCanRegisterAgain() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let other = try await client.signIn(engineer, DemoFixtures.engineerPassword, userAgent: TestClient.iPhone)
            let this = try await client.signIn(engineer, DemoFixtures.engineerPassword)
            let token = try #require(this.string("token"))
            let id = try #require((try await client.send(.get, "/api/auth/me", bearer: token).data["user"] as? [String: Any])?["id"] as? String)

            try await delete(client, "{}", bearer: token).expectFailure(.badRequest, "VALIDATION_ERROR", "password is required")
            try await delete(client, #"{"password":"wrong"}"#, bearer: token).expectFailure(.unauthorized, "INVALID_CREDENTIALS")
            try await delete(client, #"{"password":"x","isAdmin":true}"#, bearer: token).expectFailure(.badRequest, "VALIDATION_ERROR")
            #expect(try await userRow(server, id) == (engineer, "Eli", false))
            #expect(try await client.send(.get, "/api/auth/me", bearer: other.string("token")).status == .ok)

            let deleted = try await delete(client, #"{"password":"\#(DemoFixtures.engineerPassword)"}"#, bearer: token)
            #expect(deleted.status == .ok)
            #expect(deleted.string("message") == "Your account has been deleted")

            // Every session ended, the person gone from the row, the address free.
            for session in [this, other] {
                try await client.send(.get, "/api/auth/me", bearer: session.string("token")).expectFailure(.unauthorized, "UNAUTHORIZED")
                // As for any account that can no longer sign in (§2.7): the app signs out.
                try await client.post("/api/auth/refresh", ["refreshToken": session.string("refreshToken") ?? ""])
                    .expectFailure(.unauthorized, "USER_INACTIVE")
            }
            #expect(try await userRow(server, id) == ("deleted:" + id, nil, true))
            try await client.post("/api/auth/login", ["email": engineer, "password": DemoFixtures.engineerPassword])
                .expectFailure(.unauthorized, "INVALID_CREDENTIALS")
            // The audit keeps the fact, not where it came from.
            #expect(try await count(server, "activity_log WHERE type = 'account_deleted' AND user_id =", id) == 1)
            #expect(try await count(server, "activity_log WHERE ip_address IS NOT NULL AND user_id =", id) == 0)
            #expect(try await count(server, "activity_log WHERE user_agent IS NOT NULL AND user_id =", id) == 0)
            #expect(try await count(server, "activity_log WHERE type = 'login_succeeded' AND user_id =", id) == 2)
            #expect(try await count(server, "passkey_user_handles WHERE user_id =", id) == 0)
            #expect(try await count(server, "magic_codes WHERE email =", engineer) == 0)

            // The shop's admin no longer sees the member, by list or by id.
            let admin = try #require(try await client.signIn().string("token"))
            let members = try await client.send(.get, "/api/users?status=all&limit=100", bearer: admin)
            #expect(!(members.json["data"] as? [[String: Any]] ?? []).contains { $0["id"] as? String == id })
            try await client.send(.get, "/api/users/\(id)", bearer: admin).expectFailure(.notFound, "NOT_FOUND")

            // The address registers a new shop: it is mailed a code, not "an account exists".
            let register = try await client.post(
                "/api/auth/register",
                ["companyName": "Eli's Own Repairs", "firstName": "Eli", "lastName": "Engineer", "email": engineer,
                 "password": "violet kettle 1987 drum"])
            #expect(register.status == .created)
            let code = try await client.latestCode(to: engineer)
            #expect(try await client.post("/api/auth/register/verify", ["email": engineer, "code": code]).status == .ok)
        }
    }

    /// Guessing the password here runs into the per-account failure budget (§7), as a login's does.
    @Test func wrongPasswordsAreCountedLikeLogins() async throws {
        let server = try await TestServer { $0.loginFailureLimit = 3 }
        try await server.run { client in
            let token = try #require(try await client.signIn(engineer, DemoFixtures.engineerPassword).string("token"))
            for _ in 1...3 {
                try await delete(client, #"{"password":"wrong"}"#, bearer: token).expectFailure(.unauthorized, "INVALID_CREDENTIALS")
            }
            try await delete(client, #"{"password":"\#(DemoFixtures.engineerPassword)"}"#, bearer: token)
                .expectFailure(.tooManyRequests, "RATE_LIMITED")
            #expect(try await client.send(.get, "/api/auth/me", bearer: token).status == .ok)
            #expect(try await count(server, "activity_log WHERE type =", "account_deleted") == 0)
        }
    }

    @Test func aShopsLastActiveAdminIsRefusedWhileOthersRemain() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let token = try #require(try await client.signIn().string("token"))
            try await delete(client, #"{"password":"\#(DemoFixtures.adminPassword)","closeShop":true}"#, bearer: token)
                .expectFailure(.conflict, "LAST_ADMIN", "You are the shop's last active admin. Make another member an admin before you delete your account.")
            #expect(try await client.send(.get, "/api/auth/me", bearer: token).status == .ok)
            #expect(try await count(server, "activity_log WHERE type =", "account_deleted") == 0)
        }
    }

    /// The platform cannot be closed: its last administrator stays.
    @Test func thePlatformsLastAdministratorIsRefused() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let token = try #require(
                try await client.signIn(DemoFixtures.platformAdminEmail, DemoFixtures.platformAdminPassword).string("token"))
            try await delete(client, #"{"password":"\#(DemoFixtures.platformAdminPassword)","closeShop":true}"#, bearer: token)
                .expectFailure(.conflict, "LAST_ADMIN")
            #expect(try await client.send(.get, "/api/auth/me", bearer: token).status == .ok)
        }
    }

    /// A shop's only member (here, of a shop still awaiting approval: quarantine allows it)
    /// deletes their account only by closing the shop with it.
    @Test func theOnlyMemberClosesTheShopWithTheirAccount() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let (email, password) = ("owner@pending.test", "pending password")
            let token = try #require(try await client.signIn(email, password).string("token"))
            try await delete(client, #"{"password":"\#(password)"}"#, bearer: token).expectFailure(.conflict, "SHOP_CLOSE_REQUIRED")
            #expect(try await client.send(.get, "/api/auth/me", bearer: token).status == .ok)
            #expect(try await delete(client, #"{"password":"\#(password)","closeShop":true}"#, bearer: token).status == .ok)
            #expect(try await count(server, "companies WHERE status = 'suspended' AND name =", "Pending Phones") == 1)
            #expect(try await count(server, "activity_log WHERE actor = 'account owner' AND type =", "company_suspended") == 1)
        }
    }

    /// Without a password, a sign-in of the last 10 minutes stands for one.
    @Test func withoutAPasswordTheSignInMustBeRecent() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let email = "nopassword@acme.test"
            func magicLinkToken() async throws -> String {
                #expect(try await client.post("/api/auth/magic-link/request", ["email": email]).status == .ok)
                let code = try await client.latestCode(to: email)
                return try #require(try await client.post("/api/auth/magic-link/verify-code", ["email": email, "code": code]).string("token"))
            }
            let stale = try await magicLinkToken()
            server.clock.advance(by: 11 * 60)
            try await delete(client, #"{"password":"anything"}"#, bearer: stale)
                .expectFailure(.forbidden, "REAUTHENTICATION_REQUIRED", "Sign in again to delete your account: your sign-in must be less than 10 minutes old.")
            #expect(try await client.send(.get, "/api/auth/me", bearer: stale).status == .ok)
            let fresh = try await magicLinkToken()
            #expect(try await delete(client, "{}", bearer: fresh).status == .ok)
            try await client.send(.get, "/api/auth/me", bearer: stale).expectFailure(.unauthorized, "UNAUTHORIZED")
        }
    }

    /// Two admins of a shop deleting themselves at once: one goes, the shop keeps the other.
    @Test func twoAdminsLeavingAtOnceLeaveOne() async throws {
        let server = try await TestServer()
        try await server.withDatabase { db in
            try await db.withConnection { try await $0.raw("UPDATE users SET role = 'admin' WHERE email = \(bind: DemoFixtures.engineerEmail)").run() }
        }
        try await server.run { client in
            let admins = [(DemoFixtures.adminEmail, DemoFixtures.adminPassword), (engineer, DemoFixtures.engineerPassword)]
            var tokens: [(String, String)] = []
            for (email, password) in admins { tokens.append((try #require(try await client.signIn(email, password).string("token")), password)) }
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for (token, password) in tokens {
                    group.addTask { try await delete(client, #"{"password":"\#(password)"}"#, bearer: token).status.code }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.sorted() == [200, 409])
            #expect(try await count(server, "users WHERE is_active = 1 AND role = 'admin' AND company_id =", try await companyId(server, "Acme Repairs")) == 1)
        }
    }

    private func companyId(_ server: TestServer, _ name: String) async throws -> String {
        try await server.withDatabase { db in
            try await db.withConnection { conn in
                try #require(try await conn.raw("SELECT id FROM companies WHERE name = \(bind: name)").first(decodingColumn: "id", as: String.self))
            }
        }
    }

    @Test func aCustomerDeletesTheirAccountInEveryShop() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let email = "multi@example.test"
            let stale = try #require(try await client.customerSignIn(email, companyName: "Beta Tech").string("token"))
            server.clock.advance(by: 11 * 60)
            try await client.send(.delete, "/api/customer/auth/me", bearer: stale).expectFailure(.forbidden, "REAUTHENTICATION_REQUIRED")
            #expect(try await count(server, "clients WHERE deleted_at IS NULL AND email =", email) == 2)

            let signedIn = try await client.customerSignIn(email, companyName: "Acme Repairs")
            let token = try #require(signedIn.string("token"))
            // The shop's staff change the record: their event names the address.
            let clientId = try #require((signedIn.data["client"] as? [String: Any])?["id"] as? String)
            let admin = try #require(try await client.signIn().string("token"))
            #expect(try await client.send(.patch, "/api/clients/\(clientId)", json: #"{"notes":"Prefers email"}"#, bearer: admin).status == .ok)
            #expect(try await count(server, "activity_log WHERE type = 'client_updated' AND detail LIKE", "%" + email + "%") == 1)

            let deleted = try await client.send(.delete, "/api/customer/auth/me", bearer: token)
            #expect(deleted.status == .ok)
            #expect(deleted.string("message") == "Your account has been deleted")
            for session in [stale, token] {
                try await client.send(.get, "/api/customer/auth/me", bearer: session).expectFailure(.unauthorized, "UNAUTHORIZED")
            }
            // Both shops' records kept by id, anonymous; the shops' audit says what happened.
            #expect(try await count(server, "clients WHERE email =", email) == 0)
            #expect(try await count(server, "clients WHERE first_name IS NULL AND deleted_email IS NULL AND email LIKE", "deleted:%") == 2)
            #expect(try await count(server, "activity_log WHERE type =", "customer_account_deleted") == 2)
            #expect(try await count(server, "activity_log WHERE detail LIKE", "%" + email + "%") == 0)
            #expect(try await count(server, "activity_log WHERE type = 'client_updated' AND detail =", #"{"clientId":"\#(clientId)"}"#) == 1)
            // The address no longer signs in anywhere: no code is mailed.
            let mailsBefore = try await client.mail(to: email).count
            #expect(try await client.post("/api/customer/auth/request-magic-link", ["email": email]).status == .ok)
            #expect(try await client.mail(to: email).count == mailsBefore)
        }
    }

    @Test func theExportHoldsTheAccountAndNoSecret() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let token = try #require(try await client.signIn().string("token"))
            let reply = try await client.send(.get, "/api/auth/me/export", bearer: token)
            #expect(reply.status == .ok)
            let export = reply.data
            #expect((export["user"] as? [String: Any])?["email"] as? String == DemoFixtures.adminEmail)
            #expect((export["company"] as? [String: Any])?["name"] as? String == "Acme Repairs")
            #expect(export["hasPassword"] as? Bool == true)
            #expect((export["sessions"] as? [[String: Any]])?.count == 1)
            #expect((export["activity"] as? [[String: Any]])?.contains { $0["type"] as? String == "login_succeeded" } == true)
            for key in ["authenticatorApp", "passkeys", "pushDevices", "pushPreferences", "exportedAt"] { #expect(export[key] != nil, "\(key)") }
            let text = String(decoding: try JSONSerialization.data(withJSONObject: reply.json), as: UTF8.self)
            for secret in ["password_hash", "passwordHash", "$2", "refreshToken", "correct horse"] { #expect(!text.contains(secret), "\(secret)") }
            try await client.send(.get, "/api/auth/me/export").expectFailure(.unauthorized, "UNAUTHORIZED")
        }
    }
}
