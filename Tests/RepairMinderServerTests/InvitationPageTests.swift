import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import RepairMinderServer

/// The page an invitation mail links to (docs/API.md §12.4): `GET /invite?token=…` shows the
/// offer and uses nothing, `POST /invite` joins through the API's code; every answer is an
/// `HTMLPage` with the headers that keep the token in the address safe.
@Suite struct InvitationPageTests {
    typealias Page = REKIResetPageTests.Page

    static func invited(_ client: TestClient, email: String = InvitationTests.invitee) async throws -> String {
        let admin = try await TeamTests.token(client)
        #expect(try await InvitationTests.invite(client, admin, email: email).status == .created)
        return try await InvitationTests.linkToken(client, to: email)
    }

    /// Posts `fields` as the invitation page's form does, from the server's own origin unless
    /// `origin` says another (nil: none at all).
    static func post(_ client: TestClient, _ fields: [String: String], origin: String?? = .none) async throws -> Page {
        let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        let body = fields.map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "")" }
            .joined(separator: "&")
        let own = ServerSettings.serialisedOrigin(client.settings.serverURL) ?? client.settings.serverURL
        return try await REKIResetPageTests.send(client, .post, "/invite", body: body, origin: origin ?? own)
    }

    @Test func theLinkShowsTheOfferAndJoiningCreatesTheMember() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            let token = try await Self.invited(client)
            // Opened twice, as a mail scanner and then the person would: nothing is used.
            for _ in 0..<2 {
                let page = try await REKIResetPageTests.get(client, "/invite?token=\(token)")
                #expect(page.status == .ok)
                REKIResetPageTests.expectPageHeaders(page)
                #expect(page.heading == "Join Acme Repairs")
                #expect(page.html.contains("Acme Repairs invites \(InvitationTests.invitee) to its team on Repair Minder as an engineer."))
                #expect(page.html.contains(#"<form method="post" action="invite">"#))
            }
            // Two different passwords, then a weak one: the form again, with why, and nothing made.
            let differ = try await Self.post(client, ["token": token, "password": "violet kettle 1987", "confirmPassword": "violet kettle 1988"])
            #expect(differ.status == .badRequest)
            #expect(differ.problem == "The two passwords do not match. Type the same password in both fields.")
            let weak = try await Self.post(client, ["token": token, "password": "password1", "confirmPassword": "password1"])
            #expect(weak.status == .badRequest)
            #expect(weak.problem == "This password is too common. Choose another.")
            #expect(try await server.withDatabase { try await AccountStore(database: $0).user(email: InvitationTests.invitee) } == nil)

            let joined = try await Self.post(client, ["token": token, "password": "violet kettle 1987 drum", "confirmPassword": "violet kettle 1987 drum"])
            #expect(joined.status == .ok)
            REKIResetPageTests.expectPageHeaders(joined)
            #expect(joined.heading == "You joined Acme Repairs")
            #expect(try await client.signIn(InvitationTests.invitee, "violet kettle 1987 drum").string("token") != nil)
            // Used: the link and the form say so, and nothing more is made.
            let again = try await REKIResetPageTests.get(client, "/invite?token=\(token)")
            #expect(again.status == .notFound)
            #expect(again.heading == "This invitation is invalid or has expired")
            let twice = try await Self.post(client, ["token": token, "password": "", "confirmPassword": ""])
            #expect(twice.status == .notFound)
        }
    }

    /// Without a password the page signs the new member in to the web console, on My account,
    /// where a passkey is added (docs/API.md §15.6): a console session, as the app's accept starts one.
    @Test func joiningWithoutAPasswordSignsInToTheConsoleToAddAPasskey() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            let token = try await Self.invited(client)
            let joined = try await Self.post(client, ["token": token, "password": "", "confirmPassword": ""])
            #expect(joined.status == .seeOther)
            #expect(joined.headers[.location] == "/console/account?notice=joined")
            let cookie = try #require(joined.headers[values: .setCookie].first { $0.hasPrefix(ConsoleCookies.session + "=") })
            #expect(cookie.contains("; Secure") && cookie.contains("; HttpOnly") && cookie.contains("; SameSite=Strict"))
            let user = try #require(try await server.withDatabase { try await AccountStore(database: $0).user(email: InvitationTests.invitee) })
            #expect(user.passwordHash == nil)
            #expect(user.role == "engineer")
            // The session is the console's: My account opens, offering to add a passkey.
            let browser = ConsoleBrowser(client)
            let value = String(cookie.dropFirst(ConsoleCookies.session.count + 1).prefix { $0 != ";" })
            browser.set(cookie: ConsoleCookies.session, value)
            let account = try await browser.get("/console/account?notice=joined")
            #expect(account.heading == "My account")
            #expect(account.notice?.hasPrefix("Welcome to the team.") == true)
            #expect(account.html.contains(#"id="add-passkey""#))
        }
    }

    /// Login CSRF: an attacker invites a mailbox of their own and has a victim's browser post
    /// its token from another site. Refused before anything is read: the victim's console
    /// session stays theirs, and the invitation stays unused.
    @Test func aFormFromAnotherSiteIsRefusedAndLeavesTheConsoleSessionAlone() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            let victim = try await ConsoleBrowser.signedIn(client)
            let session = try #require(victim.sessionToken)
            let token = try await Self.invited(client)
            let fields = ["token": token, "password": "", "confirmPassword": ""]
            let body = fields.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
            // As the victim's browser sends another site's form (with the console's cookie),
            // and a post without `Origin` at all.
            let withoutOrigin = try await Self.post(client, fields, origin: .some(nil))
            var refusals = [(withoutOrigin.status, withoutOrigin.html, withoutOrigin.headers[values: .setCookie])]
            for origin in ["https://evil.example", "null"] {
                let page = try await victim.send(.post, "/invite", body: body, headers: [.origin: origin])
                refusals.append((page.status, page.html, page.setCookies))
            }
            for (status, html, setCookies) in refusals {
                #expect(status == .forbidden)
                #expect(html.contains("This form can only be sent from the invitation page."))
                #expect(setCookies.isEmpty)
            }
            #expect(victim.sessionToken == session)
            #expect(try await victim.get("/console/account").heading == "My account")
            #expect(try await server.withDatabase { try await AccountStore(database: $0).user(email: InvitationTests.invitee) } == nil)
            // The page itself still joins with the same token.
            #expect(try await Self.post(client, fields).status == .seeOther)
        }
    }

    @Test func aLinkWithoutAUsableTokenSaysSo() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            for path in ["/invite", "/invite?token=", "/invite?token=%20"] {
                let page = try await REKIResetPageTests.get(client, path)
                #expect(page.status == .badRequest, "\(path)")
                #expect(page.heading == "This link is incomplete", "\(path)")
            }
            let unknown = String(repeating: "c", count: 64)
            let page = try await REKIResetPageTests.get(client, "/invite?token=\(unknown)")
            #expect(page.status == .notFound)
            #expect(!page.html.contains(unknown), "an unknown token is not echoed")
            let wrongType = try await REKIResetPageTests.send(
                client, .post, "/invite", body: "{}", contentType: "application/json",
                origin: ServerSettings.serialisedOrigin(client.settings.serverURL))
            #expect(wrongType.status == .unsupportedMediaType)
        }
    }

    /// Headless Chromium, driven by Selenium, opens the link, uses the form (a mismatch, then a
    /// password), and that password signs in (`.ci/invite-page-check.py`). Under CI a missing
    /// browser fails rather than skips.
    @Test(
        .enabled(
            if: PythonScript.runs(needing: "selenium", programs: ["chromium", "chromedriver"]),
            "needs Selenium and Chromium: apt-get install chromium chromium-driver; python3 -m pip install selenium"),
        .timeLimit(.minutes(5)))
    func aBrowserJoinsFromTheLink() async throws {
        try await onOwnExecutor {
                let server = try await TestServer(firstInLine: true)
                try await server.run(.live) { client in
                let port = try #require(client.client.port)
                let token = try await Self.invited(client)
                let verdict = try await PythonScript.verdict(
                    "invite-page-check.py", ["http://localhost:\(port)", token, InvitationTests.invitee, "Acme Repairs"])
                try #require(verdict == nil, "\(verdict ?? "")")
                let user = try #require(try await server.withDatabase { try await AccountStore(database: $0).user(email: InvitationTests.invitee) })
                #expect(user.passwordHash != nil)
            }
        }
    }
}
