import Foundation
import Hummingbird
import HummingbirdTesting
import RepairMinderModels
import SQLKit
import Testing

@testable import RepairMinderServer

/// The registry of connected apps (docs/API.md §16.1), on the engine under test: a shop's
/// admins and the platform's administrators register, change, rotate and delete their own apps,
/// and nobody else's; every refusal leaves the registry as it was.
@Suite struct OAuthAppTests {
    static let shopPath = "/api/company/apps"
    static let platformPath = "/api/admin/apps"

    static func json(_ body: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
    }

    static var bookings: [String: Any] { [
        "name": "Acme bookings", "type": "confidential", "redirectUris": ["https://bookings.acme.test/callback"],
        "postLogoutRedirectUris": ["https://bookings.acme.test/"], "scopes": ["profile", "openid", "clients:read", "openid"],
    ] }

    static func register(_ client: TestClient, _ token: String, _ body: [String: Any] = bookings, path: String = shopPath) async throws
        -> Reply
    {
        try await client.send(.post, path, json: try json(body), bearer: token)
    }

    static func count(_ server: TestServer, _ condition: String = "1 = 1") async throws -> Int {
        try await server.withDatabase { db in
            try await db.withConnection { conn in
                try await conn.raw("SELECT COUNT(*) AS n FROM oauth_apps WHERE \(unsafeRaw: condition)").first(decodingColumn: "n", as: Int.self) ?? -1
            }
        }
    }

    static func stored(_ server: TestServer, clientId: String) async throws -> OAuthAppRecord {
        try await server.withDatabase { db in try #require(try await OAuthAppStore(database: db).app(clientId: clientId)) }
    }

    @Test func aShopAdminRegistersChangesRotatesAndDeletesAnApp() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let admin = try await TeamTests.token(client)
            let made = try await Self.register(client, admin)
            #expect(made.status == .created)
            let id = try #require(made.string("id")), clientId = try #require(made.string("clientId"))
            let secret = try #require(made.string("clientSecret"))
            #expect(clientId.hasPrefix("rmapp_") && secret.hasPrefix("rmsec_") && secret.count == 6 + 43)
            // Scopes in the catalogue's order, each once; the shop's own app.
            #expect(made.data["scopes"] as? [String] == ["openid", "profile", "clients:read"])
            #expect(made.data["firstParty"] as? Bool == false)
            #expect(made.data["companyId"] as? String != nil)
            // Only the secret's hash is kept, and it is never shown again.
            let record = try await Self.stored(server, clientId: clientId)
            #expect(record.secretHash == SecretHashing.tokenHash(secret) && record.secretHash != secret)
            #expect(record.accepts(secret: secret, now: server.clock.now) && !record.accepts(secret: secret + "x", now: server.clock.now))
            let listed = try TeamTests.list(try await client.send(.get, Self.shopPath, bearer: admin))
            #expect(listed.map { $0["id"] as? String } == [id])
            #expect(listed.first?["clientSecret"] == nil)
            #expect(try await client.send(.get, "\(Self.shopPath)/\(id)", bearer: admin).data["clientSecret"] == nil)

            let changed = try await client.send(
                .patch, "\(Self.shopPath)/\(id)", json: #"{"name":"Acme bookings 2","scopes":["openid","email"]}"#, bearer: admin)
            #expect(changed.status == .ok)
            #expect(changed.string("name") == "Acme bookings 2" && changed.data["scopes"] as? [String] == ["openid", "email"])
            #expect(changed.data["redirectUris"] as? [String] == ["https://bookings.acme.test/callback"])

            // A rotation: the new secret works, the old one for the overlap asked for, then not.
            let rotated = try await client.send(
                .post, "\(Self.shopPath)/\(id)/secret", json: #"{"previousSecretValidSeconds":3600}"#, bearer: admin)
            #expect(rotated.status == .ok)
            let newSecret = try #require(rotated.string("clientSecret"))
            #expect(newSecret != secret && rotated.string("previousSecretExpiresAt") != nil)
            let afterRotation = try await Self.stored(server, clientId: clientId)
            #expect(afterRotation.accepts(secret: newSecret, now: server.clock.now))
            #expect(afterRotation.accepts(secret: secret, now: server.clock.now + 3599))
            #expect(!afterRotation.accepts(secret: secret, now: server.clock.now + 3601))
            // An overlap beyond 7 days is refused, and the secrets stay as they were.
            try await client.send(.post, "\(Self.shopPath)/\(id)/secret", json: #"{"previousSecretValidSeconds":604801}"#, bearer: admin)
                .expectFailure(.badRequest, "VALIDATION_ERROR")
            #expect(try await Self.stored(server, clientId: clientId).secretHash == afterRotation.secretHash)
            // Rotating again with no overlap ends both older secrets at once (after a leak).
            let again = try await client.send(
                .post, "\(Self.shopPath)/\(id)/secret", json: #"{"previousSecretValidSeconds":0}"#, bearer: admin)
            let latest = try #require(again.string("clientSecret"))
            let afterLeak = try await Self.stored(server, clientId: clientId)
            #expect(afterLeak.accepts(secret: latest, now: server.clock.now))
            #expect(!afterLeak.accepts(secret: newSecret, now: server.clock.now) && !afterLeak.accepts(secret: secret, now: server.clock.now))
            #expect(again.data["previousSecretExpiresAt"] is NSNull)

            #expect(try await client.send(.delete, "\(Self.shopPath)/\(id)", bearer: admin).status == .ok)
            try await client.send(.get, "\(Self.shopPath)/\(id)", bearer: admin).expectFailure(.notFound, "NOT_FOUND")
            #expect(try await Self.count(server) == 0)
            // Every change is in the audit log, naming the app and the admin.
            let events = try await server.withDatabase { db in
                try await db.withConnection { conn in
                    try await conn.raw("SELECT type FROM activity_log WHERE type LIKE 'app_%' AND actor = \(bind: DemoFixtures.adminEmail) ORDER BY at, id")
                        .all(decodingColumn: "type", as: String.self)
                }
            }
            #expect(events == ["app_registered", "app_updated", "app_secret_rotated", "app_secret_rotated", "app_deleted"])
        }
    }

    @Test func whatARegistrationRefusesLeavesNothingWritten() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let admin = try await TeamTests.token(client)
            func refused(_ change: [String: Any], _ message: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
                let reply = try await Self.register(client, admin, Self.bookings.merging(change) { _, new in new })
                reply.expectFailure(.badRequest, "VALIDATION_ERROR", sourceLocation: sourceLocation)
                #expect(reply.error?.contains(message) == true, "\(reply.error ?? "")", sourceLocation: sourceLocation)
            }
            for uri in [
                "http://bookings.acme.test/callback", "https://bookings.acme.test/callback#done", "https://*.acme.test/callback",
                "http://localhost:8080/callback", "com.acme.bookings:/callback", "https://user:pw@bookings.acme.test/callback",
                "https:///callback", "/callback",
            ] {
                try await refused(["redirectUris": [uri]], "redirectUris")
            }
            try await refused(["redirectUris": []], "redirectUris needs at least one URI")
            try await refused(["postLogoutRedirectUris": ["http://bookings.acme.test/"]], "postLogoutRedirectUris")
            try await refused(["redirectUris": Array(repeating: "https://bookings.acme.test/callback", count: 11)], "redirectUris takes at most 10")
            try await refused(["scopes": ["openid", "admin"]], "scopes[1] must be one of")
            try await refused(["scopes": []], "scopes needs at least one scope")
            try await refused(["type": "service"], "type")
            try await refused(["firstParty": true], "firstParty is for the platform's own apps only")
            try await refused(["clientSecret": "mine"], "clientSecret")
            try await refused(["name": " "], "name is required")
            #expect(try await Self.count(server) == 0)

            // An engineer has no `apps:manage`; a shop admin has no `companies:manage`.
            let engineer = try await TeamTests.token(client, DemoFixtures.engineerEmail, DemoFixtures.engineerPassword)
            try await Self.register(client, engineer).expectFailure(.forbidden, "FORBIDDEN")
            try await client.send(.get, Self.shopPath, bearer: engineer).expectFailure(.forbidden, "FORBIDDEN")
            try await Self.register(client, admin, path: Self.platformPath).expectFailure(.forbidden, "FORBIDDEN")
            #expect(try await Self.count(server) == 0)

            // A public app has no secret to rotate; loopback URIs are for it.
            let native = try await Self.register(
                client, admin,
                ["name": "Bench app", "type": "public", "redirectUris": ["http://127.0.0.1/callback", "http://[::1]:8123/callback"],
                 "scopes": ["openid", "offline_access"]])
            #expect(native.status == .created && native.data["clientSecret"] == nil)
            let nativeId = try #require(native.string("id"))
            try await client.send(.post, "\(Self.shopPath)/\(nativeId)/secret", json: "{}", bearer: admin)
                .expectFailure(.conflict, "APP_HAS_NO_SECRET")
            try await client.send(.patch, "\(Self.shopPath)/\(nativeId)", json: #"{"redirectUris":[]}"#, bearer: admin)
                .expectFailure(.badRequest, "VALIDATION_ERROR", "redirectUris needs at least one URI")
            #expect(try await client.send(.get, "\(Self.shopPath)/\(nativeId)", bearer: admin).data["redirectUris"] as? [String]
                == ["http://127.0.0.1/callback", "http://[::1]:8123/callback"])
        }
    }

    @Test func eachOwnerReachesOnlyItsOwnAppsUpToTheLimit() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let admin = try await TeamTests.token(client)
            let platform = try await PlatformAdminTests.platformAdmin(client)
            let dashboard = try await Self.register(
                client, platform,
                ["name": "Dashboard", "type": "public", "redirectUris": ["https://dashboard.repairminder.test/callback"],
                 "scopes": ["openid", "repairminder"], "firstParty": true], path: Self.platformPath)
            #expect(dashboard.status == .created && dashboard.data["firstParty"] as? Bool == true)
            #expect(dashboard.data["companyId"] is NSNull)
            let dashboardId = try #require(dashboard.string("id"))
            let shopApp = try #require(try await Self.register(client, admin).string("id"))

            // Neither side sees, changes or deletes the other's app.
            #expect(try TeamTests.list(try await client.send(.get, Self.shopPath, bearer: admin)).map { $0["id"] as? String } == [shopApp])
            #expect(try TeamTests.list(try await client.send(.get, Self.platformPath, bearer: platform)).map { $0["id"] as? String } == [dashboardId])
            for (path, token) in [("\(Self.shopPath)/\(dashboardId)", admin), ("\(Self.platformPath)/\(shopApp)", platform)] {
                try await client.send(.get, path, bearer: token).expectFailure(.notFound, "NOT_FOUND")
                try await client.send(.patch, path, json: #"{"name":"Mine"}"#, bearer: token).expectFailure(.notFound, "NOT_FOUND")
                try await client.send(.post, path + "/secret", json: "{}", bearer: token).expectFailure(.notFound, "NOT_FOUND")
                try await client.send(.delete, path, bearer: token).expectFailure(.notFound, "NOT_FOUND")
            }
            #expect(try await Self.count(server) == 2)

            // 25 apps per owner; the 26th is refused, and nothing is written.
            for index in 2...OAuthAppStore.maximumPerOwner {
                #expect(try await Self.register(client, admin, Self.bookings.merging(["name": "App \(index)"]) { _, new in new }).status == .created)
            }
            try await Self.register(client, admin).expectFailure(.conflict, "APP_LIMIT")
            #expect(try await Self.count(server, "company_id IS NOT NULL") == OAuthAppStore.maximumPerOwner)
            // The platform's own count is apart from the shop's.
            #expect(try await Self.register(client, platform, path: Self.platformPath).status == .created)
        }
    }
}
