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
}
