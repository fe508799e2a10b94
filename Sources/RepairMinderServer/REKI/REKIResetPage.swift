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
        let page = { (heading: String, paragraphs: [String]) in
            HTMLPage(status: status, site: "REKI", heading: heading, paragraphs: paragraphs)
        }
        let newLink = "Ask REKI for a new link: on its sign-in screen, choose “Forgot password”."
        switch self {
        case .form(let token, let problem):
            var form = page("Choose a new password", [])
            form.problem = problem
            form.form = HTMLPage.Form(
                action: "reset-password", token: token,
                passwords: [.init(name: "newPassword", label: "New password"), .init(name: "confirmPassword", label: "Type it again")],
                submit: "Set new password")
            return form
        case .done:
            return page(
                "Your password has been changed",
                ["Sign in to REKI with your new password. You have been signed out everywhere, so sign in again on each device."])
        case .missingToken:
            return page("This link is incomplete", ["It has no reset token. Open the link in the email again, or copy all of it into the address bar."])
        case .invalidLink:
            return page("This link is not valid", ["It may have been copied incompletely. Open the link in the email again. \(newLink)"])
        case .usedLink:
            return page(
                "This link has already been used",
                ["A reset link works once. If you chose your new password with it, sign in with that password. \(newLink)"])
        case .expiredLink:
            return page("This link has expired", ["A reset link works for one hour. \(newLink)"])
        case .failure(_, let message):
            return page("Your password was not changed", [message])
        }
    }
}
