import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import RepairMinderModels
import SQLKit
import TestSupport
import Testing

@testable import RepairMinderServer

/// The web console's sessions, forms and pages (docs/API.md §15.6), through its HTML as a
/// browser uses it (`ConsoleBrowser`), on SQLite or PostgreSQL like every live-server test.
@Suite struct ConsoleTests {
    @Test func signingInStartsASessionHeldByAHostCookieThatSignOutEnds() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            let browser = ConsoleBrowser(client)
            let unsigned = try await browser.get("/console/team")
            #expect(unsigned.status == .seeOther && unsigned.location == "/console/sign-in")

            let team = try await browser.signIn()
            #expect(team.status == .ok && team.heading == "Team")
            #expect(team.html.contains("engineer@acme.test"))
            #expect(team.html.contains(#"<nav class="pager" aria-label="Pages">"#) && team.html.contains("Page 1 of 1"))
            Self.expectPageHeaders(team)
            let token = try #require(browser.sessionToken)
            let cookie = try #require(
                try await ConsoleBrowser(client).signIn(follow: false).setCookies.first { $0.hasPrefix(ConsoleCookies.session + "=") },
                "the Set-Cookie of a sign-in")
            for flag in ["Path=/", "Secure", "HttpOnly", "SameSite=Strict"] { #expect(cookie.contains("; \(flag)"), "\(flag)") }
            #expect(cookie.hasPrefix("__Host-rm_console=") && !cookie.lowercased().contains("domain="))

            // A staff session: stored only as the token's hash, listed among the signed-in devices.
            let stored = try await server.withDatabase { database in
                try await database.withConnection { db in
                    try await db.raw("SELECT console_token_hash FROM sessions WHERE console_token_hash IS NOT NULL")
                        .all(decodingColumn: "console_token_hash", as: String.self)
                }
            }
            #expect(stored.contains(SecretHashing.tokenHash(token)) && !stored.contains(token))
            let account = try await browser.get("/console/account")
            #expect(account.html.contains("(this console)"))
            let bearer = try #require(try await client.signIn().string("token"))
            let sessions = try TeamTests.list(try await client.send(.get, "/api/auth/sessions", bearer: bearer))
            #expect(sessions.count == 3, "two console sessions and the API's")

            let out = try await browser.post("/console/sign-out")
            #expect(out.status == .seeOther && out.location == "/console/sign-in?notice=signed-out")
            #expect(out.setCookies.contains { $0.hasPrefix("__Host-rm_console=;") && $0.contains("Max-Age=0") })
            // The server ended it: the old cookie is worth nothing.
            let replayed = ConsoleBrowser(client)
            replayed.set(cookie: ConsoleCookies.session, token)
            #expect(try await replayed.get("/console/team").location == "/console/sign-in")
            #expect(try TeamTests.list(try await client.send(.get, "/api/auth/sessions", bearer: bearer)).count == 2)
        }
    }

    @Test func aSessionEndsAfterTwelveHoursUnusedAndLastsWhileUsed() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            let browser = ConsoleBrowser(client)
            try await browser.signIn()
            for _ in 0..<3 {
                server.clock.advance(by: 11 * 3600)
                #expect(try await browser.get("/console/team").status == .ok)
            }
            server.clock.advance(by: 12 * 3600 + 1)
            #expect(try await browser.get("/console/team").location == "/console/sign-in")
        }
    }

    /// The shop's lifetime as it is now (§13.3): shortened to a day, it ends a console session
    /// older than that however recently used, as it ends an API session at its refresh.
    @Test func aShortenedShopLifetimeEndsAnOlderSession() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            let browser = ConsoleBrowser(client)
            try await browser.signIn()
            for _ in 0..<3 {
                server.clock.advance(by: 11 * 3600)
                #expect(try await browser.get("/console/team").status == .ok)
            }
            let admin = try await TeamTests.token(client)
            let shortened = #"{"sessionMaxLifetimeDays": {"web": 1}}"#
            #expect(try await client.send(.put, "/api/company/security-policy", json: shortened, bearer: admin).status == .ok)
            // The policy cache's few seconds (§13.3), then the next page.
            server.clock.advance(by: 5)
            #expect(try await browser.get("/console/team").location == "/console/sign-in")
            // A session of the new policy lasts its day.
            try await browser.signIn()
            server.clock.advance(by: 11 * 3600)
            #expect(try await browser.get("/console/team").status == .ok)
        }
    }

    @Test func aFormWithoutItsTokenOrFromAnotherOriginChangesNothing() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            let browser = ConsoleBrowser(client)
            try await browser.signIn()
            _ = try await browser.get("/console/team/invite")
            let invite = ["email": "new@acme.test", "firstName": "New", "lastName": "Member", "role": "engineer"]
            let other = ConsoleBrowser(client)
            try await other.signIn(DemoFixtures.adminEmail, DemoFixtures.adminPassword)
            let refusals: [(String, ConsoleBrowser.Page)] = [
                ("no token", try await browser.post("/console/team/invite", invite, csrf: false)),
                ("a wrong token", try await browser.post("/console/team/invite", invite.merging(["csrf": "x"]) { $1 })),
                ("another session's token", try await browser.post("/console/team/invite", invite.merging(["csrf": other.csrf ?? ""]) { $1 })),
                ("another origin", try await browser.post("/console/team/invite", invite, headers: [.origin: "https://evil.example"])),
                ("an opaque origin", try await browser.post("/console/team/invite", invite, headers: [.origin: "null"])),
                ("JSON", try await browser.send(.post, "/console/team/invite", body: "{}", headers: [.contentType: "application/json"])),
                // No page sends a field twice: which one counted would be the reader's guess.
                ("a field given twice", try await browser.send(
                    .post, "/console/team/invite",
                    body: ConsoleBrowser.encoded(invite.merging(["csrf": browser.csrf ?? ""]) { $1 }) + "&email=other%40acme.test")),
            ]
            for (what, page) in refusals {
                #expect(page.status == .forbidden, "\(what)")
                #expect(page.problem?.hasPrefix("This form could not be accepted") == true, "\(what)")
            }
            #expect(try await client.mail(to: "new@acme.test").isEmpty)
            // The same form with its token goes through.
            _ = try await browser.get("/console/team/invite")
            let sent = try await browser.post("/console/team/invite", invite)
            #expect(sent.location == "/console/team?notice=invited")
            #expect(try await client.mail(to: "new@acme.test").count == 1)
            // Pending: resent (a new mail), and revoked after the question, which changes nothing.
            let team = try await browser.get("/console/team")
            let invitation = try #require(team.html.firstMatch(of: /team\/invitations\/([0-9a-f-]+)\/resend/).map { String($0.1) })
            // At most one a minute (§12.3): at once, the API's 429 as a page.
            #expect(try await browser.post("/console/team/invitations/\(invitation)/resend").status == .tooManyRequests)
            server.clock.advance(by: 61)
            let resent = try await browser.post("/console/team/invitations/\(invitation)/resend")
            #expect(resent.location == "/console/team?notice=resent", "\(resent.status) \(resent.problem ?? "")")
            #expect(try await client.mail(to: "new@acme.test").count == 2)
            let question = try await browser.get("/console/team/invitations/\(invitation)/revoke")
            #expect(question.heading == "Revoke the invitation of new@acme.test?")
            #expect(try await browser.get("/console/team").html.contains("new@acme.test"))
            #expect(try await browser.post("/console/team/invitations/\(invitation)/revoke").location == "/console/team?notice=saved")
            #expect(!(try await browser.get("/console/team").html.contains("new@acme.test")))
            // Without a session (one that ended while its page was open): sign in again, nothing
            // done; from another site, refused.
            let signedOut = ConsoleBrowser(client)
            let expired = try await signedOut.post("/console/team/invite", invite.merging(["email": "late@acme.test"]) { $1 }, csrf: false)
            #expect(expired.status == .seeOther && expired.location == "/console/sign-in")
            let foreign = try await signedOut.post("/console/team/invite", invite, csrf: false, headers: [.origin: "https://evil.example"])
            #expect(foreign.status == .forbidden)
            #expect(try await client.mail(to: "late@acme.test").isEmpty)
            // Before sign-in, the form is checked against the pre-session cookie's token.
            let stranger = ConsoleBrowser(client)
            #expect(try await stranger.post("/console/sign-in", ["email": DemoFixtures.adminEmail, "password": DemoFixtures.adminPassword]).status == .forbidden)
        }
    }

    @Test func theSignInTakesTheAPIsAnswersAndIsForStaffOnly() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            let browser = ConsoleBrowser(client)
            _ = try await browser.get("/console/sign-in")
            let wrong = try await browser.post("/console/sign-in", ["email": DemoFixtures.adminEmail, "password": "not it"])
            #expect(wrong.status == .unauthorized && wrong.problem == "Invalid credentials" && wrong.heading == "Sign in")
            // A customer has no staff account.
            let customer = try await browser.post("/console/sign-in", ["email": "jane@example.test", "password": "anything at all"])
            #expect(customer.status == .unauthorized)
            // Nor has a REKI account, with its own right password.
            #expect(try await client.post("/auth/register", ["email": "reki@example.com", "password": "violet kettle 1987"]).status == .created)
            let reki = try await browser.post("/console/sign-in", ["email": "reki@example.com", "password": "violet kettle 1987"])
            #expect(reki.status == .unauthorized && reki.heading == "Sign in")
            let codePage = try await browser.post("/console/sign-in", ["email": DemoFixtures.adminEmail, "password": DemoFixtures.adminPassword])
            let fields = ["userId": codePage.hidden("userId") ?? "", "email": DemoFixtures.adminEmail, "challengeToken": codePage.hidden("challengeToken") ?? ""]
            let badCode = try await browser.post("/console/sign-in/code", fields.merging(["code": "000000"]) { $1 })
            #expect(badCode.status == .unauthorized && badCode.heading == "Enter your code" && badCode.problem == "Invalid verification code", "\(badCode.status) \(badCode.heading ?? "") \(badCode.problem ?? "")")
            #expect(browser.sessionToken == nil)
            let code = try await client.latestCode(to: DemoFixtures.adminEmail)
            let done = try await browser.post("/console/sign-in/code", fields.merging(["code": code]) { $1 })
            #expect(done.status == .seeOther && browser.sessionToken != nil)
        }
    }

    @Test func aMemberSignsInWithAnEmailedCodeWhereAllowed() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            let browser = ConsoleBrowser(client)
            _ = try await browser.get("/console/sign-in/email")
            // The same answer for an address without an account, and nothing is mailed.
            let unknown = try await browser.post("/console/sign-in/email", ["email": "nobody@acme.test"])
            #expect(unknown.heading == "Enter your sign-in code" && unknown.notice?.hasPrefix("If nobody@acme.test may sign in") == true)
            #expect(try await client.mail(to: "nobody@acme.test").isEmpty)

            let mailed = try await browser.post("/console/sign-in/email", ["email": "nopassword@acme.test"])
            #expect(mailed.heading == "Enter your sign-in code")
            let wrong = try await browser.post("/console/sign-in/email/code", ["email": "nopassword@acme.test", "code": "000000"])
            #expect(wrong.status.code == 400 || wrong.status.code == 401)
            #expect(wrong.problem != nil && browser.sessionToken == nil)
            let code = try await client.latestCode(to: "nopassword@acme.test")
            let done = try await browser.post("/console/sign-in/email/code", ["email": "nopassword@acme.test", "code": code])
            #expect(done.status == .seeOther && browser.sessionToken != nil)
            #expect(try await browser.follow(done).heading == "My account")
        }
    }

    @Test func aForgottenPasswordIsResetFromTheSignInPage() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            let bearer = try #require(try await client.signIn().string("token"))
            let browser = ConsoleBrowser(client)
            _ = try await browser.get("/console/reset-password")
            let mailed = try await browser.post("/console/reset-password", ["email": DemoFixtures.adminEmail])
            #expect(mailed.heading == "Choose a new password")
            let code = try await client.latestCode(to: DemoFixtures.adminEmail)
            let fields = ["email": DemoFixtures.adminEmail, "code": code]
            let mismatch = try await browser.post(
                "/console/reset-password/new", fields.merging(["password": "amber lantern 2031 tide", "confirmPassword": "amber"]) { $1 })
            #expect(mismatch.status == .badRequest && mismatch.problem?.hasPrefix("The two passwords do not match") == true)
            let weak = try await browser.post(
                "/console/reset-password/new", fields.merging(["password": "password1", "confirmPassword": "password1"]) { $1 })
            #expect(weak.status == .badRequest && weak.problem == "This password is too common. Choose another.")
            #expect(try await client.send(.get, "/api/auth/me", bearer: bearer).status == .ok, "nothing changed yet")
            let done = try await browser.post(
                "/console/reset-password/new",
                fields.merging(["password": "amber lantern 2031 tide", "confirmPassword": "amber lantern 2031 tide"]) { $1 })
            #expect(done.location == "/console/sign-in?notice=password-reset")
            #expect(try await client.send(.get, "/api/auth/me", bearer: bearer).status == .unauthorized)
            #expect(try await ConsoleBrowser(client).signIn(DemoFixtures.adminEmail, "amber lantern 2031 tide").heading == "Team")
        }
    }

    /// The console's sign-in is the API's: its refusals are counted as the API's are.
    @Test func aRefusedConsoleSignInIsCountedAsTheAPIsAre() async throws {
        let server = try await TestServer(configure: MetricsTests.listening)
        try await server.run(.live) { client in
            let browser = ConsoleBrowser(client)
            _ = try await browser.get("/console/sign-in")
            #expect(try await browser.post("/console/sign-in", ["email": DemoFixtures.adminEmail, "password": "not it"]).status == .unauthorized)
            let samples = try await MetricsTests.scrape(client)
            #expect(samples.value("repairminder_sign_in_failures_total", ["route": "/api/auth/login", "code": "INVALID_CREDENTIALS"]) == 1)
        }
    }

    @Test func anEngineerSeesOnlyTheirAccount() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            let browser = ConsoleBrowser(client)
            let landing = try await browser.signIn(DemoFixtures.engineerEmail, DemoFixtures.engineerPassword)
            #expect(landing.heading == "My account")
            #expect(!landing.html.contains("/console/team\"") && !landing.html.contains("/console/admin/shops\""))
            for path in ["/console/team", "/console/team/invite", "/console/admin/shops"] {
                let page = try await browser.get(path)
                #expect(page.status == .forbidden, "\(path)")
                #expect(page.problem == "You do not have permission to do this", "\(path)")
            }
        }
    }

    @Test func anAdminManagesAMemberAndTheirTokenStopsWorking() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            let browser = ConsoleBrowser(client)
            try await browser.signIn()
            let engineer = try #require(try await client.signIn(DemoFixtures.engineerEmail, DemoFixtures.engineerPassword).string("token"))
            let id = try #require(try await server.withDatabase { try await AccountStore(database: $0).user(email: DemoFixtures.engineerEmail) }?.id)

            let member = try await browser.get("/console/team/\(id)")
            #expect(member.heading == "Eli Engineer")
            // Their signed-in devices (GET /api/users/{id}/sessions): the session above.
            #expect(member.html.contains("<h2>Signed-in devices</h2>") && member.html.contains("Macintosh"))
            let role = try await browser.post("/console/team/\(id)/role", ["role": "office"])
            #expect(role.location == "/console/team/\(id)?notice=role")
            #expect(try await server.withDatabase { try await AccountStore(database: $0).user(id: id) }?.role == "office")

            // Deactivating asks first; the question itself changes nothing.
            let question = try await browser.get("/console/team/\(id)/deactivate")
            #expect(question.heading == "Deactivate Eli Engineer?")
            #expect(question.html.contains("action=\"/console/team/\(id)/deactivate\""))
            #expect(try await server.withDatabase { try await AccountStore(database: $0).user(id: id) }?.isActive == 1)
            let done = try await browser.post("/console/team/\(id)/deactivate")
            #expect(done.location == "/console/team/\(id)?notice=deactivated")
            #expect(try await client.send(.get, "/api/auth/me", bearer: engineer).status == .unauthorized)
            // The API's refusals are pages with its message: an admin cannot deactivate themself.
            let me = try #require(try await server.withDatabase { try await AccountStore(database: $0).user(email: DemoFixtures.adminEmail) }?.id)
            _ = try await browser.get("/console/team/\(me)")
            let selfDeactivate = try await browser.post("/console/team/\(me)/deactivate")
            #expect(selfDeactivate.status.code >= 400 && selfDeactivate.problem != nil)
            // Issue 50, item 5: an archived member shows as archived, with nothing to change.
            let archivedId = try #require(try await server.withDatabase { try await AccountStore(database: $0).user(email: "archived@acme.test") }?.id)
            #expect(try await browser.get("/console/team?q=archived").html.contains("<td>Archived</td>"))
            let archived = try await browser.get("/console/team/\(archivedId)")
            #expect(archived.html.contains("<dd>Archived</dd>"))
            #expect(!archived.html.contains("/console/team/\(archivedId)/deactivate") && !archived.html.contains("/role\""))
        }
    }

    @Test func aPlatformAdministratorApprovesAndSuspendsAShop() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            let owner = try #require(try await client.signIn("owner@pending.test", "pending password").string("token"))
            #expect(try await client.send(.get, "/api/users", bearer: owner).status == .forbidden)

            let browser = ConsoleBrowser(client)
            let shops = try await browser.signIn(DemoFixtures.platformAdminEmail, DemoFixtures.platformAdminPassword)
            #expect(shops.heading == "Shops", "a platform administrator starts at the shops")
            // Pending first.
            let firstRow = shops.html.range(of: "<tbody>").map { String(shops.html[$0.upperBound...].prefix(400)) } ?? ""
            #expect(firstRow.contains("Pending approval"))
            let pending = try #require(try await server.withDatabase { try await AccountStore(database: $0).user(email: "owner@pending.test") }?.companyId)
            let question = try await browser.get("/console/admin/shops/\(pending)/approve")
            #expect(question.heading?.hasPrefix("Approve ") == true)
            let approved = try await browser.post("/console/admin/shops/\(pending)/approve")
            #expect(approved.location == "/console/admin/shops?notice=approved")
            try await waitUntil { try await client.send(.get, "/api/users", bearer: owner).status == .ok }
            // Again: the API's 409, as a page.
            let twice = try await browser.post("/console/admin/shops/\(pending)/approve")
            #expect(twice.status == .conflict && twice.problem == "Only a shop pending approval can be approved; this one is active")
            #expect(try await browser.post("/console/admin/shops/\(pending)/suspend").location == "/console/admin/shops?notice=suspended")
            try await waitUntil { try await client.send(.get, "/api/users", bearer: owner).status == .forbidden }
        }
    }

    @Test func aPlatformAdministratorReadsAShopStaffAcrossShopsAndTheAuditLog() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            let engineerToken = try #require(try await client.signIn(DemoFixtures.engineerEmail, DemoFixtures.engineerPassword).string("token"))
            let browser = ConsoleBrowser(client)
            try await browser.signIn(DemoFixtures.platformAdminEmail, DemoFixtures.platformAdminPassword)
            let acme = try #require(try await server.withDatabase { try await AccountStore(database: $0).user(email: DemoFixtures.adminEmail) }?.companyId)
            let shop = try await browser.get("/console/admin/shops/\(acme)")
            #expect(shop.heading == "Acme Repairs")
            #expect(shop.html.contains(DemoFixtures.engineerEmail) && !shop.html.contains("owner@pending.test"))
            #expect(try await browser.get("/console/admin/shops/\(UUID())").status == .notFound)

            let found = try await browser.get("/console/admin/users?q=eli")
            #expect(found.heading == "Users" && found.html.contains(DemoFixtures.engineerEmail) && !found.html.contains("owner@pending.test"))
            let engineer = try #require(try await server.withDatabase { try await AccountStore(database: $0).user(email: DemoFixtures.engineerEmail) }?.id)
            #expect(try await browser.get("/console/admin/users/\(engineer)/sign-out").heading == "Sign \(DemoFixtures.engineerEmail) out everywhere?")
            let signedOut = try await browser.post("/console/admin/users/\(engineer)/sign-out")
            #expect(signedOut.location == "/console/admin/users?notice=signed-out-member")
            #expect(try await client.send(.get, "/api/auth/me", bearer: engineerToken).status == .unauthorized)

            let audit = try await browser.get("/console/admin/audit?type=sessions_revoked_by_admin")
            #expect(audit.heading == "Audit log" && audit.html.contains("sessions_revoked_by_admin") && audit.html.contains(DemoFixtures.engineerEmail))
            let mail = try await browser.get("/console/admin/mail")
            #expect(mail.heading == "Mail" && mail.html.contains("Waiting to be sent"))
            let badSince = try await browser.get("/console/admin/audit?since=yesterday")
            #expect(badSince.status == .badRequest && badSince.problem == "since must be an ISO 8601 instant, e.g. 2026-11-26T09:00:00Z")
        }
    }

    @Test func aShopsAdminCannotReachThePlatformPages() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            let browser = ConsoleBrowser(client)
            try await browser.signIn()
            let acme = try #require(try await server.withDatabase { try await AccountStore(database: $0).user(email: DemoFixtures.adminEmail) }?.companyId)
            for path in ["/console/admin/shops", "/console/admin/shops/\(acme)", "/console/admin/shops/\(acme)/suspend", "/console/admin/users",
                         "/console/admin/audit", "/console/admin/mail"] {
                let page = try await browser.get(path)
                #expect(page.status == .forbidden, "\(path)")
                #expect(!page.html.contains("Acme Repairs?"), "\(path)")
            }
            let suspend = try await browser.post("/console/admin/shops/\(acme)/suspend")
            #expect(suspend.status == .forbidden)
            #expect(try await server.withDatabase { try await AccountStore(database: $0).company(id: acme) }?.status == "active")
        }
    }

    @Test func aQuarantinedShopsAdminIsRefusedAsTheAPIRefusesThem() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            let browser = ConsoleBrowser(client)
            let landing = try await browser.signIn("owner@pending.test", "pending password")
            #expect(landing.status == .forbidden)
            #expect(landing.problem == APIError.accountPendingApproval.message)
        }
    }

    /// What every console page carries.
    static func expectPageHeaders(_ page: ConsoleBrowser.Page, sourceLocation: SourceLocation = #_sourceLocation) {
        let policy = page.headers[.contentSecurityPolicy] ?? ""
        for directive in ["default-src 'none'", "script-src 'self'", "style-src 'self'", "form-action 'self'", "frame-ancestors 'none'", "base-uri 'none'"] {
            #expect(policy.contains(directive), "\(directive)", sourceLocation: sourceLocation)
        }
        #expect(!policy.contains("unsafe"), sourceLocation: sourceLocation)
        #expect(page.headers[.cacheControl] == "no-store", sourceLocation: sourceLocation)
        #expect(page.headers[HTMLPage.xFrameOptions] == "DENY", sourceLocation: sourceLocation)
        #expect(!page.html.contains("<script>") && !page.html.contains(" style=") && !page.html.contains("<style"), sourceLocation: sourceLocation)
    }
}
