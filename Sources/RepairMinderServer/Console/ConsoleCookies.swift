import Crypto
import Foundation
import Hummingbird

/// The web console's cookies (docs/API.md §15.6). Both are `__Host-` cookies: a browser takes
/// them only with `Secure`, `Path=/` and no `Domain`, so no other host (a sibling subdomain)
/// can set or shadow them; browsers accept `Secure` on `http://localhost` too. `HttpOnly`: no
/// script reads them; `SameSite=Strict`: no other site's page sends them.
enum ConsoleCookies {
    /// The session's token (`ConsoleSessionStore`): who is signed in.
    static let session = "__Host-rm_console"
    /// Before sign-in: a random value the sign-in forms' CSRF token is derived from, so another
    /// site cannot sign a browser in to an account of its choosing (login CSRF).
    static let preSession = "__Host-rm_console_pre"
    /// The session's token again, `SameSite=Lax`: the one cookie a browser sends with an app's
    /// cross-site redirect to `/oauth/authorize` (docs/API.md §16.3), read only there and by
    /// `/oauth/logout`. The console's pages take only `session`, which no other site's
    /// request carries.
    static let signIn = "__Host-rm_sign_in"
    /// Where sign-in goes on to: the authorization request that sent the browser to sign in.
    static let continuation = "__Host-rm_continue"

    /// `setting`, but sent with top-level navigations from other sites too.
    static func settingLax(_ name: String, _ value: String) -> String {
        Cookie(name: name, value: value, path: "/", secure: true, httpOnly: true, sameSite: .lax).description
    }

    /// The `Set-Cookie` value that stores `value` under `name` until the browser closes.
    static func setting(_ name: String, _ value: String) -> String {
        Cookie(name: name, value: value, path: "/", secure: true, httpOnly: true, sameSite: .strict).description
    }

    /// The `Set-Cookie` value that removes `name`.
    static func clearing(_ name: String) -> String {
        Cookie(name: name, value: "", maxAge: 0, path: "/", secure: true, httpOnly: true, sameSite: .strict).description
    }

    /// The request's cookie `name`, when it looks like one of ours (43 base64url characters).
    static func value(_ name: String, in request: Request) -> String? {
        guard let value = request.cookies[name]?.value, value.utf8.count == 43,
            value.utf8.allSatisfy({ $0.isBase64URLDigit })
        else { return nil }
        return value
    }

    /// The CSRF token of the forms shown to the holder of cookie value `secret`: derived from
    /// it (domain-separated SHA-256), so it needs no storage, is the same in every tab, and
    /// cannot be made by anyone who does not hold the cookie (OWASP's signed synchronizer
    /// token, with the cookie's 256 random bits as the key).
    static func csrfToken(for secret: String) -> String {
        let digest = SHA256.hash(data: Data("repairminder console csrf\u{0}\(secret)".utf8))
        return Data(digest).base64URLEncoded()
    }
}

extension UInt8 {
    /// Whether this byte is a character of base64url's alphabet.
    fileprivate var isBase64URLDigit: Bool {
        (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self) || (0x30...0x39).contains(self) || self == 0x2D || self == 0x5F
    }
}
