import Foundation
import Hummingbird

/// A form a console page posted (`application/x-www-form-urlencoded`), checked as coming from
/// one of the console's own pages: the browser's `Origin` is this server's, and the form
/// carries the CSRF token of the cookie it was shown with (docs/API.md §15.6).
struct ConsoleForm: Sendable {
    let fields: [String: String]

    /// The value of field `name`; nil when the form has none.
    subscript(_ name: String) -> String? { fields[name] }

    /// The field `name`, or "" when missing.
    func text(_ name: String) -> String { fields[name] ?? "" }

    /// Reads the posted form, after checking where it came from: throws `ConsoleRefusal` for
    /// another origin, a missing or wrong CSRF token (for the holder of cookie value `secret`),
    /// or a body that is not a form.
    static func read(_ request: Request, secret: String?, settings: ServerSettings) async throws -> ConsoleForm {
        try checkOrigin(request, settings: settings)
        guard request.headers[.contentType]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true else {
            throw ConsoleRefusal.crossSite
        }
        let body: ByteBuffer
        do {
            var request = request
            body = try await request.collectBody(upTo: settings.maxBodySize)
        } catch {
            throw ConsoleRefusal.tooLarge
        }
        // A body no console page sends is not one of its forms.
        guard let fields = Self.decode(String(buffer: body)) else { throw ConsoleRefusal.crossSite }
        let form = ConsoleForm(fields: fields)
        try checkCSRF(form["csrf"], secret: secret)
        return form
    }

    /// The first check of every posted body, before it is read: `ConsoleRefusal.crossSite`
    /// unless the browser says the request comes from a console page (`isSameOrigin`).
    static func checkOrigin(_ request: Request, settings: ServerSettings) throws {
        guard isSameOrigin(request, settings: settings) else { throw ConsoleRefusal.crossSite }
    }

    /// The last check of every posted body: `ConsoleRefusal.crossSite` unless it carried
    /// `sent`, the CSRF token of the holder of cookie value `secret`.
    static func checkCSRF(_ sent: String?, secret: String?) throws {
        guard let secret, let sent, SecretHashing.constantTimeEquals(sent, ConsoleCookies.csrfToken(for: secret)) else {
            throw ConsoleRefusal.crossSite
        }
    }

    /// Whether the browser says the request comes from a page of this server: its `Origin`
    /// (sent by every current browser on a form's POST) names the host the request was sent to
    /// (as Django checks it; another site cannot choose the `Host` a browser sends here), or the
    /// public URL's origin (behind a proxy that rewrites `Host`).
    static func isSameOrigin(_ request: Request, settings: ServerSettings) -> Bool {
        guard let origin = request.headers[.origin]?.lowercased(), origin != "null" else { return false }
        if origin == ServerSettings.serialisedOrigin(settings.serverURL) { return true }
        guard let host = request.head.authority?.lowercased(), let url = URL(string: origin), let scheme = url.scheme,
            ["http", "https"].contains(scheme)
        else { return false }
        return origin == "\(scheme)://\(host)"
    }

    /// The fields of an `application/x-www-form-urlencoded` body or query, as Hummingbird's
    /// `URLEncodedFormDecoder` reads them (`+` is a space, then percent-decoding); nil for what
    /// no console page sends (a name given twice, a name in brackets, bad percent-encoding).
    static func decode(_ body: String) -> [String: String]? {
        try? URLEncodedFormDecoder().decode([String: String].self, from: body)
    }

    init(fields: [String: String]) { self.fields = fields }
}

/// A console request refused before anything was done.
enum ConsoleRefusal: Error {
    /// Another site's form, a stale page's, one without its CSRF token, or a body none of the
    /// console's pages sends: 403.
    case crossSite
    /// A form larger than the server reads: 413.
    case tooLarge
}
