import Foundation
import HTTPTypes
import Hummingbird

/// The pages of REKI's reset link (`<public-url>/reset-password?token=…`, docs/API.md §10): the
/// form, and each answer to it, as `HTMLPage`s.
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
    func response(headers: HTTPFields = [:]) -> Response { page.response(headers: headers) }

    /// The whole document.
    var html: String { page.html }

    var page: HTMLPage {
        let (heading, body) = content
        return HTMLPage(status: status, heading: heading, body: body, site: "REKI")
    }

    /// The heading, and the body below it as HTML (every interpolated text escaped).
    private var content: (String, String) {
        let newLink = "Ask REKI for a new link: on its sign-in screen, choose “Forgot password”."
        switch self {
        case .form(let token, let problem):
            let alert = HTMLPage.problem(problem)
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

    static func escaped(_ text: String) -> String { HTMLPage.escaped(text) }
    static let xFrameOptions = HTMLPage.xFrameOptions
    static let referrerPolicy = HTMLPage.referrerPolicy
}
