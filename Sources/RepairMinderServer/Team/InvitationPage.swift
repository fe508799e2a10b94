import Foundation
import HTTPTypes
import Hummingbird
import RepairMinderModels

/// The pages of an invitation link (`<public-url>/invite?token=…`, docs/API.md §12.4) for a
/// browser: the offer with a password form, and each answer to it, as `HTMLPage`s.
enum InvitationPage: Equatable {
    /// The offer for the link's `token`, with what was wrong with the last try (400), if anything.
    case form(token: String, offer: InvitationPreview, problem: String?)
    /// The member was created.
    case joined(shop: String, email: String, withPassword: Bool)
    /// The address has no token.
    case missingToken
    /// Unknown, used, revoked or expired: the API's one `INVITATION_INVALID`.
    case invalidLink
    /// Anything else (413, 415, 429, 500): its status and what to tell the person.
    case failure(HTTPResponse.Status, String)

    var status: HTTPResponse.Status {
        switch self {
        case .form(_, _, let problem): problem == nil ? .ok : .badRequest
        case .joined: .ok
        case .missingToken: .badRequest
        case .invalidLink: .notFound
        case .failure(let status, _): status
        }
    }

    func response(headers: HTTPFields = [:]) -> Response { page.response(headers: headers) }

    var page: HTMLPage {
        let page = { (heading: String, paragraphs: [String]) in
            HTMLPage(status: status, site: "Repair Minder", heading: heading, paragraphs: paragraphs)
        }
        switch self {
        case .form(let token, let offer, let problem):
            var form = page("Join \(offer.company.name)", ["\(offer.company.name) invites \(offer.email) to its team on Repair Minder as \(offer.role.spokenName)."])
            form.problem = problem
            form.form = HTMLPage.Form(
                action: "invite", token: token,
                passwords: [.init(name: "password", label: "Choose a password", required: false), .init(name: "confirmPassword", label: "Type it again", required: false)],
                note: "Or leave both empty: you are signed in to the web console, to add a passkey there (or to sign in with emailed codes from then on).",
                submit: "Join \(offer.company.name)")
            return form
        case .joined(let shop, let email, let withPassword):
            let how = withPassword ? "with \(email) and your new password" : "with \(email): we email you a code each time"
            // The page links nowhere (see `HTMLPage`): the console is named, at this same address.
            return page(
                "You joined \(shop)",
                ["Sign in to Repair Minder \(how), in the app or in the web console (\(Console.root)/ on this site)."
                    + " To sign in with a passkey from then on, add one under My account there."])
        case .missingToken:
            return page("This link is incomplete", ["It has no invitation token. Open the link in the email again, or copy all of it into the address bar."])
        case .invalidLink:
            return page("This invitation is invalid or has expired", ["An invitation works once, for 7 days. Ask the shop's admin to send you a new one."])
        case .failure(_, let message):
            return page("You have not joined yet", [message])
        }
    }
}
