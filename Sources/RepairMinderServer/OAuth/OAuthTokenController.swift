import Foundation
import HTTPTypes
import Hummingbird
import RepairMinderModels

/// The endpoints apps call server to server (docs/API.md §16.4–§16.6): the token endpoint
/// (`authorization_code` with PKCE, `refresh_token` with rotation and reuse detection), UserInfo,
/// revocation (RFC 7009) and introspection (RFC 7662). Answers are RFC 6749's JSON, never the
/// API's envelope, and never cached.
struct OAuthTokenController: Sendable {
    let apps: OAuthAppStore
    let grants: OAuthGrantStore
    let accounts: AccountStore
    let signer: TokenSigner
    let rotation: RefreshTokenRotation<OAuthGrantUser>
    let limits: AbuseLimits
    let settings: ServerSettings
    let clock: ServerClock

    /// An access token of an app lives as a staff one does (`--access-token-ttl`).
    var accessTokenLifetime: Int { settings.accessTokenTTL }

    func mount(on router: Router<AppRequestContext>) {
        router.post("/oauth/token") { request, context in await answer { try await token(request, context) } }
        router.post("/oauth/revoke") { request, context in await answer { try await revoke(request, context) } }
        router.post("/oauth/introspect") { request, context in await answer { try await introspect(request, context) } }
        router.get("/oauth/userinfo") { request, context in await answer(bearer: true) { try await userInfo(request, nil) } }
        router.post("/oauth/userinfo") { request, context in
            await answer(bearer: true) { try await userInfo(request, try await OAuthParameters.form(of: request)) }
        }
    }

    // MARK: The token endpoint

    private func token(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        try await admit(context)
        let parameters = try await Self.form(request)
        let app = try await authenticate(request, parameters)
        switch parameters["grant_type"] {
        case "authorization_code": return try await exchange(parameters, app: app, request, context)
        case "refresh_token": return try await refresh(parameters, app: app, request, context)
        case nil: throw OAuthError.invalidRequest("grant_type is required")
        case let other?: throw OAuthError.unsupportedGrantType(other)
        }
    }

    private func exchange(_ parameters: OAuthParameters, app: OAuthAppRecord, _ request: Request, _ context: AppRequestContext)
        async throws -> Response
    {
        guard let code = parameters["code"] else { throw OAuthError.invalidRequest("code is required") }
        guard let redirectUri = parameters["redirect_uri"] else { throw OAuthError.invalidRequest("redirect_uri is required") }
        guard let verifier = parameters["code_verifier"] else { throw OAuthError.invalidRequest("code_verifier is required (PKCE)") }
        let now = clock.now()
        let appId = app.id
        let redemption = try await grants.redeem(
            code: code, now: now, refreshTTL: OAuthGrantUser.firstRefreshLifetime(isMobile: false, settings: settings),
            device: OAuthAuthorizeController.device(request, context)
        ) { claimed in
            // The code is spent whatever follows: a wrong verifier or app does not get a retry.
            guard claimed.appId == appId else { throw OAuthError.invalidGrant("The code was issued to another app") }
            guard claimed.redirectUri == redirectUri else { throw OAuthError.invalidGrant("redirect_uri is not the authorization request's") }
            guard OAuthAuthorizationRequest.verifies(verifier, challenge: claimed.codeChallenge) else {
                throw OAuthError.invalidGrant("code_verifier does not match the code_challenge")
            }
        }
        switch redemption {
        case .invalid: throw OAuthError.invalidGrant("The code is unknown or has expired")
        case .replayed: throw OAuthError.invalidGrant("The code was used before; what it gave is revoked")
        case .redeemed(let claimed, let sessionId, let refreshToken):
            let (user, company) = try await signedInUser(claimed.userId)
            let session = OAuthSessionRecord(
                id: sessionId, userId: user.id, appId: app.id, scope: claimed.scope, authTime: claimed.authTime, amr: claimed.amr)
            return try await tokenResponse(
                app: app, user: user, company: company, session: session, nonce: claimed.nonce, refreshToken: refreshToken, now: now)
        }
    }

    private func refresh(_ parameters: OAuthParameters, app: OAuthAppRecord, _ request: Request, _ context: AppRequestContext)
        async throws -> Response
    {
        guard let presented = parameters["refresh_token"] else { throw OAuthError.invalidRequest("refresh_token is required") }
        // Bound to the app it was issued to: checked before the token is spent, so another app
        // presenting it changes nothing.
        guard let session = try await grants.session(ofRefreshToken: presented), session.appId == app.id else {
            throw OAuthError.invalidGrant("The refresh token is unknown, or was issued to another app")
        }
        var scopes = session.scopes
        if let asked = parameters["scope"] {
            let narrower = asked.split(separator: " ").map(String.init)
            guard Set(narrower).isSubset(of: Set(scopes)) else { throw OAuthError.invalidScope("A refresh cannot widen the scope") }
            scopes = OAuthScope.all.filter(narrower.contains)
        }
        let now = clock.now()
        let rotated: RefreshTokenRotation<OAuthGrantUser>.Rotated
        do {
            rotated = try await rotation.rotate(presented, device: OAuthAuthorizeController.device(request, context), now: now)
        } catch let error as APIError {
            throw OAuthError.invalidGrant(error.code == .tokenReuseDetected
                ? "The refresh token was used before: the session is revoked" : error.message)
        }
        let (user, company) = try await signedInUser(rotated.user.id)
        var narrowed = session
        narrowed.scope = scopes.joined(separator: " ")
        return try await tokenResponse(
            app: app, user: user, company: company, session: narrowed, nonce: nil, refreshToken: rotated.refreshToken, now: now)
    }

    /// The user of a grant, who must still be able to sign in, in a shop that is active.
    private func signedInUser(_ id: String) async throws -> (UserRecord, CompanyRecord) {
        guard let (user, company) = try await accounts.userWithCompany(id: id), user.canSignIn else {
            throw OAuthError.invalidGrant("The account can no longer sign in")
        }
        guard company.companyStatus == .active else { throw OAuthError.invalidGrant("The account's shop is not active") }
        return (user, company)
    }

    /// RFC 6749 §5.1 and OpenID Connect Core §3.1.3.3: the access token, the ID token (with
    /// `openid`), the refresh token (with `offline_access`).
    private func tokenResponse(
        app: OAuthAppRecord, user: UserRecord, company: CompanyRecord, session: OAuthSessionRecord, nonce: String?,
        refreshToken: String?, now: Double
    ) async throws -> Response {
        let scopes = session.scopes
        let issuedAt = Int(now)
        let role = user.userRole
        let permissions = scopes.compactMap(OAuthScope.permission).filter { role.permissions(inCompany: company.id).contains($0) }
        let access = OAuthAccessPayload(
            iss: signer.issuer, sub: user.id, aud: app.clientId, clientId: app.clientId, scope: session.scope, sid: session.id,
            iat: issuedAt, exp: issuedAt + accessTokenLifetime, jti: RandomToken.base64URL(byteCount: 16), companyId: company.id,
            role: user.role, permissions: permissions.map(\.rawValue))
        var body: [String: JSONValue] = [
            "access_token": .string(try await signer.signOAuthAccess(access)), "token_type": "Bearer",
            "expires_in": .number(Double(accessTokenLifetime)), "scope": .string(session.scope),
        ]
        if let refreshToken { body["refresh_token"] = .string(refreshToken) }
        if scopes.contains("openid") {
            let claims = OAuthUserClaims(user: user, company: company, scopes: Set(scopes))
            let id = IDTokenPayload(
                iss: signer.issuer, sub: user.id, aud: app.clientId, azp: app.clientId, exp: issuedAt + accessTokenLifetime,
                iat: issuedAt, authTime: Int(session.authTime), nonce: nonce, amr: AuthenticationMethods.claim(stored: session.amr),
                sid: session.id, name: claims.name, givenName: claims.givenName, familyName: claims.familyName, email: claims.email,
                emailVerified: claims.emailVerified, company: claims.shop, role: claims.role)
            guard let signed = try await signer.signIDToken(id) else {
                throw OAuthError(error: "server_error", description: "This server has no ID token key (HS256 alone)", status: .internalServerError)
            }
            body["id_token"] = .string(signed)
        }
        return OAuthJSON.response(body)
    }

    // MARK: Client authentication (RFC 6749 §2.3)

    /// The app the request authenticates as: `client_secret_basic` or `client_secret_post` for a
    /// confidential app, `client_id` alone for a public one. Anything else is 401 `invalid_client`.
    private func authenticate(_ request: Request, _ parameters: OAuthParameters) async throws -> OAuthAppRecord {
        var clientId = parameters["client_id"], secret = parameters["client_secret"]
        if let header = request.headers[.authorization] {
            guard header.lowercased().hasPrefix("basic "), let decoded = Data(base64Encoded: String(header.dropFirst(6))),
                let pair = String(data: decoded, encoding: .utf8), let colon = pair.firstIndex(of: ":")
            else { throw OAuthError.invalidClient("The Authorization header is not HTTP Basic client credentials") }
            guard secret == nil else { throw OAuthError.invalidRequest("Send the client's credentials one way, not both") }
            // RFC 6749 §2.3.1: each part form-encoded before Basic.
            let id = pair[..<colon].replacingOccurrences(of: "+", with: " ").removingPercentEncoding
            let given = pair[pair.index(after: colon)...].replacingOccurrences(of: "+", with: " ").removingPercentEncoding
            if let named = clientId, named != id { throw OAuthError.invalidClient("client_id differs from the Authorization header's") }
            (clientId, secret) = (id, given)
        }
        guard let clientId, !clientId.isEmpty else { throw OAuthError.invalidClient("The client is not identified (client_id)") }
        guard clientId.count <= 128, let app = try await apps.app(clientId: clientId) else {
            throw OAuthError.invalidClient("No app has this client_id")
        }
        let now = clock.now()
        switch app.type {
        case .confidential:
            guard let secret, app.accepts(secret: secret, now: now) else {
                throw OAuthError.invalidClient("The client secret is missing or wrong")
            }
        case .public:
            guard secret == nil else { throw OAuthError.invalidClient("A public app has no secret: send client_id alone") }
        case .unknown:
            throw OAuthError.invalidClient("This app cannot use the token endpoint")
        }
        return app
    }

    // MARK: Revocation and introspection

    /// RFC 7009: the app's own refresh token (its session ends) or access token (its session
    /// ends too); 200 whatever the token was.
    private func revoke(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        try await admit(context)
        let parameters = try await Self.form(request)
        let app = try await authenticate(request, parameters)
        guard let token = parameters["token"] else { throw OAuthError.invalidRequest("token is required") }
        let now = clock.now()
        if let session = try await session(of: token, app: app, now: now, acceptingExpired: true) {
            try await grants.revoke(session: session.id, reason: "revoked_by_app", now: now)
        }
        return OAuthJSON.response([:])
    }

    /// RFC 7662, for confidential apps about their own tokens: anything else is inactive.
    private func introspect(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        try await admit(context)
        let parameters = try await Self.form(request)
        let app = try await authenticate(request, parameters)
        guard app.type == .confidential else { throw OAuthError.invalidClient("Introspection is for confidential apps") }
        guard let token = parameters["token"] else { throw OAuthError.invalidRequest("token is required") }
        let now = clock.now()
        guard let session = try await session(of: token, app: app, now: now, acceptingExpired: false), session.revokedAt == nil,
            let (user, company) = try await accounts.userWithCompany(id: session.userId), user.canSignIn, company.companyStatus == .active
        else { return OAuthJSON.response(["active": false]) }
        var body: [String: JSONValue] = [
            "active": true, "scope": .string(session.scope), "client_id": .string(app.clientId), "sub": .string(user.id),
            "sid": .string(session.id), "iss": .string(signer.issuer),
        ]
        if let access = try? await signer.verifyOAuthAccess(token) {
            body["token_type"] = "Bearer"
            body["exp"] = .number(Double(access.exp))
            body["iat"] = .number(Double(access.iat))
            body["aud"] = .string(access.aud)
        } else {
            body["token_type"] = "refresh_token"
        }
        return OAuthJSON.response(body)
    }

    /// The live-or-not session of `token` when it is `app`'s: an access token of ours (unexpired,
    /// unless `acceptingExpired`), or a refresh token.
    private func session(of token: String, app: OAuthAppRecord, now: Double, acceptingExpired: Bool) async throws -> OAuthSessionRecord? {
        if let access = try? await signer.verifyOAuthAccess(token) {
            guard access.clientId == app.clientId, acceptingExpired || Double(access.exp) > now else { return nil }
            return try await grants.session(access.sid)
        }
        // A spent or expired refresh token is no longer a token (RFC 7662 §2.2, RFC 7009 §2.2).
        guard let session = try await grants.session(ofRefreshToken: token, usableAt: now), session.appId == app.id else { return nil }
        return session
    }

    // MARK: UserInfo

    /// OpenID Connect Core §5.3: the claims the access token's scope releases, while its session
    /// and account are live. The token comes in the header, or a POST's form (RFC 6750 §2.2).
    private func userInfo(_ request: Request, _ form: OAuthParameters?) async throws -> Response {
        let header = request.headers[.authorization]
        let fromForm = form?["access_token"]
        guard (header == nil) != (fromForm == nil) else {
            throw OAuthError(error: "invalid_request", description: "Send the access token once: the Authorization header or the form", status: .unauthorized)
        }
        var token = fromForm ?? ""
        if let header {
            guard header.lowercased().hasPrefix("bearer ") else { throw OAuthError.invalidToken("The Authorization header is not a bearer token") }
            token = String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)
        }
        let now = clock.now()
        guard let access = try? await signer.verifyOAuthAccess(token), Double(access.exp) > now else {
            throw OAuthError.invalidToken("The access token is invalid or has expired")
        }
        guard Set(access.scope.split(separator: " ").map(String.init)).contains("openid") else {
            throw OAuthError(error: "insufficient_scope", description: "UserInfo needs the openid scope", status: .forbidden)
        }
        guard let session = try await grants.session(access.sid), session.revokedAt == nil,
            let (user, company) = try await accounts.userWithCompany(id: access.sub), user.canSignIn, company.companyStatus == .active
        else { throw OAuthError.invalidToken("The access token's session has ended") }
        let claims = OAuthUserClaims(user: user, company: company, scopes: Set(access.scope.split(separator: " ").map(String.init)))
        return OAuthJSON.response(claims.userInfo)
    }

    // MARK: Helpers

    /// The per-IP budget of the sign-in endpoints (docs/API.md §7).
    private func admit(_ context: AppRequestContext) async throws {
        do {
            _ = try await limits.spend(.clientIP, key: ClientAddress.limitKey(context.clientIP ?? "unknown"))
        } catch let error as APIError where error.code == .rateLimited {
            throw OAuthError.rateLimited
        }
    }

    private static func form(_ request: Request) async throws -> OAuthParameters {
        guard let parameters = try await OAuthParameters.form(of: request) else {
            throw OAuthError.invalidRequest("The body must be application/x-www-form-urlencoded")
        }
        if let twice = parameters.repeated.first { throw OAuthError.invalidRequest("\(twice) is given more than once") }
        return parameters
    }

    private func answer(bearer: Bool = false, _ work: () async throws -> Response) async -> Response {
        do {
            return try await work()
        } catch let error as OAuthError {
            return error.response(bearer: bearer)
        } catch where DatabaseUnavailable.matches(error) {
            // RFC 6749 §4.1.2.1's word for a moment's wait (API.md §1's 503).
            return OAuthError(error: "temporarily_unavailable", description: "The server cannot reach its database; try again in a moment",
                              status: .serviceUnavailable).response()
        } catch {
            return OAuthError(error: "server_error", description: "Something went wrong on our side", status: .internalServerError)
                .response()
        }
    }
}
