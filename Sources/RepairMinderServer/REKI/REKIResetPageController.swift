import Hummingbird
import RepairMinderModels

/// The page REKI's reset mail links to, `<public-url>/reset-password?token=…` (docs/API.md §10):
/// `GET` shows the form (or why the link no longer works), `POST` sets the password.
///
/// Mounted beside the route table, not from it: the table describes JSON endpoints (JSON
/// request bodies checked as `WireRequest`s, JSON or file answers, each an operation of the
/// OpenAPI document and sendable by the SDK), and this is an HTML form that browsers post as
/// `application/x-www-form-urlencoded`. What would otherwise be written twice is taken from
/// `POST /auth/reset-password`: its field rules, its budgets (the per-IP sign-in limit) and the
/// code that sets the password (`REKIController.setPassword(with:)`).
struct REKIResetPageController {
    let reki: REKIController

    static let path: RoutePath = "/reset-password"
    /// What a `POST` spends: the budgets of `POST /auth/reset-password`.
    static let budgets = Routes.reki.resetPassword.budgets

    /// The form's fields, as the page names them; any may be missing from a hand-made post.
    struct Form: Decodable {
        var token: String?
        var newPassword: String?
        var confirmPassword: String?
    }

    func mount(on routes: RouteMounter) {
        LinkPageMounting(
            path: Self.path, budgets: Self.budgets, failurePage: { REKIResetPage.failure($0, $1).page }, name: "Reset page"
        ).mount(
            on: routes, show: { request, _ in try await show(request).page },
            submit: { request, _, limit in try await submit(request, bodyLimit: limit).page.response() })
    }

    /// The form, or why the link cannot be used. Only reads: mail scanners open links too, and
    /// must not use them up.
    func show(_ request: Request) async throws -> REKIResetPage {
        let token = try Self.token(request.uri.queryParameters.get("token"))
        if let refusal = try await refusal(of: token) { return refusal }
        return .form(token: token, problem: nil)
    }

    /// Sets the password from the posted form: the confirmation must match (the page's own
    /// check), then the request goes through `POST /auth/reset-password`'s rules and code.
    func submit(_ request: Request, bodyLimit: Int) async throws -> REKIResetPage {
        let form = try await LinkPageMounting.form(Form.self, from: request, bodyLimit: bodyLimit, page: "the reset page")
        let token = try Self.token(form.token)
        // A link that cannot work says so before anyone types a password again.
        if let refusal = try await refusal(of: token) { return refusal }
        let newPassword = form.newPassword ?? ""
        guard newPassword == form.confirmPassword ?? "" else {
            return .form(token: token, problem: "The two passwords do not match. Type the same new password in both fields.")
        }
        let reset: REKIResetPasswordRequest
        do {
            reset = try REKIResetPasswordRequest(token: token, newPassword: newPassword).validated()
        } catch {
            return .form(token: token, problem: newPassword.isEmpty ? "Enter a new password." : error.message)
        }
        do {
            try await reki.setPassword(with: reset)
        } catch let error as APIError where error.code == .weakPassword {
            return .form(token: token, problem: error.message)
        } catch let error as APIError where error.code == APIError.rekiInvalidResetToken.code {
            // Used (another tab, another request) or expired since the check above.
            return try await refusal(of: token) ?? .invalidLink
        }
        return .done
    }

    /// `raw` as the token's field rule reads it (trimmed), or the page of a link without a usable one.
    static func token(_ raw: String?) throws(RefusedPage) -> String {
        do {
            return try FieldRules.resetToken.check(raw ?? "", "token")
        } catch {
            let blank = FieldRules.trimmingWhitespace(raw ?? "").isEmpty
            throw RefusedPage(page: (blank ? REKIResetPage.missingToken : .invalidLink).page)
        }
    }

    /// Why `token`'s link cannot be used, or nil while it can; nothing is changed.
    private func refusal(of token: String) async throws -> REKIResetPage? {
        switch try await reki.resets.state(of: token, now: reki.clock.now()) {
        case .live: nil
        case .used: .usedLink
        case .expired: .expiredLink
        case .unknown: .invalidLink
        }
    }
}
