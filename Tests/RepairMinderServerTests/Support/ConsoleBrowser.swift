import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import RepairMinderModels
import Testing

@testable import RepairMinderServer

/// A browser using the web console (docs/API.md §15.6) in a test: it keeps the cookies the
/// console sets, sends each form with the CSRF token of the page it came from and an `Origin`
/// naming the server, as a browser does. Its cookies and token are behind a lock, so one
/// browser may be shared between tasks.
final class ConsoleBrowser: @unchecked Sendable {
    let client: TestClient
    /// The origin forms are sent from: the server's own.
    let origin: String
    private let lock = NSLock()
    private var jar: [String: String] = [:]
    private var lastCSRF: String?

    init(_ client: TestClient) {
        self.client = client
        origin = ServerSettings.serialisedOrigin(client.settings.serverURL) ?? client.settings.serverURL
    }

    /// A browser signed in (``signIn(_:_:follow:)``) as `email`, the demo admin by default.
    static func signedIn(
        _ client: TestClient, _ email: String = DemoFixtures.adminEmail, _ password: String = DemoFixtures.adminPassword
    ) async throws -> ConsoleBrowser {
        let browser = ConsoleBrowser(client)
        try await browser.signIn(email, password)
        return browser
    }

    /// The cookies the browser holds, by name.
    var cookies: [String: String] { lock.withLock { jar } }
    /// The last page's CSRF token (its first form's).
    var csrf: String? { lock.withLock { lastCSRF } }
    /// The session cookie's value.
    var sessionToken: String? { cookies[ConsoleCookies.session] }

    /// Holds cookie `name` as if a page had set it.
    func set(cookie name: String, _ value: String) { lock.withLock { jar[name] = value } }

    /// An answer of the console: its status, headers and HTML (or whatever else it sent).
    struct Page: Sendable {
        let status: HTTPResponse.Status
        let headers: HTTPFields
        let html: String

        var heading: String? { html.firstMatch(of: /<h1>(.*?)<\/h1>/).map { String($0.1) } }
        /// The page's message about the last try, as the browser shows it (HTML escapes read back).
        var problem: String? { html.firstMatch(of: /role="alert">(.*?)<\/p>/).map { ConsoleBrowser.unescaped(String($0.1)) } }
        /// The page's notice, as the browser shows it.
        var notice: String? { html.firstMatch(of: /role="status">(.*?)<\/p>/).map { ConsoleBrowser.unescaped(String($0.1)) } }
        var location: String? { headers[.location] }
        /// Every `Set-Cookie` of the answer.
        var setCookies: [String] { headers[values: .setCookie] }

        /// The value of the page's first hidden field `name`.
        func hidden(_ name: String) -> String? { Self.hiddenFields(in: html[...]).first { $0.name == name }?.value }

        /// The hidden fields of the form with id `id`, by name; nil when the page has no such form.
        func form(_ id: String) -> [String: String]? {
            guard let start = html.range(of: #"id="\#(id)""#), let end = html[start.upperBound...].range(of: "</form>") else { return nil }
            return Dictionary(Self.hiddenFields(in: html[start.upperBound..<end.lowerBound]).map { ($0.name, $0.value) }) { first, _ in first }
        }

        private static func hiddenFields(in html: Substring) -> [(name: String, value: String)] {
            html.matches(of: /<input type="hidden" name="(\w+)"[^>]* value="([^"]*)"/).map { (String($0.1), ConsoleBrowser.unescaped(String($0.2))) }
        }
    }

    /// Text as a page shows it, its HTML escapes read back.
    static func unescaped(_ html: String) -> String {
        html.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    func get(_ path: String) async throws -> Page { try await send(.get, path, body: nil) }

    /// Posts `fields` as a form. With `csrf`, the last page's token is added unless `fields` has
    /// a `csrf` of its own (a form's own fields, or a forged one); without, only `fields` go.
    /// `headers` replace the browser's own (e.g. another `Origin`).
    func post(_ path: String, _ fields: [String: String] = [:], csrf: Bool = true, headers: HTTPFields = [:]) async throws -> Page {
        try await send(.post, path, body: Self.encoded(withToken(fields, csrf)), headers: headers)
    }

    /// Posts a `multipart/form-data` form as a browser does: the text fields (with the CSRF token
    /// as ``post(_:_:csrf:headers:)`` adds it), then the file, sent as `fileType`.
    func upload(
        _ path: String, _ fields: [String: String] = [:], file: (name: String, filename: String, content: String),
        fileType: String = "text/csv", csrf: Bool = true, headers: HTTPFields = [:]
    ) async throws -> Page {
        let boundary = "----WebKitFormBoundary\(UUID().uuidString.prefix(16))"
        var body = ""
        for (name, value) in withToken(fields, csrf).sorted(by: { $0.key < $1.key }) {
            body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n"
        }
        body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(file.name)\"; filename=\"\(file.filename)\"\r\n"
        body += "Content-Type: \(fileType)\r\n\r\n\(file.content)\r\n--\(boundary)--\r\n"
        var extra: HTTPFields = [.contentType: "multipart/form-data; boundary=\(boundary)"]
        for field in headers { extra[field.name] = field.value }
        return try await send(.post, path, body: body, headers: extra)
    }

    /// Sends a request with the browser's cookies; a body goes as a form from ``origin`` unless
    /// `headers` say otherwise. Keeps the cookies the answer sets and its page's CSRF token.
    func send(_ method: HTTPRequest.Method, _ path: String, body: String?, headers extra: HTTPFields = [:]) async throws -> Page {
        var headers: HTTPFields = [.userAgent: TestClient.browser]
        let cookie = cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
        if !cookie.isEmpty { headers[.cookie] = cookie }
        if body != nil {
            headers[.contentType] = "application/x-www-form-urlencoded"
            headers[.origin] = origin
        }
        for field in extra { headers[field.name] = field.value }
        let page = try await client.client.execute(uri: path, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) }) {
            Page(status: $0.status, headers: $0.headers, html: String(buffer: $0.body))
        }
        lock.withLock {
            for setting in page.setCookies {
                guard let pair = setting.split(separator: ";").first, let equals = pair.firstIndex(of: "=") else { continue }
                let name = String(pair[..<equals]), value = String(pair[pair.index(after: equals)...])
                jar[name] = value.isEmpty || setting.contains("Max-Age=0") ? nil : value
            }
            if let token = page.hidden("csrf") { lastCSRF = token }
        }
        return page
    }

    /// Follows redirects from `page` as a browser does (GET), up to five.
    func follow(_ page: Page) async throws -> Page {
        var page = page
        for _ in 0..<5 {
            guard page.status == .seeOther, let location = page.location else { return page }
            page = try await get(location)
        }
        return page
    }

    // MARK: Signing in

    /// The sign-in page, then the address and password: returns the code page (which may offer
    /// a passkey instead).
    func startSignIn(_ email: String = DemoFixtures.adminEmail, _ password: String = DemoFixtures.adminPassword) async throws -> Page {
        let form = try await get("/console/sign-in")
        #expect(form.status == .ok)
        #expect(cookies[ConsoleCookies.preSession] != nil)
        let codePage = try await post("/console/sign-in", ["email": email, "password": password])
        #expect(codePage.status == .ok && codePage.heading == "Enter your code", "\(codePage.problem ?? "")")
        return codePage
    }

    /// Signs in through the console's pages with the password and the emailed code, sending the
    /// code form as the page has it. Returns the page the browser lands on, or with `follow`
    /// false the redirect that started the session.
    @discardableResult
    func signIn(_ email: String = DemoFixtures.adminEmail, _ password: String = DemoFixtures.adminPassword, follow: Bool = true) async throws
        -> Page
    {
        var fields = try #require(try await startSignIn(email, password).form("sign-in-code"))
        fields["code"] = try await client.latestCode(to: email)
        let signedIn = try await post("/console/sign-in/code", fields, csrf: false)
        #expect(signedIn.status == .seeOther)
        #expect(sessionToken != nil)
        guard follow else { return signedIn }
        return try await self.follow(signedIn)
    }

    /// `fields`, with the last page's CSRF token if `csrf` and they have none.
    private func withToken(_ fields: [String: String], _ csrf: Bool) -> [String: String] {
        var fields = fields
        if csrf, fields["csrf"] == nil, let token = self.csrf { fields["csrf"] = token }
        return fields
    }

    /// `fields` as a browser encodes a form.
    static func encoded(_ fields: [String: String]) -> String {
        let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        return fields.sorted { $0.key < $1.key }
            .map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "")" }.joined(separator: "&")
    }
}
