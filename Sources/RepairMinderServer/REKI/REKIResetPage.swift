import Crypto
import Foundation
import HTTPTypes
import Hummingbird

/// The pages of REKI's reset link (`<public-url>/reset-password?token=…`, docs/API.md §10): the
/// form, and each answer to it, as small self-contained HTML documents that work without
/// JavaScript. The policy (`contentSecurityPolicy`) lets a page load nothing, run nothing,
/// style itself only with its own sheet (by hash), post only back here and sit in no frame; the
/// token is in the address, so no page sends a `Referer`, and none is cached.
enum REKIResetPage: Equatable {
    /// The form for the link's `token`, with what was wrong with the last try (400), if anything.
    case form(token: String, problem: String?)
    /// The password was set.
    case done
    /// The address has no token.
    case missingToken
    /// No link has this token (mistyped, cut short).
    case invalidLink
    case usedLink
    case expiredLink
    /// Anything else (413, 415, 429, 500): its status and what to tell the person.
    case failure(HTTPResponse.Status, String)

    var status: HTTPResponse.Status {
        switch self {
        case .form(_, let problem): problem == nil ? .ok : .badRequest
        case .done: .ok
        case .missingToken, .invalidLink: .badRequest
        // The link is gone for good: a new one has to be asked for.
        case .usedLink, .expiredLink: .gone
        case .failure(let status, _): status
        }
    }

    /// The page as a response; `headers` adds to the page's own (`Retry-After` on a 429).
    func response(headers extra: HTTPFields = [:]) -> Response {
        var headers = extra
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
        headers[Self.xFrameOptions] = "DENY"
        headers[Self.referrerPolicy] = "no-referrer"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// The whole document.
    var html: String {
        let (heading, body) = content
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="referrer" content="no-referrer">
            <title>\(Self.escaped(heading)) · REKI</title>
            <style>\(Self.style)</style>
            </head>
            <body>
            <main>
            <h1>\(Self.escaped(heading))</h1>
            \(body)
            </main>
            </body>
            </html>

            """
    }

    /// The heading, and the body below it as HTML (every interpolated text escaped).
    private var content: (String, String) {
        let newLink = "Ask REKI for a new link: on its sign-in screen, choose “Forgot password”."
        switch self {
        case .form(let token, let problem):
            let alert = problem.map { #"<p class="problem" role="alert">\#(Self.escaped($0))</p>"# + "\n" } ?? ""
            // A relative action: the form posts back to this path under whatever prefix the
            // public URL has, and the token travels in the body, not the address.
            return (
                "Choose a new password",
                alert + """
                    <form method="post" action="reset-password">
                    <input type="hidden" name="token" value="\(Self.escaped(token))">
                    <label for="newPassword">New password</label>
                    <input id="newPassword" name="newPassword" type="password" autocomplete="new-password" required>
                    <label for="confirmPassword">Type it again</label>
                    <input id="confirmPassword" name="confirmPassword" type="password" autocomplete="new-password" required>
                    <button type="submit">Set new password</button>
                    </form>
                    """
            )
        case .done:
            return (
                "Your password has been changed",
                "<p>Sign in to REKI with your new password. You have been signed out everywhere, so sign in again on each device.</p>")
        case .missingToken:
            return (
                "This link is incomplete",
                "<p>It has no reset token. Open the link in the email again, or copy all of it into the address bar.</p>")
        case .invalidLink:
            return (
                "This link is not valid",
                "<p>It may have been copied incompletely. Open the link in the email again. \(Self.escaped(newLink))</p>")
        case .usedLink:
            return (
                "This link has already been used",
                "<p>A reset link works once. If you chose your new password with it, sign in with that password. \(Self.escaped(newLink))</p>")
        case .expiredLink:
            return ("This link has expired", "<p>A reset link works for one hour. \(Self.escaped(newLink))</p>")
        case .failure(_, let message):
            return ("Your password was not changed", "<p>\(Self.escaped(message))</p>")
        }
    }

    /// `text` safe anywhere in an element's content or a quoted attribute value.
    static func escaped(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    /// The pages' one style sheet, inline: allowed by its hash, so no other style can apply.
    static let style = """
        body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:2rem 1rem;background:#f4f4f2;color:#1d1d1f}\
        main{max-width:26rem;margin:0 auto;background:#fff;padding:1.5rem 2rem;border-radius:12px;box-shadow:0 1px 3px rgba(0,0,0,.2)}\
        h1{font-size:1.4rem;margin-top:0}\
        label{display:block;margin-top:1rem;font-weight:600}\
        input{box-sizing:border-box;width:100%;padding:.6rem;margin-top:.3rem;font-size:1rem;border:1px solid #888;border-radius:6px}\
        button{margin-top:1.5rem;width:100%;padding:.7rem;font-size:1rem;border:0;border-radius:6px;background:#1d4ed8;color:#fff}\
        .problem{color:#9b0000;background:#fdecec;padding:.6rem .8rem;border-radius:6px}
        """

    /// Nothing may load or run; only the style sheet above applies, the form posts only to this
    /// origin, no page may frame this one, and no `<base>` can redirect its relative action.
    static let contentSecurityPolicy =
        "default-src 'none'; style-src 'sha256-\(Data(SHA256.hash(data: Data(style.utf8))).base64EncodedString())'; "
        + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    static let xFrameOptions = HTTPField.Name("X-Frame-Options")!
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
}
