import Foundation
import Hummingbird
import HummingbirdTesting
import RepairMinderModels
import Testing

@testable import RepairMinderServer

/// The console's connected apps (docs/API.md §15.6, §16.1): a shop admin registers an app, sees
/// its secret once, gives it a new one and deletes it after a confirmation; a refusal keeps what
/// was typed; an engineer is refused the page; the platform's administrator has the platform's.
@Suite struct ConsoleAppTests {
    static func secret(_ page: ConsoleBrowser.Page) -> String? {
        page.html.firstMatch(of: /id="client-secret">([^<]+)</).map { String($0.1) }
    }

    @Test func aShopAdminRegistersRotatesAndDeletesAnApp() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let browser = try await ConsoleBrowser.signedIn(client)
            let empty = try await browser.get("/console/apps")
            #expect(empty.status == .ok && empty.heading == "Connected apps" && empty.html.contains("No app signs people in"))
            #expect(empty.html.contains(#"href="/console/apps""#))

            let fields = ["name": "Acme bookings", "type": "confidential", "redirectUris": "https://bookings.acme.test/callback\r\n",
                          "scope:openid": "on", "scope:email": "on"]
            let refused = try await browser.post("/console/apps", fields.merging(["redirectUris": "http://bookings.acme.test/cb"]) { _, new in new })
            #expect(refused.status == .badRequest && refused.problem?.contains("must be an https:// URL") == true)
            #expect(refused.html.contains("http://bookings.acme.test/cb") && refused.html.contains(#"value="Acme bookings""#))

            let made = try await browser.post("/console/apps", fields)
            #expect(made.status == .created)
            let secret = try #require(Self.secret(made))
            #expect(secret.hasPrefix("rmsec_") && made.html.contains("openid email"))
            let listed = try TeamTests.list(try await client.send(.get, "/api/company/apps", bearer: try await TeamTests.token(client)))
            let appId = try #require(listed.first?["id"] as? String), clientId = try #require(listed.first?["clientId"] as? String)
            #expect(try await OAuthAppTests.stored(server, clientId: clientId).accepts(secret: secret, now: server.clock.now))
            // Listed again, the secret is not there.
            #expect(Self.secret(try await browser.get("/console/apps")) == nil)

            let rotated = try await browser.post("/console/apps/\(appId)/secret")
            let newSecret = try #require(Self.secret(rotated))
            #expect(newSecret != secret)

            let ask = try await browser.get("/console/apps/\(appId)/delete")
            #expect(ask.status == .ok && ask.heading == "Delete Acme bookings?")
            let deleted = try await browser.post("/console/apps/\(appId)/delete")
            #expect(deleted.location == "/console/apps?notice=saved")
            #expect(try await browser.get("/console/apps").html.contains("No app signs people in"))

            let engineer = try await ConsoleBrowser.signedIn(client, DemoFixtures.engineerEmail, DemoFixtures.engineerPassword)
            #expect(try await engineer.get("/console/apps").status == .forbidden)
            #expect(!(try await engineer.get("/console/account")).html.contains(#"href="/console/apps""#))
        }
    }

    @Test func thePlatformAdministratorRegistersAFirstPartyApp() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let browser = try await ConsoleBrowser.signedIn(client, DemoFixtures.platformAdminEmail, DemoFixtures.platformAdminPassword)
            let made = try await browser.post(
                "/console/admin/apps",
                ["name": "Dashboard", "type": "public", "redirectUris": "https://dashboard.repairminder.test/callback", "scope:openid": "on",
                 "firstParty": "on"])
            #expect(made.status == .created && made.heading == "Apps")
            #expect(made.html.contains("public, first party") && Self.secret(made) == nil)
        }
    }
}
