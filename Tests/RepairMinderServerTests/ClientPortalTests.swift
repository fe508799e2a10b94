import Foundation
import Hummingbird
import HummingbirdTesting
import RepairMinderModels
import TestSupport
import Testing

@testable import RepairMinderServer

/// A client's portal (docs/API.md §14): the invitation mail and its limits, the client's
/// sessions, signing them out, and a delete ending them on every instance.
@Suite struct ClientPortalTests {
    static func send(_ client: TestClient, _ method: HTTPRequest.Method, _ path: String, _ token: String) async throws -> Reply {
        try await ClientTests.send(client, method, path, token)
    }

    @Test func anInvitationMailsTheClientOnceAMinute() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let admin = try await TeamTests.token(client)
            let jane = try await ClientTests.id(client, admin, email: "jane@example.test")
            let invited = try await Self.send(client, .post, "/api/clients/\(jane)/portal-invite", admin)
            #expect(invited.status == .ok)
            #expect(invited.string("message") == "Invitation sent to jane@example.test")
            let mail = try #require(try await client.mail(to: "jane@example.test").last)
            #expect(mail.subject == "Follow your repairs with Repair Minder")
            #expect(mail.text.contains("Acme Repairs invites you"))
            #expect(mail.text.contains(server.settings.serverURL + "/portal"))
            // A second within the minute: 429 with the wait, and no mail.
            let again = try await Self.send(client, .post, "/api/clients/\(jane)/portal-invite", admin)
            again.expectFailure(.tooManyRequests, "RATE_LIMITED")
            #expect(Int(again.headers[.retryAfter] ?? "") ?? 0 >= 1)
            #expect(try await client.mail(to: "jane@example.test").count == 1)
            server.clock.advance(by: 61)
            #expect(try await Self.send(client, .post, "/api/clients/\(jane)/portal-invite", admin).status == .ok)
            // Refused: a client whose portal is off (nothing spent), an engineer, another shop.
            #expect(try await ClientTests.send(client, .patch, "/api/clients/\(jane)", admin, ["portalEnabled": false]).status == .ok)
            server.clock.advance(by: 61)
            try await Self.send(client, .post, "/api/clients/\(jane)/portal-invite", admin).expectFailure(.conflict, "CLIENT_PORTAL_DISABLED")
            let engineer = try await TeamTests.token(client, DemoFixtures.engineerEmail, DemoFixtures.engineerPassword)
            try await Self.send(client, .post, "/api/clients/\(jane)/portal-invite", engineer).expectFailure(.forbidden, "FORBIDDEN")
            try await Self.send(client, .post, "/api/clients/\(UUID())/portal-invite", admin).expectFailure(.notFound, "NOT_FOUND")
            #expect(try await client.mail(to: "jane@example.test").count == 2)
            let events = try TeamTests.list(try await client.send(.get, "/api/auth/activity?limit=100", bearer: admin))
                .filter { $0["type"] as? String == "client_portal_invited" }
            #expect(events.count == 2)
            #expect((events.first?["detail"] as? [String: String])?["clientId"] == jane)
            // The link opens a page that says how to sign in (and the app where it is installed:
            // `PasskeyTests.appleAppSiteAssociationVouchesForTheApps`).
            let page = try await REKIResetPageTests.get(client, "/portal")
            #expect(page.status == .ok)
            #expect(page.html.contains("Follow your repairs"))
        }
    }

    /// 200 invitations a day per shop, whichever clients they go to.
    @Test func aShopSendsAtMost200InvitationsADay() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let admin = try await TeamTests.token(client)
            let rows = (0..<201).map { "guest\($0)@example.com" }.joined(separator: "\r\n")
            let imported = try await ClientCSVTests.importCSV(client, admin, "email\r\n" + rows)
            #expect(imported.data["created"] as? Int == 201)
            let guests = try await ClientTests.all(client, admin, pages: 3).filter { ($0["email"] as? String)?.hasPrefix("guest") == true }
            let ids = guests.compactMap { $0["id"] as? String }, last = try #require(guests.last?["email"] as? String)
            #expect(ids.count == 201)
            for id in ids.prefix(200) {
                #expect(try await Self.send(client, .post, "/api/clients/\(id)/portal-invite", admin).status == .ok)
            }
            try await Self.send(client, .post, "/api/clients/\(ids[200])/portal-invite", admin).expectFailure(.tooManyRequests, "RATE_LIMITED")
            #expect(try await client.mail(to: last).isEmpty)
            server.clock.advance(by: 86_401)
            let tomorrow = try await TeamTests.token(client)
            #expect(try await Self.send(client, .post, "/api/clients/\(ids[200])/portal-invite", tomorrow).status == .ok)
            #expect(try await client.mail(to: last).count == 1)
        }
    }

    @Test func staffSeeAClientsSessionsAndSignThemOut() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let admin = try await TeamTests.token(client)
            let jane = try await ClientTests.id(client, admin, email: "jane@example.test")
            #expect(try await ClientTests.send(client, .get, "/api/clients/\(jane)", admin).data["last_portal_login"] is NSNull)
            let phone = try #require(try await client.customerSignIn("jane@example.test", userAgent: TestClient.iPhone).string("token"))
            let browser = try #require(try await client.customerSignIn("jane@example.test").string("token"))
            #expect(try await ClientTests.send(client, .get, "/api/clients/\(jane)", admin).string("last_portal_login") != nil)
            let sessions = try TeamTests.list(try await Self.send(client, .get, "/api/clients/\(jane)/sessions", admin))
            #expect(sessions.count == 2)
            #expect(Set(sessions.compactMap { $0["isMobile"] as? Bool }) == [true, false])
            #expect(sessions.contains { $0["userAgent"] as? String == TestClient.iPhone })
            // An engineer and another shop's staff reach neither.
            let engineer = try await TeamTests.token(client, DemoFixtures.engineerEmail, DemoFixtures.engineerPassword)
            try await Self.send(client, .get, "/api/clients/\(jane)/sessions", engineer).expectFailure(.forbidden, "FORBIDDEN")
            try await Self.send(client, .post, "/api/clients/\(jane)/sign-out", engineer).expectFailure(.forbidden, "FORBIDDEN")
            try await Self.send(client, .post, "/api/clients/\(UUID())/sign-out", admin).expectFailure(.notFound, "NOT_FOUND")
            #expect(try await client.send(.get, "/api/customer/auth/me", bearer: phone).status == .ok)
            let signedOut = try await Self.send(client, .post, "/api/clients/\(jane)/sign-out", admin)
            #expect(signedOut.data["revoked"] as? Int == 2)
            for token in [phone, browser] {
                try await client.send(.get, "/api/customer/auth/me", bearer: token).expectFailure(.unauthorized, "UNAUTHORIZED")
            }
            #expect(try TeamTests.list(try await Self.send(client, .get, "/api/clients/\(jane)/sessions", admin)).isEmpty)
            #expect(try await Self.send(client, .post, "/api/clients/\(jane)/sign-out", admin).data["revoked"] as? Int == 0)
            let events = try TeamTests.list(try await client.send(.get, "/api/auth/activity?limit=100", bearer: admin))
                .filter { $0["type"] as? String == "client_sessions_revoked" }
            #expect((events.last?["detail"] as? [String: String])?["revoked"] == "2")
        }
    }

    /// A delete on one instance ends the customer's session with that shop on the other within
    /// 5 seconds; their session with another shop goes on.
    @Test func aDeleteEndsTheShopsSessionsOnEveryInstanceOnly() async throws {
        let server = try await TestServer()
        try await server.runTwoInstances { a, b in
            let acme = try #require(try await a.customerSignIn("multi@example.test", companyName: "Acme Repairs").string("token"))
            let beta = try #require(try await a.customerSignIn("multi@example.test", companyName: "Beta Tech").string("token"))
            #expect(try await a.send(.get, "/api/customer/auth/me", bearer: acme).status == .ok)
            let admin = try await TeamTests.token(b)
            let multi = try await ClientTests.id(b, admin, email: "multi@example.test")
            #expect(try await Self.send(b, .delete, "/api/clients/\(multi)", admin).status == .ok)
            let deleted = ContinuousClock.now
            try await waitUntil("instance a refuses the deleted client's token", timeout: .seconds(5)) {
                try await a.send(.get, "/api/customer/auth/me", bearer: acme).status == .unauthorized
            }
            #expect(ContinuousClock.now - deleted < .seconds(5))
            #expect(try await a.send(.get, "/api/customer/auth/me", bearer: beta).status == .ok)
            #expect(try await b.send(.get, "/api/customer/auth/me", bearer: beta).status == .ok)
        }
    }
}
