import Hummingbird
import RepairMinderModels

/// The page an invitation mail links to, `<public-url>/invite?token=…` (docs/API.md §12.4), for
/// a browser: `GET` shows the offer (or why the link no longer works) without using it, `POST`
/// joins. Mounted beside the route table, as REKI's reset page is (an HTML form, not JSON); it
/// takes the budgets of `POST /api/auth/invitations/accept` and its code (`InvitationController.join`).
/// Joined with a password, the page says so and signs nothing in. Joined without one, it signs
/// the new member in to the web console (`signIn`, docs/API.md §15.6), where they add a passkey
/// (or sign in with emailed codes from then on), as the app's accept signs in to the app.
/// A form is taken only from the page itself: another site's post of a token it holds would
/// otherwise swap a victim's console session for the attacker's (login CSRF).
struct InvitationPageController {
    let invitations: InvitationController
    /// Whose origin a form's `Origin` must name (`ConsoleForm.isSameOrigin`).
    let settings: ServerSettings
    /// Starts a console session for a member who just joined without a password.
    let signIn: @Sendable (_ userId: String, ClientDevice, Request) async throws -> Response

    static let path: RoutePath = "/invite"
    static let budgets = Routes.team.acceptInvitation.budgets

    /// The form's fields; any may be missing from a hand-made post.
    struct Form: Decodable {
        var token: String?
        var password: String?
        var confirmPassword: String?
    }

    func mount(on routes: RouteMounter) {
        LinkPageMounting(
            path: Self.path, budgets: Self.budgets, failurePage: { InvitationPage.failure($0, $1).page }, name: "Invitation page"
        ).mount(
            on: routes, show: { request, _ in try await show(request).page },
            submit: { request, context, limit in try await submit(request, context, bodyLimit: limit) })
    }

    /// The offer, or why the link cannot be used. Only reads: mail scanners open links too.
    func show(_ request: Request) async throws -> InvitationPage {
        let token = try Self.token(request.uri.queryParameters.get("token"))
        return .form(token: token, offer: try await offer(of: token), problem: nil)
    }

    func submit(_ request: Request, _ context: AppRequestContext, bodyLimit: Int) async throws -> Response {
        guard ConsoleForm.isSameOrigin(request, settings: settings) else { throw RefusedPage(page: Self.crossSite) }
        let form = try await LinkPageMounting.form(Form.self, from: request, bodyLimit: bodyLimit, page: "the invitation page")
        let token = try Self.token(form.token)
        let offer = try await offer(of: token)
        let password = form.password ?? "", confirmation = form.confirmPassword ?? ""
        guard password == confirmation else {
            return InvitationPage.form(token: token, offer: offer, problem: "The two passwords do not match. Type the same password in both fields.").page.response()
        }
        let userId: String, device: ClientDevice
        do {
            // The API's rules for the body, so the page takes what the app may send.
            let checked = try AcceptInvitationRequest(token: token, password: password.isEmpty ? nil : password).validated()
            device = ClientDevice(
                isMobile: ClientKind.isMobile(request), userAgent: request.headers[.userAgent].map { TextCharacters.escaped($0) },
                ipAddress: context.clientIP)
            userId = try await invitations.join(
                token: checked.token, password: checked.password, firstName: nil, lastName: nil, device: device, offer: offer)
        } catch let problem as FieldProblem {
            return InvitationPage.form(token: token, offer: offer, problem: problem.message).page.response()
        } catch let error as APIError where error.code == .weakPassword {
            return InvitationPage.form(token: token, offer: offer, problem: error.message).page.response()
        } catch let error as APIError where error.code == .invitationInvalid {
            // Used (another tab) or expired since the offer was read.
            return InvitationPage.invalidLink.page.response()
        }
        if password.isEmpty { return try await signIn(userId, device, request) }
        return InvitationPage.joined(shop: offer.company.name, email: offer.email, withPassword: true).page.response()
    }

    /// The answer to a form another site posted (or one without `Origin`), before it is read.
    static let crossSite = InvitationPage.failure(
        .forbidden, "This form can only be sent from the invitation page. Open the link in the email again.").page

    /// `raw` as the token's rule reads it, or the page of a link without a usable one.
    static func token(_ raw: String?) throws(RefusedPage) -> String {
        do {
            return try FieldRules.resetToken.check(raw ?? "", "token")
        } catch {
            throw RefusedPage(page: (FieldRules.trimmingWhitespace(raw ?? "").isEmpty ? InvitationPage.missingToken : .invalidLink).page)
        }
    }

    private func offer(of token: String) async throws -> InvitationPreview {
        do {
            return try await invitations.store.preview(token: token, serverURL: invitations.serverURL, now: invitations.clock.now())
        } catch let error as APIError where error.code == .invitationInvalid {
            throw RefusedPage(page: InvitationPage.invalidLink.page)
        }
    }
}
