import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import RepairMinderServer

/// The page REKI's reset mail links to (docs/API.md §10): `GET /reset-password?token=…` shows a
/// form and changes nothing, `POST /reset-password` sets the password through the code of
/// `POST /auth/reset-password`; every answer is a self-contained HTML page with its status and
/// the headers that keep the token in the address safe. Through real HTTP, and once in a real
/// browser (`.ci/reset-page-check.py`).
@Suite struct REKIResetPageTests {
    static let email = "reset-page@example.com"
    static let password = "violet kettle 1987"
    static let newPassword = "amber lantern 2031"

    // MARK: GET: the form, and nothing changed

    @Test func theLinkShowsTheFormAndChangesNothing() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            _ = try await register(client)
            let token = try await requestResetToken(client)
            // Opened twice, as a mail scanner and then the person would.
            for _ in 0..<2 {
                let page = try await Self.get(client, "/reset-password?token=\(token)")
                #expect(page.status == .ok)
                Self.expectPageHeaders(page)
                #expect(page.heading == "Choose a new password")
                #expect(page.html.contains(#"<form method="post" action="reset-password">"#))
                #expect(page.html.contains(#"<input type="hidden" name="token" value="\#(token)">"#))
                #expect(page.html.contains(#"name="newPassword" type="password""#))
                #expect(page.html.contains(#"name="confirmPassword" type="password""#))
            }
            #expect(try await usedAt(server, token) == .some(nil), "the link is still unused")
            // The link still works afterwards, here through the API.
            let reply = try await client.post("/auth/reset-password", ["token": token, "newPassword": Self.newPassword])
            #expect(reply.status == .ok)
        }
    }

    @Test func anAddressWithoutAUsableTokenSaysSo() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            for path in ["/reset-password", "/reset-password?token=", "/reset-password?token=%20%20", "/reset-password?other=1"] {
                let page = try await Self.get(client, path)
                #expect(page.status == .badRequest, "\(path)")
                #expect(page.heading == "This link is incomplete", "\(path)")
                Self.expectPageHeaders(page)
            }
            for token in [String(repeating: "a", count: 64), String(repeating: "b", count: 1025)] {
                let page = try await Self.get(client, "/reset-password?token=\(token)")
                #expect(page.status == .badRequest)
                #expect(page.heading == "This link is not valid")
                #expect(!page.html.contains(token), "an unknown token is not echoed")
                Self.expectPageHeaders(page)
            }
            let posted = try await Self.post(client, ["newPassword": Self.newPassword, "confirmPassword": Self.newPassword])
            #expect(posted.status == .badRequest)
            #expect(posted.heading == "This link is incomplete")
        }
    }

    // MARK: POST: each answer

    @Test func theFormSetsThePasswordAndTheLinkIsThenUsed() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            let registered = try await register(client)
            let token = try await requestResetToken(client)
            let page = try await Self.post(client, ["token": token, "newPassword": Self.newPassword, "confirmPassword": Self.newPassword])
            #expect(page.status == .ok)
            Self.expectPageHeaders(page)
            #expect(page.heading == "Your password has been changed")
            #expect(page.html.contains("Sign in to REKI with your new password"))
            #expect(!page.html.contains(Self.newPassword))
            // As `POST /auth/reset-password` does: the new password signs in, the old does not,
            // and every session has ended.
            #expect(try await client.post("/auth/login", ["email": Self.email, "password": Self.newPassword]).status == .ok)
            try await client.post("/auth/login", ["email": Self.email, "password": Self.password])
                .expectREKIFailure(.unauthorized, "Invalid credentials")
            try await client.post("/auth/refresh", ["refreshToken": registered.top("refresh_token") ?? ""])
                .expectREKIFailure(.unauthorized, "Unauthorized")
            // Used once: the page says so, by GET and by POST, and the API refuses it too.
            for used in [
                try await Self.get(client, "/reset-password?token=\(token)"),
                try await Self.post(client, ["token": token, "newPassword": "yet another password", "confirmPassword": "yet another password"]),
            ] {
                #expect(used.status == .gone)
                #expect(used.heading == "This link has already been used")
                #expect(!used.html.contains("<form"))
                Self.expectPageHeaders(used)
            }
            try await client.post("/auth/reset-password", ["token": token, "newPassword": "yet another password"])
                .expectREKIFailure(.badRequest, "Invalid or expired reset token")
            #expect(try await client.post("/auth/login", ["email": Self.email, "password": Self.newPassword]).status == .ok)
        }
    }

    @Test func aLinkUsedThroughTheAPIOrRetiredByAnotherIsUsed() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            _ = try await register(client)
            let older = try await requestResetToken(client)
            let newer = try await requestResetToken(client)
            #expect(try await client.post("/auth/reset-password", ["token": newer, "newPassword": Self.newPassword]).status == .ok)
            for token in [newer, older] {
                let page = try await Self.get(client, "/reset-password?token=\(token)")
                #expect(page.status == .gone)
                #expect(page.heading == "This link has already been used")
            }
        }
    }

    @Test func anExpiredLinkSaysSoAndChangesNothing() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            _ = try await register(client)
            let token = try await requestResetToken(client)
            server.clock.advance(by: REKIPasswordResets.lifetime + 1)
            for page in [
                try await Self.get(client, "/reset-password?token=\(token)"),
                try await Self.post(client, ["token": token, "newPassword": Self.newPassword, "confirmPassword": Self.newPassword]),
            ] {
                #expect(page.status == .gone)
                #expect(page.heading == "This link has expired")
                #expect(page.html.contains("works for one hour"))
                Self.expectPageHeaders(page)
            }
            #expect(try await usedAt(server, token) == .some(nil))
            #expect(try await client.post("/auth/login", ["email": Self.email, "password": Self.password]).status == .ok)
        }
    }

    /// The policy's own messages, as the API answers them; the form comes back with the token
    /// and without the password, and the link still works.
    @Test(arguments: ["password123", "short", Self.email])
    func aWeakPasswordShowsTheFormAgainWithThePolicysMessage(weak: String) async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            _ = try await register(client)
            let token = try await requestResetToken(client)
            let api = try await client.post("/auth/reset-password", ["token": token, "newPassword": weak])
            let message = try #require(api.top("message"))
            #expect(api.status == .badRequest)
            let page = try await Self.post(client, ["token": token, "newPassword": weak, "confirmPassword": weak])
            #expect(page.status == .badRequest)
            Self.expectPageHeaders(page)
            #expect(page.heading == "Choose a new password")
            #expect(page.problem.map(ConsoleBrowser.unescaped) == message)
            #expect(page.html.contains(#"<input type="hidden" name="token" value="\#(token)">"#))
            #expect(!page.html.contains("value=\"\(weak)\""), "the password is not echoed back")
            if weak != Self.email { #expect(!page.html.contains(weak)) }
            // Nothing changed: the old password signs in, the link is unused and still works.
            #expect(try await client.post("/auth/login", ["email": Self.email, "password": Self.password]).status == .ok)
            #expect(try await usedAt(server, token) == .some(nil))
            let done = try await Self.post(client, ["token": token, "newPassword": Self.newPassword, "confirmPassword": Self.newPassword])
            #expect(done.heading == "Your password has been changed")
        }
    }

    @Test func aMismatchedConfirmationOrNoPasswordShowsTheFormAgain() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            _ = try await register(client)
            let token = try await requestResetToken(client)
            for (fields, problem) in [
                (["token": token, "newPassword": Self.newPassword, "confirmPassword": Self.newPassword + "!"],
                 "The two passwords do not match. Type the same new password in both fields."),
                (["token": token, "newPassword": Self.newPassword], "The two passwords do not match. Type the same new password in both fields."),
                (["token": token, "newPassword": "", "confirmPassword": ""], "Enter a new password."),
            ] {
                let page = try await Self.post(client, fields)
                #expect(page.status == .badRequest)
                #expect(page.heading == "Choose a new password")
                #expect(page.problem == problem)
                #expect(page.html.contains(#"<input type="hidden" name="token" value="\#(token)">"#))
                #expect(!page.html.contains(Self.newPassword))
            }
            #expect(try await usedAt(server, token) == .some(nil))
            #expect(try await client.post("/auth/login", ["email": Self.email, "password": Self.password]).status == .ok)
        }
    }

    @Test func aPostThatIsNotTheFormIsRefusedAsAPage() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            _ = try await register(client)
            let token = try await requestResetToken(client)
            let json = try await Self.send(
                client, .post, "/reset-password", body: #"{"token": "\#(token)", "newPassword": "\#(Self.newPassword)"}"#,
                contentType: "application/json")
            #expect(json.status == .unsupportedMediaType)
            Self.expectPageHeaders(json)
            let huge = try await Self.post(client, ["token": token, "newPassword": String(repeating: "p", count: 70_000)])
            #expect(huge.status == .contentTooLarge)
            Self.expectPageHeaders(huge)
            #expect(try await usedAt(server, token) == .some(nil))
            // Other methods: 405 naming the page's two, as for any served path.
            let put = try await client.send(.put, "/reset-password")
            put.expectFailure(.methodNotAllowed, "METHOD_NOT_ALLOWED")
            #expect(put.headers[.allow] == "GET, POST")
        }
    }

    /// The POST spends the per-IP sign-in budget of `POST /auth/reset-password`, and the same
    /// one: the API and the page together get the limit, not each.
    @Test func thePostSharesThePerIPLimitOfTheAPI() async throws {
        let server = try await TestServer { $0.ipRateLimit = 3 }
        try await server.run(.live) { client in
            let token = String(repeating: "c", count: 64)
            let form = ["token": token, "newPassword": Self.newPassword, "confirmPassword": Self.newPassword]
            #expect(try await Self.post(client, form).status == .badRequest)
            #expect(try await client.post("/auth/reset-password", ["token": token, "newPassword": Self.newPassword]).status == .badRequest)
            #expect(try await Self.post(client, form).status == .badRequest)
            let limited = try await Self.post(client, form)
            #expect(limited.status == .tooManyRequests)
            #expect(limited.headers[.retryAfter] != nil)
            #expect(limited.heading == "Your password was not changed")
            Self.expectPageHeaders(limited)
            try await client.post("/auth/reset-password", ["token": token, "newPassword": Self.newPassword])
                .expectREKIFailure(.tooManyRequests, "Too many requests")
            // Opening the link costs nothing: mail scanners follow links.
            #expect(try await Self.get(client, "/reset-password?token=\(token)").status == .badRequest)
        }
    }

    @Test func withREKIOffThePageIsNotServed() async throws {
        let server = try await TestServer { $0.rekiEnabled = false }
        try await server.run { client in
            try await client.send(.get, "/reset-password?token=abc").expectFailure(.notFound, "NOT_FOUND")
        }
    }

    /// Everything a page shows from outside (the token, a message) is escaped, in text and in
    /// the attribute it sits in.
    @Test func everythingInterpolatedIsEscaped() {
        let hostile = #"x"><script>alert('1')</script>&amp;"#
        let html = REKIResetPage.form(token: hostile, problem: hostile).html
        #expect(!html.contains("<script"))
        #expect(html.contains(#"value="x&quot;&gt;&lt;script&gt;alert(&#39;1&#39;)&lt;/script&gt;&amp;amp;""#))
        #expect(html.contains(#"role="alert">x&quot;&gt;&lt;script&gt;"#))
        #expect(!REKIResetPage.failure(.badRequest, hostile).html.contains("<script"))
    }

    // MARK: A real browser

    /// Headless Chromium, driven by Selenium, opens the mailed link, uses the form without
    /// help (a mismatch, then the new password) and the new password signs in
    /// (`.ci/reset-page-check.py`). Under CI a missing browser fails rather than skips.
    @Test(
        .enabled(
            if: PythonScript.runs(needing: "selenium", programs: ["chromium", "chromedriver"]),
            "needs Selenium and Chromium: apt-get install chromium chromium-driver; python3 -m pip install selenium"),
        // The limit only catches a hang, which the script's own deadlines (Chromium's start,
        // `PythonScript.verdict`) report first, saying where.
        .timeLimit(.minutes(5)))
    func aBrowserUsesTheLinkFromTheMail() async throws {
        try await onOwnExecutor {
            let server = try await TestServer(runningClock: true, firstInLine: true)
            try await server.run(.live) { client in
                let port = try #require(client.client.port)
                _ = try await register(client)
                let verdict = try await PythonScript.verdict(
                    "reset-page-check.py",
                    [
                        "http://localhost:\(port)", OutboxTransport.path(dataDirectory: server.settings.dataDirectory), Self.email,
                        Self.password,
                    ])
                try #require(verdict == nil, "\(verdict ?? "")")
                try await client.post("/auth/login", ["email": Self.email, "password": Self.password])
                    .expectREKIFailure(.unauthorized, "Invalid credentials")
            }
        }
    }

    // MARK: Helpers

    /// An HTML answer.
    struct Page: Sendable {
        let status: HTTPResponse.Status
        let headers: HTTPFields
        let html: String

        var heading: String? { html.firstMatch(of: /<h1>(.*?)<\/h1>/).map { String($0.1) } }
        /// The form's message about the last try.
        var problem: String? { html.firstMatch(of: /role="alert">(.*?)<\/p>/).map { String($0.1) } }
    }

    static func send(
        _ client: TestClient, _ method: HTTPRequest.Method, _ path: String, body: String? = nil,
        contentType: String = "application/x-www-form-urlencoded", origin: String? = nil
    ) async throws -> Page {
        var headers: HTTPFields = [.userAgent: TestClient.browser]
        if body != nil { headers[.contentType] = contentType }
        if let origin { headers[.origin] = origin }
        return try await client.client.execute(uri: path, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) }) {
            Page(status: $0.status, headers: $0.headers, html: String(buffer: $0.body))
        }
    }

    static func get(_ client: TestClient, _ path: String) async throws -> Page { try await send(client, .get, path) }

    /// Posts `fields` as a browser posts a form.
    static func post(_ client: TestClient, _ fields: [String: String]) async throws -> Page {
        let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        let body = fields.map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "")" }
            .joined(separator: "&")
        return try await send(client, .post, "/reset-password", body: body)
    }

    /// The headers and content every page carries, whatever it says.
    static func expectPageHeaders(_ page: Page, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(page.headers[.contentType] == "text/html; charset=utf-8", sourceLocation: sourceLocation)
        let policy = page.headers[.contentSecurityPolicy] ?? ""
        for directive in ["default-src 'none'", "form-action 'self'", "frame-ancestors 'none'", "base-uri 'none'"] {
            #expect(policy.contains(directive), "\(directive)", sourceLocation: sourceLocation)
        }
        // The one style sheet is allowed by its hash, and nothing else is.
        let style = page.html.firstMatch(of: /<style>(.*?)<\/style>/).map { String($0.1) } ?? ""
        let hash = Data(SHA256.hash(data: Data(style.utf8))).base64EncodedString()
        #expect(policy.contains("style-src 'sha256-\(hash)';"), sourceLocation: sourceLocation)
        #expect(!policy.contains("unsafe"), sourceLocation: sourceLocation)
        #expect(page.headers[HTMLPage.xFrameOptions] == "DENY", sourceLocation: sourceLocation)
        #expect(page.headers[HTMLPage.referrerPolicy] == "same-origin", sourceLocation: sourceLocation)
        #expect(page.headers[.cacheControl] == "no-store", sourceLocation: sourceLocation)
        #expect(page.headers[.xContentTypeOptions] == "nosniff", sourceLocation: sourceLocation)
        // Self-contained: no script, nothing loaded or linked from anywhere.
        for forbidden in ["<script", "src=", "href=", "http:", "https:", "<link", "<img", "<iframe"] {
            #expect(!page.html.contains(forbidden), "\(forbidden)", sourceLocation: sourceLocation)
        }
        #expect(page.html.hasPrefix("<!DOCTYPE html>"), sourceLocation: sourceLocation)
    }

    private func register(_ client: TestClient) async throws -> Reply {
        let reply = try await client.post("/auth/register", ["email": Self.email, "password": Self.password])
        #expect(reply.status == .created)
        return reply
    }

    /// Asks for a reset link and returns its token.
    private func requestResetToken(_ client: TestClient) async throws -> String {
        let before = try await client.mail(to: Self.email).count
        #expect(try await client.post("/auth/forgot-password", ["email": Self.email]).status == .ok)
        let mails = try await client.mail(to: Self.email)
        #expect(mails.count == before + 1)
        return try #require(mails.last.flatMap { REKITests.resetToken(in: $0.text) })
    }

    /// When `token`'s link was used: nil inside while unused, nil outside when there is no such link.
    private func usedAt(_ server: TestServer, _ token: String) async throws -> Double?? {
        try await server.withDatabase { database in
            try await database.withConnection { db in
                try await db.raw(
                    "SELECT used_at FROM reki_password_resets WHERE token_hash = \(bind: SecretHashing.tokenHash(token))"
                ).first().map { try $0.decode(column: "used_at", as: Double?.self) }
            }
        }
    }
}
