import Foundation
import RepairMinderModels
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A client of REKI's contract (docs/API.md §10, seed 002) for a REKI app: register, sign in,
/// who am I, sign out, and password reset, with the session kept alive as `APIClient` keeps a
/// staff one (the same `RefreshingSession`): one refresh at a time shared by every caller, an
/// access token within 60 s of expiry refreshed before use, a 401 retried once with fresh
/// tokens. Only a 401 from `/auth/refresh` ends the session; network errors, 429 and 5xx keep it.
///
/// It shares the transport and the credential store with `APIClient` (its tokens are kept
/// under their own key, `.reki`), so one app can hold both kinds of session.
public actor REKIClient {
    private let sender: RequestSender
    private let session: RefreshingSession
    private let now: @Sendable () -> Date

    /// The server this client talks to.
    public nonisolated var baseURL: URL { sender.baseURL }
    /// Where the REKI session is kept (under `.reki`).
    public nonisolated var store: any CredentialStore { session.store }

    /// The parameters are `APIClient`'s: `now` the time tokens expire against, `sleep` how the
    /// waits between retries are slept.
    public init(
        baseURL: URL, store: any CredentialStore, transport: any HTTPTransport = URLSessionTransport(),
        userAgent: String = RepairMinderUserAgent.value(), maxRefreshesPerMinute: Int = 10,
        retry: RetryPolicy = .standard, log: (@Sendable (RequestRecord) -> Void)? = nil,
        now: @escaping @Sendable () -> Date = { Date() }, sleep: @escaping @Sendable (Duration) async throws -> Void = SDKClock.system.sleep
    ) {
        let sender = RequestSender(baseURL: baseURL, transport: transport, userAgent: userAgent, retry: retry, log: log, sleep: sleep)
        session = RefreshingSession(.reki, store: store, sender: sender, maxRefreshesPerMinute: maxRefreshesPerMinute, now: now)
        self.sender = sender
        self.now = now
    }

    /// Whether a REKI session is stored.
    public var isSignedIn: Bool {
        get throws { try session.stored() != nil }
    }

    /// Creates the account and signs in. A taken email is `.server(status: 409, ...)`; a weak
    /// password or a bad email `.server(status: 400, ...)` with the rule as message.
    @discardableResult
    public func register(email: String, password: String) async throws -> REKIUser {
        try await signedIn(try await send(Routes.reki.register, LoginRequest(email: email, password: password)))
    }

    /// Signs in. Wrong email or password is `.unauthorized(message: "Invalid credentials", ...)`.
    @discardableResult
    public func login(email: String, password: String) async throws -> REKIUser {
        try await signedIn(try await send(Routes.reki.login, LoginRequest(email: email, password: password)))
    }

    /// The signed-in user.
    public func me() async throws -> REKIUser {
        try await sendSignedIn(Routes.reki.me, EmptyPayload())
    }

    /// Ends the session on the server (refreshing an expired access token first, so the server
    /// really ends it) if it can be reached, and forgets it locally whatever happens (seed 002:
    /// local clean-up continues even if the server call fails).
    public func logout() async throws {
        guard try session.stored() != nil else { return }
        _ = try? await sendSignedIn(Routes.reki.logout, EmptyPayload())
        try await session.end()
    }

    /// Deletes the account for good with its password (seed 002: "clear tokens on account
    /// deletion"): every session ends on the server, and this one is forgotten here.
    public func deleteAccount(password: String) async throws {
        _ = try await sendSignedIn(Routes.reki.deleteAccount, REKIDeleteAccountRequest(password: password))
        try await session.end()
    }

    /// Asks for a reset link; the server answers the same for every address.
    @discardableResult
    public func requestPasswordReset(email: String) async throws -> String {
        try await send(Routes.reki.forgotPassword, ForgotPasswordRequest(email: email)).message
    }

    /// Sets a new password with the token of the emailed link. Every session of the account
    /// ends, this one included: sign in again afterwards.
    public func resetPassword(token: String, newPassword: String) async throws {
        _ = try await send(Routes.reki.resetPassword, REKIResetPasswordRequest(token: token, newPassword: newPassword))
        try await session.end()
    }

    // MARK: Session

    private func signedIn(_ response: REKIAuthResponse) async throws -> REKIUser {
        try await session.begin(Self.credentials(response.tokens, receivedAt: now()))
        return response.user
    }

    /// The stored form of a token pair received at `receivedAt`. REKI's answers carry no
    /// `expiresIn`: the access token's lifetime (its `exp` less its `iat`) is counted on the
    /// local clock, so a device whose clock is off does not refresh on every call.
    static func credentials(_ tokens: REKITokenPair, receivedAt: Date) -> SessionCredentials {
        SessionCredentials(
            accessToken: tokens.accessToken, refreshToken: tokens.refreshToken,
            accessTokenExpiresAt: receivedAt.addingTimeInterval(APIClient.lifetime(of: tokens.accessToken) ?? 15 * 60))
    }

    /// Sends a bearer route with the stored session, refreshing it when needed.
    private func sendSignedIn<Body, Answer>(_ route: Route<Body, Answer>, _ body: Body) async throws -> Answer {
        let request = try Self.request(route, body), sender = self.sender
        return try await session.send { token in try Self.answer(Answer.self, to: try await sender.send(request, bearer: token)) }
    }

    // MARK: Transport

    /// Sends `route` without credentials and decodes its plain JSON answer, or throws the refusal.
    private func send<Body, Answer>(_ route: Route<Body, Answer>, _ body: Body) async throws -> Answer {
        try Self.answer(Answer.self, to: try await sender.send(try Self.request(route, body), bearer: nil))
    }

    private static func request<Body, Answer>(_ route: Route<Body, Answer>, _ body: Body) throws -> OutgoingRequest {
        try OutgoingRequest(route: route, path: [], query: [], sending: body)
    }

    /// The plain JSON answer of a success as `Answer`, or the typed refusal.
    static func answer<Answer: Decodable>(_ type: Answer.Type, to response: (Data, HTTPURLResponse)) throws -> Answer {
        try check(response.0, response.1)
        do {
            return try ResponseDecoder.decode(Answer.self, from: response.0)
        } catch {
            throw APIError.decoding(String(describing: error))
        }
    }

    /// Throws the typed error of a REKI failure (`{statusCode, message, timestamp}`).
    static func check(_ data: Data, _ response: HTTPURLResponse) throws {
        guard !(200..<300).contains(response.statusCode) else { return }
        let message = (try? ResponseDecoder.decode(REKIErrorBody.self, from: data))?.message
            ?? HTTPURLResponse.localizedString(forStatusCode: response.statusCode)
        switch response.statusCode {
        case 401: throw APIError.unauthorized(message: message, code: nil)
        case 429: throw APIError.rateLimited(retryAfter: RetryAfter.seconds(in: response), message: message)
        default: throw APIError.server(status: response.statusCode, message: message, code: nil)
        }
    }
}

extension SessionKind {
    /// A REKI session: renewed at `/auth/refresh`, whose token pair carries no lifetime (it is
    /// read from the access token). REKI answers every refusal of a refresh token with one 401.
    static let reki = SessionKind(key: .reki, refresh: Routes.reki.refresh) { answer, receivedAt in
        REKIClient.credentials(try REKIClient.answer(REKITokenPair.self, to: answer), receivedAt: receivedAt)
    }
}
