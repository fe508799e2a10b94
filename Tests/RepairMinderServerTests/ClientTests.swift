import Foundation
import Hummingbird
import HummingbirdTesting
import RepairMinderModels
import TestSupport
import Testing

@testable import RepairMinderServer

/// A shop's clients (docs/API.md §14), on the engine under test.
@Suite struct ClientTests {
    static func send(_ client: TestClient, _ method: HTTPRequest.Method, _ path: String, _ token: String, _ body: [String: Any]? = nil)
        async throws -> Reply
    {
        let json = try body.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }
        return try await client.send(method, path, json: json, bearer: token)
    }

    @Test func staffAddFindChangeAndDeleteClients() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let admin = try await TeamTests.token(client)
            let created = try await Self.send(
                client, .post, "/api/clients", admin,
                ["email": "  Ada.Lovelace@Example.com ", "firstName": "Ada", "lastName": "Lovelace", "phone": "+44 7700 900123",
                 "notes": "First line\nSecond line"])
            #expect(created.status == .created)
            let id = try #require(created.string("id"))
            #expect(created.string("email") == "ada.lovelace@example.com")
            #expect(created.string("name") == "Ada Lovelace")
            #expect(created.data["portal_enabled"] as? Int == 1)
            #expect(created.data.keys.contains("last_portal_login"))
            // The address is unique per shop, whatever its case.
            try await Self.send(client, .post, "/api/clients", admin, ["email": "ADA.LOVELACE@example.com"])
                .expectFailure(.conflict, "CLIENT_EXISTS")
            // Found by prefix of the address, a name or the phone's digits.
            for query in ["ada", "LOVE", "0790", "447700"] {
                let found = try TeamTests.list(try await Self.send(client, .get, "/api/clients/search?q=\(query)", admin))
                #expect(found.contains { $0["id"] as? String == id } == (query != "0790"), "\(query)")
            }
            for filter in ["q", "search"] {
                let listed = try await Self.send(client, .get, "/api/clients?\(filter)=lov", admin)
                #expect(try TeamTests.list(listed).map { $0["id"] as? String } == [id], "\(filter)")
            }
            let changed = try await Self.send(client, .patch, "/api/clients/\(id)", admin, ["firstName": "Augusta", "phone": "020 7946 0000"])
            #expect(changed.string("first_name") == "Augusta")
            #expect(try TeamTests.list(try await Self.send(client, .get, "/api/clients/search?q=0207946", admin)).count == 1)
            // Deleted: gone, and the address may be added again.
            #expect(try await Self.send(client, .delete, "/api/clients/\(id)", admin).status == .ok)
            try await Self.send(client, .get, "/api/clients/\(id)", admin).expectFailure(.notFound, "NOT_FOUND")
            try await Self.send(client, .delete, "/api/clients/\(id)", admin).expectFailure(.notFound, "NOT_FOUND")
            #expect(try await Self.send(client, .post, "/api/clients", admin, ["email": "ada.lovelace@example.com"]).status == .created)
            // Each change is the acting staff member's event, naming the client.
            let events = try TeamTests.list(try await client.send(.get, "/api/auth/activity?limit=100", bearer: admin))
                .filter { ($0["type"] as? String)?.hasPrefix("client_") == true }
            #expect(events.compactMap { $0["type"] as? String } == ["client_created", "client_deleted", "client_updated", "client_created"])
            #expect(events.allSatisfy { ($0["actor"] as? [String: Any])?["email"] as? String == DemoFixtures.adminEmail })
            #expect((events.last?["detail"] as? [String: String])?["clientId"] == id)
        }
    }

    @Test func anEngineerReadsNothingAndAnotherShopsClientIsNotFound() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let admin = try await TeamTests.token(client)
            let engineer = try await TeamTests.token(client, DemoFixtures.engineerEmail, DemoFixtures.engineerPassword)
            try await Self.send(client, .get, "/api/clients", engineer).expectFailure(.forbidden, "FORBIDDEN")
            try await Self.send(client, .post, "/api/clients", engineer, ["email": "x@example.com"]).expectFailure(.forbidden, "FORBIDDEN")
            let id = try #require(try await Self.send(client, .post, "/api/clients", admin, ["email": "x@example.com"]).string("id"))
            let pending = try #require(try await client.signIn("owner@pending.test", "pending password").string("token"))
            try await Self.send(client, .get, "/api/clients/\(id)", pending).expectFailure(.forbidden, "ACCOUNT_PENDING_APPROVAL")
            // Moved to an active shop of its own, the owner still cannot reach Acme's client.
            try await server.withDatabase { database in
                try await database.withConnection { db in
                    try await db.raw("UPDATE companies SET status = 'active' WHERE id = (SELECT company_id FROM users WHERE email = 'owner@pending.test')").run()
                }
            }
            try await Self.send(client, .get, "/api/clients/\(id)", pending).expectFailure(.notFound, "NOT_FOUND")
            try await Self.send(client, .patch, "/api/clients/\(id)", pending, ["firstName": "Eve"]).expectFailure(.notFound, "NOT_FOUND")
            try await Self.send(client, .delete, "/api/clients/\(id)", pending).expectFailure(.notFound, "NOT_FOUND")
            #expect(try await Self.send(client, .get, "/api/clients/\(id)", admin).data["first_name"] is NSNull)
        }
    }

    /// Deleting a client, or switching their portal off, ends their sessions with the shop at once
    /// and stops their sign-in there.
    @Test(arguments: [true, false])
    func aDeletedOrSwitchedOffClientIsSignedOut(delete: Bool) async throws {
        let server = try await TestServer()
        try await server.run { client in
            let admin = try await TeamTests.token(client)
            let customer = try #require(try await client.customerSignIn("jane@example.test").string("token"))
            #expect(try await client.send(.get, "/api/customer/auth/me", bearer: customer).status == .ok)
            let jane = try #require(
                try TeamTests.list(try await Self.send(client, .get, "/api/clients/search?q=jane", admin)).first?["id"] as? String)
            if delete {
                #expect(try await Self.send(client, .delete, "/api/clients/\(jane)", admin).status == .ok)
            } else {
                #expect(try await Self.send(client, .patch, "/api/clients/\(jane)", admin, ["portalEnabled": false]).data["portal_enabled"] as? Int == 0)
            }
            try await client.send(.get, "/api/customer/auth/me", bearer: customer).expectFailure(.unauthorized, "UNAUTHORIZED")
            let before = try await client.mail(to: "jane@example.test").count
            #expect(try await client.post("/api/customer/auth/request-magic-link", ["email": "jane@example.test"]).status == .ok)
            #expect(try await client.mail(to: "jane@example.test").count == before)
        }
    }

    /// The id of the shop's live client with `email`.
    static func id(_ client: TestClient, _ token: String, email: String) async throws -> String {
        let found = try TeamTests.list(try await send(client, .get, "/api/clients/search?q=\(email)", token))
        return try #require(found.first { $0["email"] as? String == email }?["id"] as? String)
    }

    /// The shop's clients as the list answers them, in `sort`'s order.
    static func all(_ client: TestClient, _ token: String, sort: String = "-created_at", pages: Int = 1) async throws -> [[String: Any]] {
        var clients: [[String: Any]] = []
        for page in 1...pages {
            clients += try TeamTests.list(try await send(client, .get, "/api/clients?limit=100&page=\(page)&sort=\(sort)", token))
        }
        return clients
    }

    /// Bad input changes nothing: each refusal below leaves the shop's clients as they were.
    @Test func badInputIsRefusedAndChangesNothing() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let admin = try await TeamTests.token(client)
            let ada = try #require(try await Self.send(client, .post, "/api/clients", admin, ["email": "ada@example.com"]).string("id"))
            let bob = try #require(try await Self.send(client, .post, "/api/clients", admin, ["email": "bob@example.com"]).string("id"))
            let before = try await Self.all(client, admin)
            // The 409 names the client that has the address, on create and on a change to it.
            let taken = try await Self.send(client, .post, "/api/clients", admin, ["email": "ADA@example.com", "firstName": "Other"])
            taken.expectFailure(.conflict, "CLIENT_EXISTS", "This address is already a client of the shop")
            #expect(taken.json["clientId"] as? String == ada)
            let moved = try await Self.send(client, .patch, "/api/clients/\(bob)", admin, ["email": "ada@example.com", "firstName": "Bob"])
            moved.expectFailure(.conflict, "CLIENT_EXISTS")
            #expect(moved.json["clientId"] as? String == ada)
            for body: [String: Any] in [
                ["email": "c@example.com", "phone": "call me"], ["email": "c@example.com", "phone": String(repeating: "1", count: 33)],
                ["email": "c@example.com", "notes": String(repeating: "n", count: 2001)], ["email": "c@example.com", "firstName": "a\u{7}b"],
                ["email": "not an address"],
            ] {
                try await Self.send(client, .post, "/api/clients", admin, body).expectFailure(.badRequest, "VALIDATION_ERROR")
            }
            try await Self.send(client, .patch, "/api/clients/\(bob)", admin, ["phone": "+44 abc"]).expectFailure(.badRequest, "VALIDATION_ERROR")
            for query in ["search?q=a&limit=11", "search?q=a&limit=0", "?sort=email", "?sort=", "?page=0"] {
                try await Self.send(client, .get, "/api/clients\(query.hasPrefix("?") ? "" : "/")\(query)", admin)
                    .expectFailure(.badRequest, "VALIDATION_ERROR")
            }
            let after = try await Self.all(client, admin)
            #expect(after.map { $0["id"] as? String } == before.map { $0["id"] as? String })
            #expect(after.map { $0["updated_at"] as? String } == before.map { $0["updated_at"] as? String })
        }
    }

    /// `sort=name` orders by the name shown ("First Last", or the address); the default is
    /// newest first; the pagination carries both spellings of its page count.
    @Test func theListSortsAndCountsItsPages() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let admin = try await TeamTests.token(client)
            for (email, first) in [("zed@example.com", "Zed"), ("amy@example.com", "amy"), ("bert@example.com", nil)] {
                var body: [String: Any] = ["email": email]
                if let first { body["firstName"] = first }
                #expect(try await Self.send(client, .post, "/api/clients", admin, body).status == .created)
                server.clock.advance(by: 1)
            }
            let byName = try await Self.all(client, admin, sort: "name").compactMap { $0["name"] as? String }
            #expect(byName == byName.sorted { $0.lowercased() < $1.lowercased() })
            #expect(byName.firstIndex(of: "amy")! < byName.firstIndex(of: "bert@example.com")!)
            let mine: Set = ["bert@example.com", "amy@example.com", "zed@example.com"]
            let newest = try await Self.all(client, admin).compactMap { $0["email"] as? String }.filter(mine.contains)
            #expect(newest == ["bert@example.com", "amy@example.com", "zed@example.com"])
            let page = try await Self.send(client, .get, "/api/clients?limit=2&page=2&sort=name", admin)
            let pagination = try #require(page.json["pagination"] as? [String: Any])
            let total = try #require(pagination["total"] as? Int)
            #expect(pagination["totalPages"] as? Int == (total + 1) / 2)
            #expect(pagination["total_pages"] as? Int == (total + 1) / 2)
            #expect(try TeamTests.list(page).compactMap { $0["name"] as? String } == Array(byName[2..<min(4, byName.count)]))
        }
    }

    /// Every client route, as an engineer (403 `FORBIDDEN`), as staff of a shop in quarantine
    /// (403), and as an admin of another shop (404 for a client's own routes): nothing changes.
    @Test func everyRouteRefusesWhoMayNotUseIt() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let admin = try await TeamTests.token(client)
            let engineer = try await TeamTests.token(client, DemoFixtures.engineerEmail, DemoFixtures.engineerPassword)
            let pending = try #require(try await client.signIn("owner@pending.test", "pending password").string("token"))
            let jane = try await Self.id(client, admin, email: "jane@example.test")
            let before = try await ClientCSVTests.snapshot(client, admin)
            func call(_ route: AnyRoute, _ token: String) async throws -> Reply {
                let path = route.path.description.replacingOccurrences(of: "{id}", with: jane)
                let body: String? = switch route.method {
                case .post where route.path.description == "/api/clients/import": "email\r\nnew@example.com"
                case .post, .patch: #"{"email":"new@example.com","firstName":"New"}"#
                default: nil
                }
                let type = route.path.description.hasSuffix("import") ? "text/csv" : "application/json"
                return try await client.send(route.method.hummingbird, path, json: body, bearer: token, headers: [.contentType: type])
            }
            for route in Routes.clients.routes {
                try await call(route, engineer).expectFailure(.forbidden, "FORBIDDEN")
                try await call(route, pending).expectFailure(.forbidden, "ACCOUNT_PENDING_APPROVAL")
            }
            try await server.withDatabase { database in
                try await database.withConnection { db in
                    try await db.raw("UPDATE companies SET status = 'active' WHERE id = (SELECT company_id FROM users WHERE email = 'owner@pending.test')").run()
                }
            }
            for route in Routes.clients.routes where route.path.description.contains("{id}") {
                try await call(route, pending).expectFailure(.notFound, "NOT_FOUND")
            }
            #expect(try await ClientCSVTests.snapshot(client, admin) == before)
            #expect(try await client.mail(to: "jane@example.test").isEmpty)
        }
    }
}

