import Foundation

/// Where and how to reach the mail server, from `--smtp-url`:
/// `smtp://user:password@host:587` (STARTTLS required), `smtp://host:25?tls=none` (plain, for a
/// loopback relay), or `smtps://user:password@host:465` (TLS from the first byte).
public struct SMTPServerAddress: Sendable, CustomStringConvertible {
    public enum Security: Sendable {
        /// STARTTLS after the greeting; refused if the server does not offer it.
        case startTLS
        /// TLS from the first byte (port 465).
        case implicitTLS
        /// No encryption: only for a relay on the same machine.
        case none
    }

    public let host: String
    public let port: Int
    public let security: Security
    let username: String?
    let password: String?

    public init(url: String) throws {
        func invalid(_ why: String) -> SettingsError {
            SettingsError("--smtp-url: \(why) (expected smtp://user:password@host:587, smtps://user:password@host:465 or smtp://host:25?tls=none)")
        }
        guard let components = URLComponents(string: url), let scheme = components.scheme else { throw invalid("not a URL") }
        guard let host = components.host, !host.isEmpty else { throw invalid("no host") }
        let tls = components.queryItems?.last(where: { $0.name == "tls" })?.value
        switch (scheme, tls) {
        case ("smtp", nil), ("smtp", "starttls"): security = .startTLS
        case ("smtp", "none"): security = .none
        case ("smtps", nil): security = .implicitTLS
        case ("smtp", _), ("smtps", _): throw invalid("tls must be starttls or none")
        default: throw invalid("the scheme must be smtp or smtps")
        }
        self.host = host
        port = components.port ?? (security == .implicitTLS ? 465 : 587)
        username = components.user.map { $0.removingPercentEncoding ?? $0 }
        password = components.password.map { $0.removingPercentEncoding ?? $0 }
        if username != nil, security == .none, !["127.0.0.1", "localhost", "::1"].contains(host) {
            throw invalid("a password is only sent over TLS (or to a relay on this machine with tls=none)")
        }
    }

    /// `host:port` and how it is secured: never the password.
    public var description: String {
        let how = switch security {
        case .startTLS: "STARTTLS"
        case .implicitTLS: "TLS"
        case .none: "no TLS"
        }
        return "\(host):\(port) (\(how)\(username.map { ", as \($0)" } ?? ""))"
    }
}

/// Its password never prints: `description` names host, port and security only, and the
/// reflection that `dump` or an enclosing value's rendering would use is empty.
extension SMTPServerAddress: CustomDebugStringConvertible, CustomReflectable {
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
