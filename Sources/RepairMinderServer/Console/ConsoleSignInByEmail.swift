import Foundation
import Hummingbird
import RepairMinderModels

/// Signing in to the console with an emailed code instead of a password (docs/API.md §2.4, the
/// staff magic link): only where the account and the shop's policy allow it, which the API's
/// handlers decide. An account with something stronger than a mailbox is asked for it next, as
/// after a password.
extension ConsoleSignIn {
    func mountEmailedCode(on pages: ConsoleMounting) {
        pages.getPublic("/sign-in/email") { request, _ in
            emailForm(request, email: "", problem: nil)
        }
        pages.postPublic("/sign-in/email") { request, context, form in try await requestEmailedCode(request, context, form) }
        pages.postPublic("/sign-in/email/code") { request, context, form in try await verifyEmailedCode(request, context, form) }
    }

    /// What the two pages of this sign-in show.
    struct EmailedCodePage {
        let email: String
        /// The code's form, once it was mailed.
        let mailed: Bool
    }

    private func emailForm(
        _ request: Request, email: String, problem: String?, mailed: Bool = false, notice: String? = nil,
        status: HTTPResponse.Status = .ok
    ) -> Response {
        publicPage(
            request, "sign-in-email", title: mailed ? "Enter your sign-in code" : "Sign in with an emailed code",
            page: EmailedCodePage(email: email, mailed: mailed), problem: problem, notice: notice, status: status)
    }

    private func requestEmailedCode(_ request: Request, _ context: AppRequestContext, _ form: ConsoleForm) async throws -> Response {
        let email = form.text("email")
        do {
            _ = try await console.call(
                Routes.staffAuth.requestMagicLink, request, context, body: MagicLinkRequest(email: email), magicLink.requestMagicLink)
        } catch let error as APIError where error.status.code < 500 {
            return emailForm(request, email: email, problem: error.message, status: error.status)
        }
        // The API answers the same for every address: so does the page.
        return emailForm(
            request, email: email, problem: nil, mailed: true,
            notice: "If \(email) may sign in with an emailed code, we sent one. It works once.")
    }

    private func verifyEmailedCode(_ request: Request, _ context: AppRequestContext, _ form: ConsoleForm) async throws -> Response {
        let email = form.text("email")
        let answer: MagicLinkVerifyResponse
        do {
            answer = try await console.call(
                Routes.staffAuth.verifyMagicLink, request, context, body: MagicLinkVerifyRequest(email: email, code: form.text("code")),
                magicLink.verifyMagicLink)
        } catch let error as APIError where error.status.code < 500 && error.code != .rateLimited {
            return emailForm(request, email: email, problem: error.message, mailed: true, status: error.status)
        }
        switch answer {
        case .signedIn(let tokens):
            return try await start(tokens, request)
        case .secondFactorRequired(let challenge):
            let methods = challenge.methods ?? challenge.twoFactorMethods ?? []
            let page = CodePage(
                challenge: challenge.challengeToken ?? "", userId: challenge.userId, email: challenge.email, methods: methods,
                passkey: challenge.passkey)
            return codePage(request, page, notice: "Now the second step: your account has a stronger way to sign in.", problem: nil)
        }
    }
}
