import Foundation
import Hummingbird
import RepairMinderModels

/// A staff member who forgot their password sets a new one from the console's sign-in
/// (docs/API.md §9.1): the API mails a code to the address, and the code with a new password
/// sets it, ending every session of the account. The same answer for every address.
extension ConsoleSignIn {
    func mountPasswordReset(on pages: ConsoleMounting) {
        pages.getPublic("/reset-password") { request, _ in resetForm(request, email: "", problem: nil) }
        pages.postPublic("/reset-password") { request, context, form in try await requestReset(request, context, form) }
        pages.postPublic("/reset-password/new") { request, context, form in try await reset(request, context, form) }
    }

    struct ResetPage {
        let email: String
        /// The code-and-new-password form, once the code was mailed.
        let mailed: Bool
    }

    private func resetForm(
        _ request: Request, email: String, problem: String?, mailed: Bool = false, notice: String? = nil,
        status: HTTPResponse.Status = .ok
    ) -> Response {
        publicPage(
            request, "reset-password", title: mailed ? "Choose a new password" : "Reset your password",
            page: ResetPage(email: email, mailed: mailed), problem: problem, notice: notice, status: status)
    }

    private func requestReset(_ request: Request, _ context: AppRequestContext, _ form: ConsoleForm) async throws -> Response {
        let email = form.text("email")
        do {
            _ = try await console.call(
                Routes.accountLifecycle.forgotPassword, request, context, body: ForgotPasswordRequest(email: email), passwords.forgot)
        } catch let error as APIError where error.status.code < 500 {
            return resetForm(request, email: email, problem: error.message, status: error.status)
        }
        return resetForm(
            request, email: email, problem: nil, mailed: true,
            notice: "If \(email) has an account, we emailed it a code. Type it below with your new password.")
    }

    private func reset(_ request: Request, _ context: AppRequestContext, _ form: ConsoleForm) async throws -> Response {
        let email = form.text("email"), password = form.text("password")
        guard password == form.text("confirmPassword") else {
            return resetForm(
                request, email: email, problem: "The two passwords do not match. Type the same password in both fields.", mailed: true,
                status: .badRequest)
        }
        do {
            _ = try await console.call(
                Routes.accountLifecycle.resetPassword, request, context,
                body: ResetPasswordRequest(email: email, code: form.text("code"), password: password), passwords.reset)
        } catch let error as APIError where error.status.code < 500 && error.code != .rateLimited {
            return resetForm(request, email: email, problem: error.message, mailed: true, status: error.status)
        }
        return console.redirect("/sign-in?notice=password-reset")
    }
}
