import Foundation
import HTTPTypes
import Hummingbird
import RepairMinderModels

/// Signing in to the console and out of it (docs/API.md §15.6): staff only, through the API's
/// own sign-in (§2.1–§2.3: the password, then the code the strongest enrolled factor takes),
/// under the same limits and the shop's policy; the session it starts becomes the console's,
/// held by the `__Host-rm_console` cookie. Customers and REKI accounts have no staff account,
/// so they cannot sign in here.
struct ConsoleSignIn: Sendable {
    let console: Console
    let login: StaffLoginController
    let signer: TokenSigner
    let policies: SecurityPolicyStore
    let revocation: SessionRevocation
    let magicLink: MagicLinkController
    let passwords: PasswordController

    func mount(on pages: ConsoleMounting) {
        pages.getPublic("/sign-in") { request, _ in try await showSignIn(request) }
        pages.postPublic("/sign-in") { request, context, form in try await signIn(request, context, form) }
        pages.postPublic("/sign-in/send-code") { request, context, form in try await sendCode(request, context, form) }
        pages.postPublic("/sign-in/code") { request, context, form in try await verify(request, context, form) }
        pages.post("/sign-out") { page, _ in try await signOut(page) }
        mountEmailedCode(on: pages)
        mountPasswordReset(on: pages)
        pages.get("/") { page in console.redirect(ConsoleSections.home(of: page.staff)) }
    }


    // MARK: Step 1: address and password

    private func showSignIn(_ request: Request) async throws -> Response {
        // Signed in already: to the console, unless an app asked for a fresh sign-in
        // (docs/API.md §16.3, a continuation waiting).
        if request.cookies[ConsoleCookies.continuation] == nil, try await console.visitor(request) != nil { return console.redirect("/") }
        return form(request, email: Self.continuation(request)?["login_hint"] ?? "", problem: nil)
    }

    /// The address-and-password form.
    func form(_ request: Request, email: String, problem: String?, status: HTTPResponse.Status = .ok) -> Response {
        publicPage(
            request, "sign-in", title: "Sign in", page: SignInPage(email: email), problem: problem,
            notice: request.uri.queryParameters.get("notice").flatMap { ConsoleNotice.text(String($0)) }, status: status)
    }

    /// A page of signing in (before there is a session): its forms' CSRF token comes from the
    /// pre-session cookie, set here when the browser has none yet.
    func publicPage(
        _ request: Request, _ template: String, title: String, page: Any, problem: String?, notice: String?,
        status: HTTPResponse.Status
    ) -> Response {
        let (secret, cookie) = Self.preSession(request)
        let view = ConsoleView(title: title, csrf: ConsoleCookies.csrfToken(for: secret), problem: problem, notice: notice, page: page)
        return console.templates.page(template, view, status: status, headers: cookie.map { [.setCookie: $0] } ?? [:])
    }

    struct SignInPage {
        let email: String
    }

    /// The authorization request waiting for this sign-in (docs/API.md §16.3), as a path: only
    /// ever `/oauth/authorize?…` (the cookie is ours, but nothing else may become a redirect).
    static func continuationPath(_ request: Request) -> String? {
        guard let next = request.cookies[ConsoleCookies.continuation]?.value,
            let path = Data(base64URLEncoded: next).map({ String(decoding: $0, as: UTF8.self) }), path.hasPrefix("/oauth/authorize?")
        else { return nil }
        return path
    }

    /// The waiting authorization request's parameters (its `login_hint` fills in the address).
    static func continuation(_ request: Request) -> [String: String]? {
        continuationPath(request).flatMap { OAuthParameters(Substring($0.dropFirst("/oauth/authorize?".count)))?.values }
    }

    /// The request's pre-session value, or a new one with the `Set-Cookie` that stores it.
    static func preSession(_ request: Request) -> (String, String?) {
        if let secret = ConsoleCookies.value(ConsoleCookies.preSession, in: request) { return (secret, nil) }
        let secret = RandomToken.base64URL(byteCount: 32)
        return (secret, ConsoleCookies.setting(ConsoleCookies.preSession, secret))
    }

    private func signIn(_ request: Request, _ context: AppRequestContext, _ form: ConsoleForm) async throws -> Response {
        let email = form.text("email")
        let challenge: LoginChallengeResponse
        do {
            challenge = try await console.call(
                Routes.staffAuth.login, request, context, body: LoginRequest(email: email, password: form.text("password")), login.login)
        } catch let error as APIError where error.status.code < 500 && error.code != .rateLimited {
            return self.form(request, email: email, problem: error.message, status: error.status)
        }
        let methods = challenge.methods ?? challenge.twoFactorMethods ?? [.email]
        let page = CodePage(
            challenge: challenge.challengeToken ?? "", userId: challenge.userId, email: challenge.email, methods: methods,
            passkey: challenge.passkey)
        guard methods.contains(.email) else { return codePage(request, page, notice: nil, problem: nil) }
        do {
            let notice = try await requestCode(challenge.userId, challenge.email, challenge.challengeToken, request, context)
            return codePage(request, page, notice: notice, problem: nil)
        } catch let error as APIError where error.code == .rateLimited {
            // The password was right; only the mail must wait (§2.2's spacing): say so where
            // the person can ask again.
            return codePage(request, page, notice: nil, problem: error.message, status: error.status)
        }
    }

    // MARK: Step 2 and 3: the code

    /// The second step's page: where the code is, and the form to type it; for a user with
    /// passkeys, "Use a passkey", which the console's script answers with step 1's options.
    struct CodePage {
        let challenge: String
        let userId: String
        let email: String
        let emailed: Bool
        let app: Bool
        /// Whether a code form is shown: not for a user whose only factor is passkeys.
        let codeForm: Bool
        /// Step 1's `passkey` request options as JSON, for `navigator.credentials.get`; "" without.
        let passkeyOptions: String
        let passkey: Bool
        /// Passkeys only, yet no options to use them with: nothing on this page can sign in.
        let passkeyUnavailable: Bool

        init(challenge: String, userId: String, email: String, methods: [TwoFactorMethod], passkey: PublicKeyCredentialRequestOptionsJSON?) {
            (self.challenge, self.userId, self.email) = (challenge, userId, email)
            emailed = methods.contains(.email)
            app = methods.contains(.totp) || methods.contains(.recoveryCode)
            codeForm = emailed || app
            let options = methods.contains(.passkey) ? passkey.flatMap { try? JSONEncoder().encode($0) } : nil
            passkeyOptions = options.map { String(decoding: $0, as: UTF8.self) } ?? ""
            self.passkey = options != nil
            passkeyUnavailable = !codeForm && options == nil
        }

        /// The page a posted code or passkey form came from, from its hidden fields: the app's
        /// flag and the passkey options (read back as options, so only those are shown again).
        init(resuming form: ConsoleForm) {
            let options = form["passkeyOptions"].flatMap {
                try? JSONDecoder().decode(PublicKeyCredentialRequestOptionsJSON.self, from: Data($0.utf8))
            }
            var methods: [TwoFactorMethod] = form["app"] == "1" ? [.totp, .recoveryCode] : []
            if options != nil { methods.append(.passkey) }
            self.init(
                challenge: form.text("challengeToken"), userId: form.text("userId"), email: form.text("email"),
                methods: methods.isEmpty ? [.email] : methods, passkey: options)
        }
    }

    func codePage(
        _ request: Request, _ page: CodePage, notice: String?, problem: String?, status: HTTPResponse.Status = .ok
    ) -> Response {
        publicPage(request, "sign-in-code", title: "Enter your code", page: page, problem: problem, notice: notice, status: status)
    }

    /// Asks the API to email a code (§2.2); what to tell the person.
    private func requestCode(
        _ userId: String, _ email: String, _ token: String?, _ request: Request, _ context: AppRequestContext
    ) async throws -> String {
        let answer = try await console.call(
            Routes.staffAuth.requestTwoFactorCode, request, context,
            body: TwoFactorCodeRequest(userId: userId, email: email, challengeToken: token), login.requestTwoFactorCode)
        return answer.message == "2FA code sent to your email" ? "We emailed a code to \(email)." : answer.message
    }

    private func sendCode(_ request: Request, _ context: AppRequestContext, _ form: ConsoleForm) async throws -> Response {
        let page = CodePage(
            challenge: form.text("challengeToken"), userId: form.text("userId"), email: form.text("email"), methods: [.email],
            passkey: nil)
        do {
            let notice = try await requestCode(page.userId, page.email, page.challenge, request, context)
            return codePage(request, page, notice: notice, problem: nil)
        } catch let error as APIError where error.code == .loginChallengeExpired || error.code == .validationError {
            return self.form(request, email: page.email, problem: error.message, status: error.status)
        } catch let error as APIError where error.status.code < 500 {
            return codePage(request, page, notice: nil, problem: error.message, status: error.status)
        }
    }

    private func verify(_ request: Request, _ context: AppRequestContext, _ form: ConsoleForm) async throws -> Response {
        let page = CodePage(resuming: form)
        // A passkey's answer (the script puts `navigator.credentials.get`'s result here), or a code.
        var body = TwoFactorVerifyRequest(userId: page.userId, code: form.text("code"), challengeToken: page.challenge)
        if let json = form["passkey"], !json.isEmpty {
            guard let assertion = try? JSONDecoder().decode(AuthenticationResponseJSON.self, from: Data(json.utf8)) else {
                return codePage(request, page, notice: nil, problem: APIError.passkeyInvalid.message, status: .badRequest)
            }
            body = TwoFactorVerifyRequest(userId: page.userId, passkey: assertion, challengeToken: page.challenge)
        }
        let tokens: StaffTokenResponse
        do {
            tokens = try await console.call(Routes.staffAuth.verifyTwoFactorCode, request, context, body: body, login.verifyTwoFactorCode)
        } catch let error as APIError where error.code == .loginChallengeExpired || error.code == .tooManyAttempts {
            // This sign-in is over: start again from the password.
            return self.form(request, email: page.email, problem: error.message, status: error.status)
        } catch let error as APIError where error.status.code < 500 && error.code != .rateLimited {
            return codePage(request, page, notice: nil, problem: error.message, status: error.status)
        }
        return try await start(tokens, request)
    }

    /// Makes the session the API just started the console's, and sends the browser in.
    /// `landing`: where a session that is not restricted goes (a restricted one goes to enrol).
    func start(_ tokens: StaffTokenResponse, _ request: Request, landing: String = "/") async throws -> Response {
        let now = console.clock.now()
        let claims = try await signer.verify(tokens.token, as: AccessTokenClaims.self, now: now)
        let policy = try await policies.current(companyId: claims.companyId)
        let token = RandomToken.base64URL(byteCount: 32)
        try await console.sessions.adopt(
            sessionId: claims.sid, token: token, lifetime: policy.sessionMaxLifetime(isMobile: false, settings: console.settings),
            now: now)
        var headers = HTTPFields()
        headers.append(HTTPField(name: .setCookie, value: ConsoleCookies.setting(ConsoleCookies.session, token)))
        headers.append(HTTPField(name: .setCookie, value: ConsoleCookies.settingLax(ConsoleCookies.signIn, token)))
        headers.append(HTTPField(name: .setCookie, value: ConsoleCookies.clearing(ConsoleCookies.preSession)))
        // An app's authorization request sent the browser here: back to it.
        if tokens.scope != TokenScope.enrolment, let path = Self.continuationPath(request) {
            headers.append(HTTPField(name: .setCookie, value: ConsoleCookies.clearing(ConsoleCookies.continuation)))
            var response = Response.redirect(to: path, type: .normal)
            for field in headers { response.headers.append(field) }
            ConsoleTemplates.pageHeaders(into: &response.headers)
            return response
        }
        return console.redirect(tokens.scope == TokenScope.enrolment ? "/account?notice=enrol" : landing, headers: headers)
    }

    // MARK: Sign-out

    /// Ends the session on the server (its cookie alone would be enough to use it otherwise).
    private func signOut(_ page: ConsolePageRequest) async throws -> Response {
        let session = page.staff.claims.sid, now = console.clock.now()
        let device = ClientDevice(
            isMobile: false, userAgent: page.request.headers[.userAgent].map { TextCharacters.escaped($0) },
            ipAddress: page.context.clientIP)
        _ = try await revocation.transaction { try await $0.revoke(session: session, reason: "logout", device: device, now: now) }
        var headers = HTTPFields()
        headers.append(HTTPField(name: .setCookie, value: ConsoleCookies.clearing(ConsoleCookies.session)))
        headers.append(HTTPField(name: .setCookie, value: ConsoleCookies.clearing(ConsoleCookies.signIn)))
        return console.redirect("/sign-in?notice=signed-out", headers: headers)
    }
}

/// The notices a page shows after a redirect (`?notice=`): fixed texts, so a link cannot make
/// the console say something of its choosing.
enum ConsoleNotice {
    static func text(_ key: String) -> String? {
        switch key {
        case "signed-out": "You signed out."
        case "app-sign-in": "Sign in to Repair Minder to continue to the app."
        case "app-withdrawn": "Taken back: the app's sessions have ended, and it will ask you again."
        case "account-deleted": "Your account has been deleted, and every device signed out."
        case "joined": "Welcome to the team. To sign in with a passkey from now on, add one below; otherwise we email you a code each time."
        case "password-reset": "Your password is changed and every session of yours has ended. Sign in with the new one."
        case "enrol": "Your shop requires a stronger way to sign in. Set it up below to use the rest of the console."
        case "invited": "Invitation sent."
        case "resent": "Invitation sent again, with a new link: the old one no longer works."
        case "saved": "Saved."
        case "role": "Role changed."
        case "deactivated": "Deactivated: their sessions have ended."
        case "reactivated": "Reactivated."
        case "signed-out-member": "Their sessions have ended."
        case "no-sessions": "They had no live session."
        case "approved": "The shop is approved."
        case "suspended": "The shop is suspended."
        case "reactivated-shop": "The shop is active again."
        case "client-added": "Client added."
        case "client-deleted": "Client deleted."
        case "password-changed": "Password changed. Your other devices are signed out."
        case "app-off": "The authenticator app is off."
        case "passkey-added": "Passkey added."
        case "passkey-removed": "Passkey removed."
        default: nil
        }
    }
}
