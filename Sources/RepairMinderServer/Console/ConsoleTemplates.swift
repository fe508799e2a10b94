import Foundation
import Hummingbird
import Mustache

/// The console's pages (docs/API.md §15.6): mustache templates shipped with the server
/// (`Resources/Console`), every value HTML-escaped by `{{name}}`, and the headers every page
/// has. Pages load only the console's own style sheet and script: no CDN, no inline code.
struct ConsoleTemplates: Sendable {
    private let library: MustacheLibrary
    /// The style sheet and the script (passkeys need the browser's WebAuthn API), served from `/console/assets/`.
    let assets: [String: (contentType: String, body: String)]

    /// The templates and assets of the server's bundle.
    static func bundled() async throws -> ConsoleTemplates {
        guard let directory = Bundle.module.url(forResource: "Console", withExtension: nil) else {
            throw ConsoleTemplatesMissing()
        }
        var assets: [String: (String, String)] = [:]
        for (file, type) in [("console.css", "text/css; charset=utf-8"), ("console.js", "text/javascript; charset=utf-8")] {
            assets[file] = (type, try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8))
        }
        return ConsoleTemplates(library: try await MustacheLibrary(directory: directory.path), assets: assets)
    }

    /// Template `name` (`team` for `team.mustache`) rendered with `view`, as a page.
    func page(_ name: String, _ view: ConsoleView, status: HTTPResponse.Status = .ok, headers extra: HTTPFields = [:]) -> Response {
        var headers = extra
        headers[.contentType] = "text/html; charset=utf-8"
        Self.pageHeaders(into: &headers)
        let html = library.render(view, withTemplate: name) ?? "Missing console template \(name)"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// What every console answer carries: nothing but the console's own files may load or run,
    /// forms post only here, no page may frame a console page, and none is cached (they show
    /// a signed-in person's data).
    static func pageHeaders(into headers: inout HTTPFields) {
        headers[.contentSecurityPolicy] = contentSecurityPolicy
        headers[HTMLPage.xFrameOptions] = "DENY"
        headers[HTMLPage.referrerPolicy] = "same-origin"
        headers[.cacheControl] = "no-store"
    }

    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
}

/// The server was built without its console templates.
struct ConsoleTemplatesMissing: Error, CustomStringConvertible {
    var description: String { "the console's templates are missing from the server's resources (Resources/Console)" }
}

/// What every console page is rendered with: its title, the signed-in person's navigation (nil
/// on the sign-in pages), the forms' CSRF token, a problem or notice to show, and the page's own
/// values.
struct ConsoleView: @unchecked Sendable {
    let title: String
    let csrf: String
    var nav: ConsoleNav?
    var problem: String?
    var notice: String?
    /// The page's own values, read by its template as `page.…`.
    var page: Any = ()
}

/// The header of a signed-in page: who, which shop, and the pages their role may use.
struct ConsoleNav: Sendable {
    struct Link: Sendable {
        let href: String
        let label: String
        let current: Bool
    }
    let name: String
    let email: String
    let shop: String
    let links: [Link]
}
