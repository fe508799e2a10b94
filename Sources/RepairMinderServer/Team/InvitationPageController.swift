import Hummingbird
import RepairMinderModels

/// The page an invitation mail links to, `<public-url>/invite?token=…` (docs/API.md §12.4), for
/// a browser: `GET` shows the offer (or why the link no longer works) without using it, `POST`
/// joins. Mounted beside the route table, as REKI's reset page is (an HTML form, not JSON); it
/// takes the budgets of `POST /api/auth/invitations/accept` and its code (`InvitationController.join`).
/// It creates the account and does not sign in: a browser session is the console's (issue 42).
struct InvitationPageController {
    let invitations: InvitationController

    static let path: RoutePath = "/invite"
    static let budgets = Routes.team.acceptInvitation.budgets

    /// The form's fields; any may be missing from a hand-made post.
    struct Form: Decodable {
        var token: String?
        var password: String?
        var confirmPassword: String?
    }

    /// An answer given before anything is created; the handlers render its page.
    struct Refused: Error {
        let page: InvitationPage
    }

    func mount(on routes: RouteMounter) {
        precondition(Self.budgets.allSatisfy { $0.key == .clientIP }, "the invitation page spends only per-IP budgets")
        let (limits, bodyLimit, metrics) = (routes.guards.limits, routes.guards.decoder.limit, routes.metrics)
        routes.mounted.record(.get, Self.path)
        routes.mounted.record(.post, Self.path)
        routes.router.get(RouterPath(Self.path.description)) { request, context in
            do {
                return try await show(request, context).response()
            } catch {
                return Self.failure(error, context)
            }
        }
        routes.router.post(RouterPath(Self.path.description)) { request, context in
            let ledger = BudgetLedger(declared: Self.budgets, limits: limits, clientNetwork: ClientAddress.networkKey(context.clientIP))
            do {
                for budget in Self.budgets { try await ledger.spend(budget, key: ClientAddress.limitKey(context.clientIP ?? "unknown")) }
                return try await submit(request, context, bodyLimit: bodyLimit).response()
            } catch {
                if (error as? APIError)?.code == .rateLimited { metrics?.rateLimited(route: Self.path.description) }
                return Self.failure(error, context)
            }
        }
    }

    /// The offer, or why the link cannot be used. Only reads: mail scanners open links too.
    func show(_ request: Request, _ context: AppRequestContext) async throws -> InvitationPage {
        let token = try Self.token(request.uri.queryParameters.get("token"))
        return .form(token: token, offer: try await offer(of: token), problem: nil)
    }

    func submit(_ request: Request, _ context: AppRequestContext, bodyLimit: Int) async throws -> InvitationPage {
        guard request.headers[.contentType]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true else {
            return .failure(.unsupportedMediaType, "Send the form from the invitation page: open the link in the email again.")
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
        let offer = try await offer(of: token)
        let password = form.password ?? "", confirmation = form.confirmPassword ?? ""
        guard password == confirmation else {
            return .form(token: token, offer: offer, problem: "The two passwords do not match. Type the same password in both fields.")
        }
        do {
            // The API's rules for the body, so the page takes what the app may send.
            let checked = try AcceptInvitationRequest(token: token, password: password.isEmpty ? nil : password).validated()
            let device = ClientDevice(
                isMobile: ClientKind.isMobile(request), userAgent: request.headers[.userAgent].map { TextCharacters.escaped($0) },
                ipAddress: context.clientIP)
            _ = try await invitations.join(token: checked.token, password: checked.password, firstName: nil, lastName: nil, device: device)
        } catch let problem as FieldProblem {
            return .form(token: token, offer: offer, problem: problem.message)
        } catch let error as APIError where error.code == .weakPassword {
            return .form(token: token, offer: offer, problem: error.message)
        } catch let error as APIError where error.code == .invitationInvalid {
            // Used (another tab) or expired since the offer was read.
            return .invalidLink
        }
        return .joined(shop: offer.company.name, email: offer.email, withPassword: !password.isEmpty)
    }

    /// `raw` as the token's rule reads it, or the page of a link without a usable one.
    static func token(_ raw: String?) throws(Refused) -> String {
        do {
            return try FieldRules.resetToken.check(raw ?? "", "token")
        } catch {
            throw Refused(page: FieldRules.trimmingWhitespace(raw ?? "").isEmpty ? .missingToken : .invalidLink)
        }
    }

    private func offer(of token: String) async throws -> InvitationPreview {
        do {
            return try await invitations.store.preview(token: token, serverURL: invitations.serverURL, now: invitations.clock.now())
        } catch let error as APIError where error.code == .invitationInvalid {
            throw Refused(page: .invalidLink)
        }
    }

    /// The page of a failure: a refusal's own, a 4xx's message, or a 500 whose details go only
    /// to the log (a person reads this).
    static func failure(_ error: any Error, _ context: AppRequestContext) -> Response {
        if let refused = error as? Refused { return refused.page.response() }
        if let error = error as? APIError, error.status.code < 500 {
            return InvitationPage.failure(error.status, error.message).response(headers: error.headers)
        }
        context.logger.error("Invitation page failed", metadata: ["error": "\(String(reflecting: error))"])
        return InvitationPage.failure(.internalServerError, "Something went wrong on our side. Try again in a moment.").response()
    }
}
