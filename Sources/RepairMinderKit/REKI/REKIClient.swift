import Foundation
import RepairMinderModels
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A client of REKI's contract (docs/API.md §10, seed 002) for a REKI app: register, sign in,
/// who am I, sign out, and password reset, with the session kept alive as `APIClient` keeps a
/// staff one: one refresh at a time shared by every caller (`RefreshGate`), an access token
/// within 60 s of expiry refreshed before use, a 401 retried once with fresh tokens. Only a 401
/// from `/auth/refresh` ends the session; network errors, 429 and 5xx keep it.
///
/// It shares the transport and the credential store with `APIClient` (its tokens are kept
/// under their own key, `.reki`), so one app can hold both kinds of session.
public actor REKIClient {
    public nonisolated let baseURL: URL
    public nonisolated let store: any CredentialStore
    private let sender: RequestSender
    private let now: @Sendable () -> Date
    private let refreshGate: RefreshGate<SessionCredentials>

    public init(
        baseURL: URL, store: any CredentialStore, transport: any HTTPTransport = URLSessionTransport(),
        userAgent: String = RepairMinderUserAgent.value(), maxRefreshesPerMinute: Int = 10,
        retry: RetryPolicy = .standard, log: (@Sendable (RequestRecord) -> Void)? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.baseURL = baseURL
        self.store = store
        sender = RequestSender(baseURL: baseURL, transport: transport, userAgent: userAgent, retry: retry, log: log)
        refreshGate = RefreshGate(maxPerMinute: maxRefreshesPerMinute, now: now)
        self.now = now
    }

    /// Whether a REKI session is stored.
    public var isSignedIn: Bool {
        get throws { try store.rekiCredentials() != nil }
    }

    /// Creates the account and signs in. A taken email is `.server(status: 409, ...)`; a weak
    /// password or a bad email `.server(status: 400, ...)` with the rule as message.
    @discardableResult
    public func register(email: String, password: String) async throws -> REKIUser {
        try signedIn(try await send(Routes.REKI.register, LoginRequest(email: email, password: password)))
    }

    /// Signs in. Wrong email or password is `.unauthorized(message: "Invalid credentials", ...)`.
    @discardableResult
    public func login(email: String, password: String) async throws -> REKIUser {
        try signedIn(try await send(Routes.REKI.login, LoginRequest(email: email, password: password)))
    }

    /// The signed-in user.
    public func me() async throws -> REKIUser {
        try await sendSignedIn(Routes.REKI.me, EmptyPayload())
    }

    /// Ends the session on the server (refreshing an expired access token first, so the server
    /// really ends it) if it can be reached, and forgets it locally whatever happens (seed 002:
    /// local clean-up continues even if the server call fails).
    public func logout() async throws {
        guard try store.rekiCredentials() != nil else { return }
        _ = try? await sendSignedIn(Routes.REKI.logout, EmptyPayload())
        try store.delete(.reki)
    }

    /// Asks for a reset link; the server answers the same for every address.
    @discardableResult
    public func requestPasswordReset(email: String) async throws -> String {
        try await send(Routes.REKI.forgotPassword, ForgotPasswordRequest(email: email)).message
    }

    /// Sets a new password with the token of the emailed link. Every session of the account
    /// ends, this one included: sign in again afterwards.
    public func resetPassword(token: String, newPassword: String) async throws {
        _ = try await send(Routes.REKI.resetPassword, REKIResetPasswordRequest(token: token, newPassword: newPassword))
        try store.delete(.reki)
    }

    // MARK: Session

    private func signedIn(_ response: REKIAuthResponse) throws -> REKIUser {
        try store.saveREKI(credentials(response.tokens, receivedAt: now()))
        return response.user
    }

    /// The stored form of a token pair received at `receivedAt`. REKI's answers carry no
    /// `expiresIn`: the access token's lifetime (its `exp` less its `iat`) is counted on the
    /// local clock, so a device whose clock is off does not refresh on every call.
    private func credentials(_ tokens: REKITokenPair, receivedAt: Date) -> SessionCredentials {
        SessionCredentials(
            accessToken: tokens.accessToken, refreshToken: tokens.refreshToken,
            accessTokenExpiresAt: receivedAt.addingTimeInterval(APIClient.lifetime(of: tokens.accessToken) ?? 15 * 60))
    }

    /// Sends a bearer route with the stored session, refreshing it when needed.
    private func sendSignedIn<Body, Answer>(_ route: Route<Body, Answer>, _ body: Body) async throws -> Answer {
        guard var credentials = try store.rekiCredentials() else { throw APIError.notSignedIn }
        if credentials.accessTokenExpiresAt.timeIntervalSince(now()) < 60 {
            credentials = try await freshCredentials(replacing: credentials)
        }
        do {
            return try await send(route, body, bearer: credentials.accessToken)
        } catch APIError.unauthorized {
            // Another caller may have refreshed while this request was in flight: use its token.
            let retry = try await freshCredentials(replacing: credentials)
            return try await send(route, body, bearer: retry.accessToken)
        }
    }

    private func freshCredentials(replacing stale: SessionCredentials) async throws -> SessionCredentials {
        let store = self.store
        return try await refreshGate.fresh(replacing: stale, stored: { try store.rekiCredentials() }) { stored in
            try await self.refresh(using: stored)
        }
    }

    private func refresh(using credentials: SessionCredentials) async throws -> SessionCredentials {
        do {
            let started = now()
            let pair = try await send(Routes.REKI.refresh, RefreshRequest(refreshToken: credentials.refreshToken))
            let next = self.credentials(pair, receivedAt: started)
            try store.saveREKI(next)
            return next
        } catch APIError.unauthorized {
            // REKI answers every refusal of a refresh token with one 401: the session is over.
            try store.delete(.reki)
            throw APIError.sessionExpired(code: nil)
        }
    }

    // MARK: Transport

    /// Sends `route` and decodes its plain JSON answer, or throws the refusal.
    private func send<Body, Answer>(_ route: Route<Body, Answer>, _ body: Body, bearer: String? = nil) async throws -> Answer {
        let encoded = route.hasBody ? try JSONEncoder().encode(body) : nil
        let request = try OutgoingRequest(route: route, path: [], query: [], body: encoded)
        let (data, response) = try await sender.send(request, bearer: bearer)
        try Self.check(data, response)
        do {
            return try JSONDecoder().decode(Answer.self, from: data)
        } catch {
            throw APIError.decoding(String(describing: error))
        }
    }

    /// Throws the typed error of a REKI failure (`{statusCode, message, timestamp}`).
    static func check(_ data: Data, _ response: HTTPURLResponse) throws {
        guard !(200..<300).contains(response.statusCode) else { return }
        let message = (try? JSONDecoder().decode(REKIErrorBody.self, from: data))?.message
            ?? HTTPURLResponse.localizedString(forStatusCode: response.statusCode)
        switch response.statusCode {
        case 401: throw APIError.unauthorized(message: message, code: nil)
        case 429:
            let retryAfter = response.value(forHTTPHeaderField: "Retry-After").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            throw APIError.rateLimited(retryAfter: retryAfter, message: message)
        default: throw APIError.server(status: response.statusCode, message: message, code: nil)
        }
    }
}
