import Foundation

/// The scopes an OpenID Connect client may ask for (docs/API.md §16): the standard ones, ours
/// (`repairminder`: the shop and the role), and one per permission of §12.1, granted only when
/// the person's role has it.
public enum OAuthScope {
    /// Scopes that are not permissions, in the order the discovery document lists them.
    public static let standard = ["openid", "profile", "email", "offline_access", "repairminder"]

    /// Every scope this server knows.
    public static var all: [String] { standard + Permission.allCases.map(\.rawValue) }

    /// The permission a scope names, if it names one.
    public static func permission(_ scope: String) -> Permission? { Permission(rawValue: scope) }

    /// The rule of one scope in a request body.
    public static let rule = StringRule(content: .oneOf(all), description: "A scope: \(all.joined(separator: ", "))")
}

/// How an app's redirect URIs are written and matched (docs/API.md §16.1): an exact string,
/// `https://` with a host, or `http://` to a loopback address for a native app (RFC 8252
/// §7.3, any port at authorization time); never a fragment, a wildcard or user information.
public enum OAuthRedirectURI {
    /// Most URIs of one kind an app registers.
    public static let maxCount = 10
    /// Longest URI taken.
    public static let maxLength = 2000

    /// Visible ASCII but `#` and `*`: what the rest of a URI may hold.
    private static let rest = "[!-\"$-)+-~]"

    /// The shape the document publishes; `problem(_:)` checks what a pattern cannot (a host, a port).
    public static let rule = StringRule(
        minLength: 1, maxLength: maxLength,
        content: .pattern(
            "^(https://\(rest)+|http://(127\\.0\\.0\\.1|\\[::1\\])([:/]\(rest)*)?)$",
            mismatch: "must be an https:// URL, or http://127.0.0.1 or http://[::1] for a native app, without a fragment or wildcard"),
        description: "An https:// URL, or http://127.0.0.1 or http://[::1] (any port) for a native app; matched exactly")

    /// Why `uri` cannot be registered, or nil when it can.
    public static func problem(_ uri: String) -> String? {
        guard let parts = URLComponents(string: uri), let scheme = parts.scheme?.lowercased(), let host = parts.host, !host.isEmpty else {
            return "\(uri) is not an absolute URL"
        }
        if parts.fragment != nil || uri.contains("#") { return "\(uri) has a fragment, which a redirect URI cannot have" }
        if uri.contains("*") { return "\(uri) has a wildcard: redirect URIs are matched exactly" }
        if parts.user != nil || parts.password != nil { return "\(uri) has user information" }
        if let port = parts.port, !(1...65535).contains(port) { return "\(uri) has no valid port" }
        switch scheme {
        case "https": return nil
        case "http" where isLoopback(host): return nil
        case "http": return "\(uri) is http:// to a host that is not 127.0.0.1 or [::1]: use https://"
        default: return "\(uri) is neither https:// nor a loopback http:// URL"
        }
    }

    /// Whether `requested` is `registered`: the same string, except that a loopback `http://`
    /// URI matches on any port (RFC 8252 §7.3: a native app listens on a port the system gives it).
    public static func matches(_ requested: String, registered: String) -> Bool {
        if requested == registered { return true }
        guard registered.hasPrefix("http://"), requested.hasPrefix("http://"),
            let asked = URLComponents(string: requested), let known = URLComponents(string: registered),
            let host = known.host, isLoopback(host), asked.host == host, asked.user == nil, asked.password == nil,
            asked.fragment == nil
        else { return false }
        return asked.percentEncodedPath == known.percentEncodedPath && asked.percentEncodedQuery == known.percentEncodedQuery
    }

    private static func isLoopback(_ host: String) -> Bool { host == "127.0.0.1" || host == "[::1]" || host == "::1" }
}
