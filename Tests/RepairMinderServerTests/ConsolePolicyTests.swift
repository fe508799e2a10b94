import Foundation
import Hummingbird
import HummingbirdTesting
import RepairMinderModels
import TestSupport
import Testing

@testable import RepairMinderServer

/// The console's Sign-in requirements page (docs/API.md §15.6, §13.1): every member reads the
/// shop's policy; its admins change it through the API's own handler, whose refusals the page
/// shows in the API's words; a form from elsewhere changes nothing.
@Suite struct ConsolePolicyTests {
    static let path = "/console/security-policy"

    /// The policy as the API answers it.
    static func policy(_ client: TestClient, _ token: String) async throws -> [String: any Sendable] {
        let reply = try await client.send(.get, "/api/company/security-policy", bearer: token)
        #expect(reply.status == .ok)
        return reply.data
    }

    /// The policy's values and when it last changed, in one comparable line.
    static func snapshot(_ client: TestClient, _ token: String) async throws -> String {
        let policy = try await Self.policy(client, token)
        let lifetimes = policy["sessionMaxLifetimeDays"] as? [String: any Sendable] ?? [:]
        return [policy["requiredFactor"], policy["allowMagicLink"], policy["enrolmentGraceDays"], lifetimes["web"], lifetimes["mobile"], policy["updatedAt"]]
            .map { "\($0 ?? "nil")" }.joined(separator: "|")
    }

    /// The form as the page sends it for the default policy (a field changed by each test).
    static let unchanged = ["requiredFactor": "none", "allowMagicLink": "true", "enrolmentGraceDays": "7", "webDays": "30", "mobileDays": "365"]

    @Test func anAdminChangesThePolicyAndABadValueIsTheAPIsToRefuse() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            let admin = try await TeamTests.token(client)
            let browser = try await ConsoleBrowser.signedIn(client)
            let page = try await browser.get(Self.path)
            #expect(page.status == .ok)
            #expect(page.heading == "Sign-in requirements")
            #expect(page.html.contains(#"<a href="/console/security-policy" aria-current="page">Sign-in requirements</a>"#))
            #expect(page.html.contains(#"<input type="radio" name="requiredFactor" value="none" aria-describedby="factor-none-help" checked>"#))
            #expect(page.html.contains(#"<label for="enrolmentGraceDays">"#))
            #expect(page.html.contains(#"max="30" step="1" required value="30""#), "the web lifetime, at most the server's")
            #expect(page.html.contains("Who has set up a stronger sign-in"))
            #expect(page.html.contains("engineer@acme.test"))
            let before = try await Self.snapshot(client, admin)

            // Values the API refuses: its message, and nothing changed.
            for (field, value, json) in [
                ("enrolmentGraceDays", "31", #"{"enrolmentGraceDays": 31}"#),
                ("webDays", "31", #"{"sessionMaxLifetimeDays": {"web": 31}}"#),
                ("mobileDays", "0", #"{"sessionMaxLifetimeDays": {"mobile": 0}}"#),
                ("enrolmentGraceDays", "1.5", #"{"enrolmentGraceDays": 1.5}"#),
                ("requiredFactor", "sometimes", #"{"requiredFactor": "sometimes"}"#),
            ] {
                let api = try await client.send(.put, "/api/company/security-policy", json: json, bearer: admin)
                #expect(api.status == .badRequest, "\(field)")
                let refused = try await browser.post(Self.path, Self.unchanged.merging([field: value]) { $1 })
                #expect(refused.status == .badRequest, "\(field)")
                #expect((refused.problem ?? "") == api.error, "\(field)")
                if field != "requiredFactor" { #expect(refused.html.contains(#"value="\#(value)""#), "the form keeps what was typed") }
            }
            #expect(try await Self.snapshot(client, admin) == before)

            // A change: every field of the form, as the API stores it.
            let saved = try await browser.post(
                Self.path, ["requiredFactor": "app_or_passkey", "enrolmentGraceDays": "10", "webDays": "7", "mobileDays": "90"])
            #expect(saved.status == .seeOther)
            #expect(saved.headers[.location] == "/console/security-policy?notice=saved")
            let after = try await Self.policy(client, admin)
            #expect(after["requiredFactor"] as? String == "app_or_passkey")
            #expect(after["allowMagicLink"] as? Bool == false, "an unticked box")
            #expect(after["enrolmentGraceDays"] as? Int == 10)
            #expect((after["sessionMaxLifetimeDays"] as? [String: Any])?["web"] as? Int == 7)
            #expect((after["sessionMaxLifetimeDays"] as? [String: Any])?["mobile"] as? Int == 90)
            #expect((after["updatedBy"] as? [String: Any])?["email"] as? String == DemoFixtures.adminEmail)
            let shown = try await browser.get(Self.path + "?notice=saved")
            #expect(shown.html.contains("Saved."))
            #expect(shown.html.contains("<dd>An authenticator app or a passkey</dd>"))
            #expect(shown.html.contains("<dd>Not allowed</dd>"))
            #expect(shown.html.contains("have not set up what the shop requires yet"))
            #expect(shown.html.contains("<td>engineer@acme.test</td><td>Neither</td><td>Not yet</td>"))
        }
    }

    @Test func anEngineerReadsThePolicyAndCannotChangeIt() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            let admin = try await TeamTests.token(client)
            let browser = try await ConsoleBrowser.signedIn(client, DemoFixtures.engineerEmail, DemoFixtures.engineerPassword)
            let page = try await browser.get(Self.path)
            #expect(page.status == .ok)
            #expect(page.html.contains("<dd>Nothing more</dd>"))
            #expect(!page.html.contains("<form method=\"post\" action=\"/console/security-policy\""), "no form")
            #expect(!page.html.contains("Who has set up a stronger sign-in"), "the team is not theirs to list")
            let before = try await Self.snapshot(client, admin)
            let refused = try await browser.post(Self.path, Self.unchanged.merging(["requiredFactor": "passkey"]) { $1 })
            #expect(refused.status == .forbidden)
            #expect(try await Self.snapshot(client, admin) == before)
        }
    }

    @Test func aFormFromElsewhereChangesNothing() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            let admin = try await TeamTests.token(client)
            let browser = try await ConsoleBrowser.signedIn(client)
            let before = try await Self.snapshot(client, admin)
            let change = Self.unchanged.merging(["requiredFactor": "passkey"]) { $1 }
            #expect(try await browser.post(Self.path, change, csrf: false).status == .forbidden)
            #expect(try await browser.post(Self.path, change, headers: [.origin: "https://evil.example"]).status == .forbidden)
            #expect(try await browser.post(Self.path, change.merging(["csrf": "forged"]) { $1 }, csrf: false).status == .forbidden)
            #expect(try await Self.snapshot(client, admin) == before)
        }
    }
}
