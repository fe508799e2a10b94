import Foundation
import HTTPTypes
import Hummingbird
import RepairMinderModels

/// The authorization endpoint (docs/API.md §16.3): `GET|POST /oauth/authorize`, the consent
/// page's `POST /oauth/authorize/decision`. The person signs in through the console's sign-in
/// (the shop's policy, every factor, quarantine), whose session the `__Host-rm_sign_in` cookie
/// names here; then allows the app (once, unless it asks again or is first party), and the
/// browser goes back to the app with a code.
struct OAuthAuthorizeController: Sendable {
    let console: Console
    let apps: OAuthAppStore
    let grants: OAuthGrantStore
    let issuer: String

    static let path = "/oauth/authorize"

    func mount(on router: Router<AppRequestContext>) {
        router.get(RouterPath(Self.path)) { request, context in
            await answer(request, context) {
                guard let parameters = OAuthParameters.query(of: request) else { return page(.badRequest, "The request's address is malformed.") }
                return try await authorize(parameters, request, context)
            }
        }
        router.post(RouterPath(Self.path)) { request, context in
            await answer(request, context) {
                guard let parameters = try await OAuthParameters.form(of: request) else {
                    return page(.badRequest, "An authorization request sent as a form must be application/x-www-form-urlencoded.")
                }
                return try await authorize(parameters, request, context)
            }
        }
        router.post(RouterPath(Self.path + "/decision")) { request, context in
            await answer(request, context) { try await decide(request, context) }
        }
    }

    // MARK: The request

    private func authorize(_ parameters: OAuthParameters, _ request: Request, _ context: AppRequestContext) async throws -> Response {
        let authorization: OAuthAuthorizationRequest
        do {
            authorization = try await OAuthAuthorizationRequest.read(parameters.values, repeated: parameters.repeated, apps: apps)
        } catch let problem as OAuthAuthorizationRequest.Unredirectable {
            return page(.badRequest, problem.message)
        }
        do {
            try authorization.check(repeated: parameters.repeated)
        } catch {
            return back(authorization, error)
        }
        let prompts = authorization.prompts
        guard let visitor = try await visitor(request) else {
            if prompts.contains("none") { return back(authorization, OAuthError(error: "login_required", description: "No one is signed in")) }
            return toSignIn(authorization, request)
        }
        // A fresh sign-in asked for (prompt=login, or one older than max_age): the person signs
        // in again, whose new session the request then goes on with (its continuation drops
        // prompt=login and max_age, so it does not ask again). The session they had is left as
        // it is: another site could send a browser here, and must not be able to sign it out.
        let tooOld = authorization.maxAge.map { console.clock.now() - visitor.signedInAt > Double($0) } ?? false
        if prompts.contains("login") || tooOld {
            if prompts.contains("none") { return back(authorization, OAuthError(error: "login_required", description: "A new sign-in is needed")) }
            return toSignIn(authorization, request, dropping: ["prompt", "max_age"])
        }
        if let refusal = refusal(of: visitor.staff, for: authorization) { return back(authorization, refusal) }
        let consented = try await grants.consent(userId: visitor.staff.user.id, appId: authorization.app.id) ?? []
        let needsConsent = !authorization.app.firstParty && (prompts.contains("consent") || !Set(authorization.scopes).isSubset(of: consented))
        if needsConsent {
            if prompts.contains("none") {
                return back(authorization, OAuthError(error: "consent_required", description: "The person has not allowed this app yet"))
            }
            return try await consentPage(authorization, visitor)
        }
        return try await issue(authorization, visitor, request, context, consented: false)
    }

    /// Why `staff` may not sign in to the app, as the error the app gets; nil when they may.
    private func refusal(of staff: AuthenticatedStaff, for authorization: OAuthAuthorizationRequest) -> OAuthError? {
        let denied = { (reason: String) in OAuthError(error: "access_denied", description: reason) }
        if let shop = authorization.app.companyId, shop != staff.company.id {
            return denied("This app is for the staff of another shop")
        }
        guard staff.company.companyStatus == .active else { return denied("Your shop is not active: its staff cannot sign in to apps") }
        if staff.restricted { return denied("Set up the sign-in your shop requires first (in the console's My account)") }
        let role = staff.user.userRole
        for scope in authorization.scopes {
            if let permission = OAuthScope.permission(scope), !role.permissions(inCompany: staff.company.id).contains(permission) {
                return OAuthError(error: "invalid_scope", description: "Your role (\(role.rawValue)) does not allow \(scope)")
            }
        }
        return nil
    }

    /// Issues the code and sends the browser back to the app with it (RFC 9207's `iss` too).
    private func issue(
        _ authorization: OAuthAuthorizationRequest, _ visitor: ConsoleVisitor, _ request: Request, _ context: AppRequestContext,
        consented: Bool
    ) async throws -> Response {
        let code = try await grants.issueCode(
            app: authorization.app, userId: visitor.staff.user.id, redirectUri: authorization.redirectUri,
            scopes: OAuthScope.all.filter(authorization.scopes.contains), nonce: authorization.nonce,
            codeChallenge: authorization.codeChallenge, authTime: visitor.signedInAt,
            amr: visitor.staff.claims.amr.map(AuthenticationMethods.stored), consented: consented, now: console.clock.now(),
            device: Self.device(request, context))
        return redirect(authorization.redirect(with: [("code", code), ("iss", issuer)]))
    }

    // MARK: Consent

    struct ConsentPage {
        struct Scope {
            let name: String
            let meaning: String
        }
        let app: String
        let owner: String
        let scopes: [Scope]
        let fields: [Field]
        let csrf: String
        struct Field {
            let name: String
            let value: String
        }
    }

    private func consentPage(_ authorization: OAuthAuthorizationRequest, _ visitor: ConsoleVisitor) async throws -> Response {
        let owner = authorization.app.companyId == nil ? "Repair Minder" : visitor.staff.company.name
        let page = ConsentPage(
            app: authorization.app.name, owner: owner,
            scopes: OAuthScope.all.filter(authorization.scopes.contains).map { .init(name: $0, meaning: Self.meaning(of: $0)) },
            fields: authorization.parameters.sorted { $0.key < $1.key }.map { .init(name: $0.key, value: $0.value) },
            csrf: visitor.csrf)
        var response = console.templates.page(
            "oauth-consent", ConsoleView(title: "Allow \(authorization.app.name)?", csrf: visitor.csrf, page: page))
        // The decision's answer redirects to the app: the page's forms may end up there.
        response.headers[.contentSecurityPolicy] = ConsoleTemplates.contentSecurityPolicy.replacingOccurrences(
            of: "form-action 'self'", with: "form-action 'self' \(Self.origin(of: authorization.redirectUri))")
        return response
    }

    /// What a scope lets the app do, in words.
    static func meaning(of scope: String) -> String {
        switch scope {
        case "openid": "Know who you are (your account's id)"
        case "profile": "See your name"
        case "email": "See your email address"
        case "offline_access": "Stay signed in when you are not using it"
        case "repairminder": "See your shop and your role in it"
        default: "Use your \(scope.replacingOccurrences(of: ":", with: " ")) permission"
        }
    }

    private func decide(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        guard let visitor = try await visitor(request) else {
            try ConsoleForm.checkOrigin(request, settings: console.settings)
            return page(.badRequest, "Your sign-in ended. Go back to the app and start again.")
        }
        let form = try await ConsoleForm.read(request, secret: visitor.token, settings: console.settings)
        var values = form.fields
        let decision = values.removeValue(forKey: "decision")
        values.removeValue(forKey: "csrf")
        let authorization: OAuthAuthorizationRequest
        do {
            authorization = try await OAuthAuthorizationRequest.read(values, repeated: [], apps: apps)
            try authorization.check(repeated: [])
        } catch let problem as OAuthAuthorizationRequest.Unredirectable {
            return page(.badRequest, problem.message)
        }
        if let refusal = refusal(of: visitor.staff, for: authorization) { return back(authorization, refusal) }
        guard decision == "allow" else {
            return back(authorization, OAuthError(error: "access_denied", description: "The person did not allow the app"))
        }
        return try await issue(authorization, visitor, request, context, consented: true)
    }

    // MARK: Answers

    /// The visitor the request's cookies name: the console's own, or the sign-in cookie a
    /// cross-site navigation carries.
    private func visitor(_ request: Request) async throws -> ConsoleVisitor? {
        for name in [ConsoleCookies.session, ConsoleCookies.signIn] {
            if let token = ConsoleCookies.value(name, in: request), let visitor = try await console.visitor(token: token) { return visitor }
        }
        return nil
    }

    /// To the console's sign-in, which comes back to this request (without `dropping`).
    private func toSignIn(_ authorization: OAuthAuthorizationRequest, _ request: Request, dropping: Set<String> = []) -> Response {
        var components = URLComponents()
        components.queryItems = authorization.parameters.filter { !dropping.contains($0.key) }.sorted { $0.key < $1.key }
            .map { URLQueryItem(name: $0.key, value: $0.value) }
        let query = (components.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
        let next = Data((Self.path + "?" + query).utf8).base64URLEncoded()
        var headers = HTTPFields()
        headers.append(HTTPField(name: .setCookie, value: ConsoleCookies.setting(ConsoleCookies.continuation, next)))
        headers.append(HTTPField(name: .setCookie, value: ConsoleCookies.clearing(ConsoleCookies.signIn)))
        let notice = "?notice=app-sign-in"
        return console.redirect("/sign-in" + notice, headers: headers)
    }

    /// An error of the app's request, back to its redirect URI (RFC 6749 §4.1.2.1, RFC 9207).
    private func back(_ authorization: OAuthAuthorizationRequest, _ error: OAuthError) -> Response {
        redirect(authorization.redirect(with: [("error", error.error), ("error_description", error.description), ("iss", issuer)]))
    }

    private func redirect(_ location: String) -> Response {
        var response = Response(status: .seeOther, headers: [.location: location])
        ConsoleTemplates.pageHeaders(into: &response.headers)
        return response
    }

    /// A page that explains a request this server cannot send back to its app.
    private func page(_ status: HTTPResponse.Status, _ message: String) -> Response {
        console.problem(status, message)
    }

    private func answer(_ request: Request, _ context: AppRequestContext, _ work: () async throws -> Response) async -> Response {
        await console.answer(request, context, work)
    }

    static func device(_ request: Request, _ context: AppRequestContext) -> ClientDevice {
        ClientDevice(isMobile: false, userAgent: request.headers[.userAgent].map { TextCharacters.escaped($0) }, ipAddress: context.clientIP)
    }

    /// `scheme://host[:port]` of `uri`, for a Content-Security-Policy source.
    static func origin(of uri: String) -> String {
        guard let parts = URLComponents(string: uri), let scheme = parts.scheme, let host = parts.host else { return "'none'" }
        return "\(scheme)://\(host)" + (parts.port.map { ":\($0)" } ?? "")
    }
}
