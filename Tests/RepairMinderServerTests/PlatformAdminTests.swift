import Foundation
import Hummingbird
import HummingbirdTesting
import RepairMinderModels
import TestSupport
import Testing

@testable import RepairMinderServer

/// The platform's administration of shops (docs/API.md §15), on the engine under test: the demo
/// platform administrator (a `master_admin` of the platform's own company, what
/// `companies:manage` needs) approves, suspends and reactivates the demo shops; everyone else is
/// refused.
@Suite struct PlatformAdminTests {
    /// The demo platform administrator's access token (a full one: the demo's platform company
    /// gives 30 days to enrol the passkey it requires).
    static func platformAdmin(_ client: TestClient) async throws -> String {
        try await TeamTests.token(client, DemoFixtures.platformAdminEmail, DemoFixtures.platformAdminPassword)
    }

    static func shops(_ client: TestClient, _ token: String, _ query: String = "") async throws -> [[String: Any]] {
        try TeamTests.list(try await client.send(.get, "/api/admin/companies" + query, bearer: token))
    }

    static func id(_ client: TestClient, _ token: String, named name: String) async throws -> String {
        try #require(try await shops(client, token).first { $0["name"] as? String == name }?["id"] as? String)
    }

    @Test func aPlatformAdminListsApprovesSuspendsAndReactivatesShops() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let admin = try await Self.platformAdmin(client)
            let all = try await Self.shops(client, admin)
            #expect(all.first?["status"] as? String == "pending_approval")
            let pending = try #require(all.first { $0["name"] as? String == "Pending Phones" })
            #expect(pending["ownerEmail"] as? String == "owner@pending.test")
            #expect(pending["staffCount"] as? Int == 1)
            #expect(pending["clientCount"] as? Int == 0)
            let acme = try #require(all.first { $0["name"] as? String == "Acme Repairs" })
            #expect(acme["clientCount"] as? Int == 2)
            #expect(try await Self.shops(client, admin, "?status=pending_approval").compactMap { $0["name"] as? String } == ["Pending Phones"])
            #expect(try await Self.shops(client, admin, "?q=PHONE").compactMap { $0["name"] as? String } == ["Pending Phones"])
            #expect(try await Self.shops(client, admin, "?q=%25").isEmpty)
            try await client.send(.get, "/api/admin/companies?status=closed", bearer: admin).expectFailure(.badRequest, "VALIDATION_ERROR")

            // Approved: the shop's staff reach the whole API on their next request.
            let owner = try #require(try await client.signIn("owner@pending.test", "pending password").string("token"))
            try await client.send(.get, "/api/users", bearer: owner).expectFailure(.forbidden, "ACCOUNT_PENDING_APPROVAL")
            let id = try #require(pending["id"] as? String)
            let approved = try await client.send(.post, "/api/admin/companies/\(id)/approve", bearer: admin)
            #expect(approved.status == .ok)
            #expect(approved.string("status") == "active")
            #expect(try await client.send(.get, "/api/users", bearer: owner).status == .ok)
            try await client.send(.post, "/api/admin/companies/\(id)/approve", bearer: admin).expectFailure(
                .conflict, "COMPANY_STATUS_CONFLICT", "Only a shop pending approval can be approved; this one is active")
            // Suspended: quarantined at once; reactivated: back.
            #expect(try await client.send(.post, "/api/admin/companies/\(id)/suspend", bearer: admin).string("status") == "suspended")
            try await client.send(.get, "/api/users", bearer: owner).expectFailure(.forbidden, "ACCOUNT_SUSPENDED")
            try await client.send(.post, "/api/admin/companies/\(id)/suspend", bearer: admin).expectFailure(.conflict, "COMPANY_STATUS_CONFLICT")
            #expect(try await client.send(.post, "/api/admin/companies/\(id)/reactivate", bearer: admin).string("status") == "active")
            try await client.send(.post, "/api/admin/companies/\(id)/reactivate", bearer: admin).expectFailure(
                .conflict, "COMPANY_STATUS_CONFLICT", "Only a suspended shop can be reactivated; this one is active")
            #expect(try await client.send(.get, "/api/users", bearer: owner).status == .ok)
            // Never their own company, never an unknown one.
            let own = try #require(all.first { $0["id"] as? String == PlatformOwnCompany.id }?["id"] as? String)
            try await client.send(.post, "/api/admin/companies/\(own)/suspend", bearer: admin).expectFailure(
                .conflict, "COMPANY_STATUS_CONFLICT", "You cannot suspend your own shop")
            try await client.send(.post, "/api/admin/companies/\(UUID())/approve", bearer: admin).expectFailure(.notFound, "NOT_FOUND")
            // The operator's events, with the administrator as the actor, in the order made.
            let events = try await server.withDatabase { database in
                try await database.withConnection { db in
                    try await db.raw("SELECT type, actor, actor_user_id FROM activity_log WHERE company_id = \(bind: id) ORDER BY id").all()
                        .map { (try $0.decode(column: "type", as: String.self), try $0.decode(column: "actor", as: String.self),
                                try $0.decode(column: "actor_user_id", as: String?.self)) }
                }
            }
            #expect(events.map(\.0) == ["company_approved", "company_suspended", "company_reactivated"])
            #expect(events.allSatisfy { $0.1 == DemoFixtures.platformAdminEmail && $0.2 != nil })
            // The whole log, as the administrators read it: by shop, type and time.
            let audit = try TeamTests.list(try await client.send(.get, "/api/admin/audit?companyId=\(id)&limit=100", bearer: admin))
            #expect(audit.compactMap { $0["type"] as? String }.prefix(3) == ["company_reactivated", "company_suspended", "company_approved"])
            #expect(audit.first?["actor"] as? String == DemoFixtures.platformAdminEmail)
            #expect(audit.contains { $0["type"] as? String == "login_succeeded" && $0["userEmail"] as? String == "owner@pending.test" })
            let approvals = try TeamTests.list(try await client.send(.get, "/api/admin/audit?type=company_approved", bearer: admin))
            #expect(approvals.count == 1)
            #expect(try TeamTests.list(try await client.send(.get, "/api/admin/audit?since=2999-01-01T00:00:00Z", bearer: admin)).isEmpty)
            try await client.send(.get, "/api/admin/audit?since=yesterday", bearer: admin).expectFailure(
                .badRequest, "VALIDATION_ERROR", "since must be an ISO 8601 instant, e.g. 2026-11-26T09:00:00Z")
        }
    }

    /// Staff of every shop, found by address or name; signed out of every session.
    @Test func aPlatformAdminFindsStaffOfEveryShopAndSignsThemOut() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let admin = try await Self.platformAdmin(client)
            let everyone = try TeamTests.list(try await client.send(.get, "/api/admin/users?limit=100", bearer: admin))
            #expect(Set(everyone.compactMap { $0["companyName"] as? String }).isSuperset(of: ["Acme Repairs", "Pending Phones"]))
            let found = try TeamTests.list(try await client.send(.get, "/api/admin/users?q=penny%20pen", bearer: admin))
            #expect(found.map { $0["email"] as? String } == ["owner@pending.test"])
            #expect(found.first?["companyName"] as? String == "Pending Phones")
            #expect(found.first?["role"] as? String == "admin")
            let owner = try #require(try await client.signIn("owner@pending.test", "pending password").string("token"))
            let id = try #require(found.first?["id"] as? String)
            let signedOut = try await client.send(.post, "/api/admin/users/\(id)/sign-out", bearer: admin)
            #expect(signedOut.data["revoked"] as? Int == 1)
            try await client.send(.get, "/api/auth/me", bearer: owner).expectFailure(.unauthorized, "UNAUTHORIZED")
            try await client.send(.post, "/api/admin/users/\(UUID())/sign-out", bearer: admin).expectFailure(.notFound, "NOT_FOUND")
            // Recorded for the member's shop (its audit shows it), not the platform's company.
            let events = try await server.withDatabase { database in
                try await database.withConnection { db in
                    try await db.raw(
                        """
                        SELECT a.type, c.name FROM activity_log a JOIN companies c ON c.id = a.company_id
                        WHERE a.user_id = \(bind: id) AND a.actor_user_id IS NOT NULL
                        """
                    ).all().map { "\(try $0.decode(column: "type", as: String.self)) \(try $0.decode(column: "name", as: String.self))" }
                }
            }
            #expect(events == ["sessions_revoked_by_admin Pending Phones"])
        }
    }

    /// The mail queue's health (§15.5) with nothing waiting and nothing failed: the sign-in's
    /// code went out through the outbox. (Who is refused it: `onlyAPlatformAdminReachesIt`, which
    /// tries every route of the feature; its failures: `PlatformAdminMailTests`.)
    @Test func anEmptyMailQueueIsHealthy() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let admin = try await Self.platformAdmin(client)
            try await waitUntil("the sign-in's code delivered") {
                try await MailQueue.entries(in: client.mailbox.database).allSatisfy { $0.status == "sent" }
            }
            let health = try await client.send(.get, "/api/admin/mail", bearer: admin)
            #expect(health.status == .ok)
            #expect(health.data["queued"] as? Int == 0)
            #expect(health.data["oldestQueuedAgeSeconds"] is NSNull)
            #expect(health.data["failedLastHour"] as? Int == 0)
            #expect((health.data["recentFailures"] as? [Any])?.isEmpty == true)
        }
    }

    /// A shop admin, an engineer, a customer's token and a REKI token reach none of it, and change nothing.
    @Test func aPlatformAdminReadsOneShopAndItsStaff() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let admin = try await Self.platformAdmin(client)
            let acme = try await Self.id(client, admin, named: "Acme Repairs")
            let shop = try await client.send(.get, "/api/admin/companies/\(acme)", bearer: admin)
            #expect(shop.status == .ok)
            #expect(shop.string("name") == "Acme Repairs" && shop.string("ownerEmail") == DemoFixtures.adminEmail)
            #expect(shop.data["staffCount"] as? Int == 5)
            try await client.send(.get, "/api/admin/companies/\(UUID())", bearer: admin).expectFailure(.notFound, "NOT_FOUND")
            // `companyId` keeps one shop's staff, with `q` or without.
            let staff = try TeamTests.list(try await client.send(.get, "/api/admin/users?companyId=\(acme)&limit=100", bearer: admin))
            #expect(staff.count == 5 && staff.allSatisfy { $0["companyId"] as? String == acme })
            let engineers = try TeamTests.list(try await client.send(.get, "/api/admin/users?companyId=\(acme)&q=eli", bearer: admin))
            #expect(engineers.map { $0["email"] as? String } == [DemoFixtures.engineerEmail])
            let pending = try await Self.id(client, admin, named: "Pending Phones")
            let theirs = try TeamTests.list(try await client.send(.get, "/api/admin/users?companyId=\(pending)&q=eli", bearer: admin))
            #expect(theirs.isEmpty)
        }
    }

    @Test func onlyAPlatformAdminReachesIt() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let shopAdmin = try await TeamTests.token(client)
            let engineer = try await TeamTests.token(client, DemoFixtures.engineerEmail, DemoFixtures.engineerPassword)
            let customer = try #require(try await client.customerSignIn("jane@example.test").string("token"))
            let reki = try #require(
                try await client.post("/auth/register", ["email": "reki@example.com", "password": "violet kettle 1987"]).json["access_token"]
                    as? String)
            let pending = try await server.withDatabase { database in
                try await database.withConnection { db in
                    try #require(try await db.raw("SELECT id FROM companies WHERE name = 'Pending Phones'").first(decodingColumn: "id", as: String.self))
                }
            }
            for route in Routes.platformAdmin.routes {
                let path = route.path.description.replacingOccurrences(of: "{id}", with: pending)
                for token in [shopAdmin, engineer] {
                    try await client.send(route.method.hummingbird, path, bearer: token).expectFailure(.forbidden, "FORBIDDEN")
                }
                for token in [customer, reki] {
                    try await client.send(route.method.hummingbird, path, bearer: token).expectFailure(.unauthorized, "UNAUTHORIZED")
                }
                try await client.send(route.method.hummingbird, path).expectFailure(.unauthorized, "UNAUTHORIZED")
            }
            let owner = try #require(try await client.signIn("owner@pending.test", "pending password").string("token"))
            try await client.send(.get, "/api/users", bearer: owner).expectFailure(.forbidden, "ACCOUNT_PENDING_APPROVAL")
        }
    }

    /// `companies:manage` is the platform's own company's: a `master_admin` set in a shop (by SQL,
    /// or a fixtures file) administers no shop, and their tokens do not claim it.
    @Test func aMasterAdminOfAShopAdministersNoShop() async throws {
        let server = try await TestServer()
        try await server.withDatabase { database in
            try await database.withConnection { db in
                try await db.raw("UPDATE users SET role = 'master_admin' WHERE email = \(bind: DemoFixtures.adminEmail)").run()
            }
        }
        try await server.run { client in
            let shopMaster = try await TeamTests.token(client)
            let platform = try await Self.platformAdmin(client)
            for route in Routes.platformAdmin.routes where route.method == .get {
                try await client.send(route.method.hummingbird, route.path.description, bearer: shopMaster)
                    .expectFailure(.forbidden, "FORBIDDEN", "You do not have permission to do this")
                // A path with an `{id}` names no shop: 404, past the permission.
                let expected: HTTPResponse.Status = route.path.parameterNames.isEmpty ? .ok : .notFound
                #expect(try await client.send(route.method.hummingbird, route.path.description, bearer: platform).status == expected)
            }
            let shopClaims = try SecurityPolicyTests.claims(shopMaster)["permissions"] as? [String]
            #expect(shopClaims?.contains("users:manage") == true)
            #expect(shopClaims?.contains("companies:manage") == false)
            #expect((try SecurityPolicyTests.claims(platform)["permissions"] as? [String])?.contains("companies:manage") == true)
            #expect(try SecurityPolicyTests.claims(platform)["companyId"] as? String == PlatformOwnCompany.id)
        }
    }
}
