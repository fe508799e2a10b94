import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import RepairMinderModels
import Testing

@testable import RepairMinderServer

/// A browser using the web console (docs/API.md §15.6) in a test: it keeps the cookies the
/// console sets, sends each form with the CSRF token of the page it came from and an `Origin`
/// naming the server, as a browser does.
final class ConsoleBrowser: @unchecked Sendable {
    let client: TestClient
    /// The cookies the browser holds, by name.
    private(set) var cookies: [String: String] = [:]
    /// The origin forms are sent from: the server's own.
    var origin: String
    /// The last page's CSRF token (its first form's).
    private(set) var csrf: String?

    init(_ client: TestClient) {
        self.client = client
        origin = ServerSettings.serialisedOrigin(client.settings.serverURL) ?? client.settings.serverURL
    }

    /// An answer of the console: its status, headers and HTML.
    struct Page: Sendable {
        let status: HTTPResponse.Status
        let headers: HTTPFields
        let html: String

        var heading: String? { html.firstMatch(of: /<h1>(.*?)<\/h1>/).map { String($0.1) } }
        var problem: String? { html.firstMatch(of: /role="alert">(.*?)<\/p>/).map { String($0.1) } }
        var notice: String? { html.firstMatch(of: /role="status">(.*?)<\/p>/).map { String($0.1) } }
        var location: String? { headers[.location] }
        /// The value of the hidden field `name` of the page's first form that has one.
        func hidden(_ name: String) -> String? {
            guard let start = html.range(of: "name=\"\(name)\" value=\"") else { return nil }
            let rest = html[start.upperBound...]
            return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
        }
        /// Every `Set-Cookie` of the answer.
        var setCookies: [String] { headers[values: .setCookie] }
    }

    func get(_ path: String) async throws -> Page { try await send(.get, path, body: nil) }

    /// Posts `fields` from the last page (its CSRF token added unless `fields` has one).
    func post(_ path: String, _ fields: [String: String] = [:], csrf: Bool = true, headers: HTTPFields = [:]) async throws -> Page {
        var fields = fields
        if csrf, fields["csrf"] == nil, let token = self.csrf { fields["csrf"] = token }
        return try await send(.post, path, body: Self.encoded(fields), headers: headers)
    }

    /// `fields` as a browser encodes a form.
    static func encoded(_ fields: [String: String]) -> String {
        let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        return fields.sorted { $0.key < $1.key }
            .map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "")" }.joined(separator: "&")
    }

    func send(_ method: HTTPRequest.Method, _ path: String, body: String?, headers extra: HTTPFields = [:]) async throws -> Page {
        var headers: HTTPFields = [.userAgent: TestClient.browser]
        if !cookies.isEmpty { headers[.cookie] = cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") }
        if body != nil {
            headers[.contentType] = "application/x-www-form-urlencoded"
            headers[.origin] = origin
        }
        for field in extra { headers[field.name] = field.value }
        let page = try await client.client.execute(uri: path, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) }) {
            Page(status: $0.status, headers: $0.headers, html: String(buffer: $0.body))
        }
        for cookie in page.setCookies {
            guard let pair = cookie.split(separator: ";").first, let equals = pair.firstIndex(of: "=") else { continue }
            let name = String(pair[..<equals]), value = String(pair[pair.index(after: equals)...])
            if value.isEmpty { cookies[name] = nil } else { cookies[name] = value }
        }
        if let token = page.hidden("csrf") { csrf = token }
        return page
    }

    /// Signs in through the console's pages with the password and the emailed code; returns
    /// the page the browser lands on.
    @discardableResult
    func signIn(_ email: String = DemoFixtures.adminEmail, _ password: String = DemoFixtures.adminPassword) async throws -> Page {
        let form = try await get("/console/sign-in")
        #expect(form.status == .ok)
        let codePage = try await post("/console/sign-in", ["email": email, "password": password])
        #expect(codePage.heading == "Enter your code", "\(codePage.problem ?? "")")
        let code = try await client.latestCode(to: email)
        let signedIn = try await post(
            "/console/sign-in/code",
            ["userId": codePage.hidden("userId") ?? "", "email": email, "challengeToken": codePage.hidden("challengeToken") ?? "", "code": code])
        #expect(signedIn.status == .seeOther)
        return try await follow(signedIn)
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

    /// Holds cookie `name` as if a page had set it.
    func set(cookie name: String, _ value: String) { cookies[name] = value }

    /// The session cookie's value.
    var sessionToken: String? { cookies[ConsoleCookies.session] }
}
