import Foundation
import HTTPTypes
import Hummingbird
import RepairMinderModels

/// `/.well-known/openid-configuration` (OpenID Connect Discovery 1.0, RFC 8414) and
/// RP-initiated logout, `/oauth/logout` (OpenID Connect RP-Initiated Logout 1.0): docs/API.md
/// §16.2 and §16.6.
struct OAuthDiscoveryController: Sendable {
    let console: Console
    let apps: OAuthAppStore
    let signer: TokenSigner
    let revocation: SessionRevocation
    let issuer: String

    func mount(on router: Router<AppRequestContext>) {
        let document = Self.document(issuer: issuer)
        router.get("/.well-known/openid-configuration") { _, _ in
            OAuthJSON.response(
                document, headers: [.contentType: "application/json", .cacheControl: "public, max-age=300"])
        }
        router.get("/oauth/logout") { request, context in
            await console.answer(request, context) { try await logout(OAuthParameters.query(of: request), request) }
        }
        router.post("/oauth/logout") { request, context in
            await console.answer(request, context) { try await logoutForm(request) }
        }
    }

    /// The provider's metadata: its endpoints under `issuer`, and what it supports.
    static func document(issuer: String) -> [String: JSONValue] {
        func list(_ values: [String]) -> JSONValue { .array(values.map(JSONValue.string)) }
        return [
            "issuer": .string(issuer),
            "authorization_endpoint": .string(issuer + "/oauth/authorize"),
            "token_endpoint": .string(issuer + "/oauth/token"),
            "userinfo_endpoint": .string(issuer + "/oauth/userinfo"),
            "revocation_endpoint": .string(issuer + "/oauth/revoke"),
            "introspection_endpoint": .string(issuer + "/oauth/introspect"),
            "end_session_endpoint": .string(issuer + "/oauth/logout"),
            "jwks_uri": .string(issuer + "/.well-known/jwks.json"),
            "response_types_supported": list(["code"]),
            "response_modes_supported": list(["query"]),
            "grant_types_supported": list(["authorization_code", "refresh_token"]),
            "subject_types_supported": list(["public"]),
            "id_token_signing_alg_values_supported": list(["RS256"]),
            "code_challenge_methods_supported": list(["S256"]),
            "token_endpoint_auth_methods_supported": list(["client_secret_basic", "client_secret_post", "none"]),
            "revocation_endpoint_auth_methods_supported": list(["client_secret_basic", "client_secret_post", "none"]),
            "introspection_endpoint_auth_methods_supported": list(["client_secret_basic", "client_secret_post"]),
            "scopes_supported": list(OAuthScope.all),
            "claims_supported": list([
                "sub", "iss", "aud", "azp", "exp", "iat", "auth_time", "nonce", "amr", "sid", "name", "given_name", "family_name",
                "email", "email_verified", IDTokenPayload.companyClaim, "https://repairminder.app/role",
            ]),
            "prompt_values_supported": list(["none", "login", "consent"]),
            "authorization_response_iss_parameter_supported": true,
            "claims_parameter_supported": false,
            "request_parameter_supported": false,
            "request_uri_parameter_supported": false,
        ]
    }

    // MARK: Logout

    struct LogoutPage {
        let fields: [OAuthAuthorizeController.ConsentPage.Field]
        let csrf: String
    }

    /// With a valid `id_token_hint` (an ID token of ours, expired or not) and, if given, a
    /// `post_logout_redirect_uri` registered for its app: the session ends and the browser goes
    /// there, with `state`. Without a valid hint: a page asks the person to confirm, and an
    /// unregistered address is never followed (it would be an open redirect).
    private func logout(_ parameters: OAuthParameters?, _ request: Request) async throws -> Response {
        guard let parameters, parameters.repeated.isEmpty else { return console.problem(.badRequest, "The sign-out request is malformed.") }
        let hint = try? await parameters["id_token_hint"].asyncMap { try await signer.verifyIDToken($0, as: IDTokenPayload.self) }
        let app = try await hint.asyncMap { try await apps.app(clientId: $0.aud) } ?? nil
        if let target = parameters["post_logout_redirect_uri"], !(app?.postLogoutRedirectUris.contains(target) ?? false) {
            return console.problem(
                .badRequest, "This app may not send you to \(target) after signing out: it is not one of its registered addresses.")
        }
        guard let hint, app != nil else {
            // No proof of which app asks: the person confirms (a link alone must not sign them out).
            let (secret, cookie) = ConsoleSignIn.preSession(request)
            let csrf = ConsoleCookies.csrfToken(for: secret)
            let page = LogoutPage(fields: [], csrf: csrf)
            return console.templates.page(
                "oauth-logout", ConsoleView(title: "Sign out?", csrf: csrf, page: page), headers: cookie.map { [.setCookie: $0] } ?? [:])
        }
        try await endSession(request, userId: hint.sub)
        return signedOut(redirect: parameters["post_logout_redirect_uri"], state: parameters["state"])
    }

    /// The confirmation page's form.
    private func logoutForm(_ request: Request) async throws -> Response {
        let secret = ConsoleCookies.value(ConsoleCookies.preSession, in: request)
        _ = try await ConsoleForm.read(request, secret: secret, settings: console.settings)
        try await endSession(request, userId: nil)
        return signedOut(redirect: nil, state: nil)
    }

    /// Ends the browser's console session (of `userId`, when the hint named one).
    private func endSession(_ request: Request, userId: String?) async throws {
        let now = console.clock.now()
        for name in [ConsoleCookies.session, ConsoleCookies.signIn] {
            guard let token = ConsoleCookies.value(name, in: request), let visitor = try await console.visitor(token: token),
                userId == nil || visitor.staff.user.id == userId
            else { continue }
            let session = visitor.staff.claims.sid
            _ = try await revocation.transaction { try await $0.revoke(session: session, reason: "logout", now: now) }
        }
    }

    private func signedOut(redirect: String?, state: String?) -> Response {
        var headers = HTTPFields()
        headers.append(HTTPField(name: .setCookie, value: ConsoleCookies.clearing(ConsoleCookies.session)))
        headers.append(HTTPField(name: .setCookie, value: ConsoleCookies.clearing(ConsoleCookies.signIn)))
        guard let redirect, var components = URLComponents(string: redirect) else {
            return console.redirect("/sign-in?notice=signed-out", headers: headers)
        }
        if let state { components.queryItems = (components.queryItems ?? []) + [URLQueryItem(name: "state", value: state)] }
        headers[.location] = components.string ?? redirect
        var response = Response(status: .seeOther, headers: headers)
        ConsoleTemplates.pageHeaders(into: &response.headers)
        return response
    }
}

extension Optional {
    /// `map` for an asynchronous, throwing transform.
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
