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

    /// An answer given before the password is set; the handlers render its page.
    struct Refused: Error {
        let page: REKIResetPage
    }

    func mount(on routes: RouteMounter) {
        // The form's body has no key but the caller's address: a budget keyed by anything else
        // would have to be read from the form, which nothing here does.
        precondition(Self.budgets.allSatisfy { $0.key == .clientIP }, "the reset page spends only per-IP budgets")
        let (limits, bodyLimit, metrics) = (routes.guards.limits, routes.guards.decoder.limit, routes.metrics)
        routes.mounted.record(.get, Self.path)
        routes.mounted.record(.post, Self.path)
        routes.router.get(RouterPath(Self.path.description)) { request, context in
            do {
                return try await show(request).response()
            } catch {
                return Self.failure(error, context)
            }
        }
        routes.router.post(RouterPath(Self.path.description)) { request, context in
            let ledger = BudgetLedger(declared: Self.budgets, limits: limits, clientNetwork: ClientAddress.networkKey(context.clientIP))
            do {
                // As `RouteMounter` does for the route: first, before any work is done for a flood.
                // Per-IP tries are never taken back, so there is nothing to settle afterwards.
                for budget in Self.budgets { try await ledger.spend(budget, key: ClientAddress.limitKey(context.clientIP ?? "unknown")) }
                return try await submit(request, bodyLimit: bodyLimit).response()
            } catch {
                if (error as? APIError)?.code == .rateLimited { metrics?.rateLimited(route: Self.path.description) }
                return Self.failure(error, context)
            }
        }
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
        guard request.headers[.contentType]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true else {
            return .failure(.unsupportedMediaType, "Send the form from the reset page: open the link in the email again.")
        }
        let body: ByteBuffer
        do {
            var request = request
            body = try await request.collectBody(upTo: bodyLimit)
        } catch {
            return .failure(.contentTooLarge, "The form was too large to read.")
        }
        guard let form = try? URLEncodedFormDecoder().decode(Form.self, from: String(buffer: body)) else {
            return .failure(.badRequest, "The form could not be read. Open the link in the email again.")
        }
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
    static func token(_ raw: String?) throws(Refused) -> String {
        do {
            return try FieldRules.resetToken.check(raw ?? "", "token")
        } catch {
            let blank = FieldRules.trimmingWhitespace(raw ?? "").isEmpty
            throw Refused(page: blank ? .missingToken : .invalidLink)
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

    /// The page of a failure: a refusal's own, a 429 with its `Retry-After`, or a 500 whose
    /// details go only to the log (never an envelope: a person reads this).
    static func failure(_ error: any Error, _ context: AppRequestContext) -> Response {
        if let refused = error as? Refused { return refused.page.response() }
        if let error = error as? APIError, error.status.code < 500 {
            return REKIResetPage.failure(error.status, error.message).response(headers: error.headers)
        }
        context.logger.error("Reset page failed", metadata: ["error": "\(String(reflecting: error))"])
        return REKIResetPage.failure(.internalServerError, "Something went wrong on our side. Try again in a moment.").response()
    }
}
