import Foundation
import RepairMinderModels
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends the routes of the table (`Routes`), unwraps the envelope into each route's typed
/// answer, keeps the staff session alive, and says where the session stands (`authStates()`).
///
/// The staff session is a `RefreshingSession` (docs/API.md §2.7): one refresh at a time, shared
/// by every caller that needs it; an access token within 60 s of expiry is refreshed before
/// use; a request that meets a 401 retries once, without a second refresh if another caller
/// already got a new token. Only a refusal (any 401) from `/api/auth/refresh` ends the
/// session; network errors, 429 and 5xx keep it, and do not count towards the
/// `maxRefreshesPerMinute` that stop a server bug from making the client loop. Expiry is
/// planned from `expiresIn` on the local clock, so a device whose clock is off does not
/// refresh on every call. Signing out wins over a refresh in flight: its tokens are never
/// written back.
///
/// A customer's 401, or a customer token past its lifetime, ends the customer session the same
/// way: the state moves to `.signedOut` with the reason, and every listener hears it.
///
/// Idempotent requests (GET, PUT, DELETE) that fail for the network or meet a 503 are retried
/// (`retry`, exponential backoff with jitter, the waits slept with `sleep`: `Task.sleep` unless
/// a test gives its own); `log` hears every try, without headers, bodies, tokens or query
/// values. Every request carries the User-Agent of docs/API.md §1.
///
/// An app whose extensions share its session (a Keychain access group) gives every process the
/// same `refreshLease`, a file in the app group's container: one refresh at a time across them.
public actor APIClient {
    public nonisolated let baseURL: URL
    public nonisolated let store: any CredentialStore
    private let sender: RequestSender
    private let now: @Sendable () -> Date
    private let staffSession: RefreshingSession
    private let announcer: SessionAnnouncer

    public init(
        baseURL: URL, store: any CredentialStore, transport: any HTTPTransport = URLSessionTransport(),
        userAgent: String = RepairMinderUserAgent.value(), maxRefreshesPerMinute: Int = 10,
        retry: RetryPolicy = .standard, log: (@Sendable (RequestRecord) -> Void)? = nil,
        now: @escaping @Sendable () -> Date = { Date() }, sleep: @escaping @Sendable (Duration) async throws -> Void = SDKClock.system.sleep,
        refreshLease: RefreshLease? = nil
    ) {
        self.baseURL = baseURL
        self.store = store
        sender = RequestSender(baseURL: baseURL, transport: transport, userAgent: userAgent, retry: retry, log: log, sleep: sleep)
        self.now = now
        // Replaying from the start; the stored values replace these before anyone listens.
        let announcer = SessionAnnouncer(
            states: Broadcast(replaying: .signedOut(reason: nil)), enrolment: Broadcast(replaying: .fullAccess))
        self.announcer = announcer
        staffSession = RefreshingSession(
            .staff(announcing: announcer), store: store, sender: sender, maxRefreshesPerMinute: maxRefreshesPerMinute, now: now,
            guardedItems: .staff, lease: refreshLease)
        // What is stored, read without a prompt: a guarded session says what its enrolment is
        // once unlocked and refreshed.
        announcer.enrolment.send(EnrolmentStatus(staffSession.vault.peek()))
        announcer.states.send(Self.storedState(store: store, staff: staffSession.vault))
    }

    /// The state the stored credentials describe, before any request confirms them; a store
    /// that cannot be read is `.credentialsUnreadable`, never "signed out".
    private static func storedState(store: any CredentialStore, staff: SessionVault) -> AuthState {
        do {
            return try storedRole(store: store, staff: staff).map(AuthState.signedIn) ?? .signedOut(reason: nil)
        } catch {
            return .credentialsUnreadable
        }
    }

    private static func storedRole(store: any CredentialStore, staff: SessionVault) throws -> AppRole? {
        guard let role = try store.role() else { return nil }
        return try hasSession(role, store: store, staff: staff) ? role : nil
    }

    private static func hasSession(_ role: AppRole, store: any CredentialStore, staff: SessionVault) throws -> Bool {
        switch role {
        case .staff: try staff.exists()
        case .customer: try store.contains(.customer)
        }
    }

    /// Whether `role`'s session is stored (a guarded one too, locked or not), without a prompt;
    /// throws when the store cannot be read.
    public nonisolated func hasStoredSession(_ role: AppRole) throws -> Bool {
        try Self.hasSession(role, store: store, staff: staffSession.vault)
    }

    /// The role whose session is stored (the role chosen at launch, with its credentials); nil
    /// when there is none. Never shows a prompt; throws when the store cannot be read (a
    /// Keychain locked before the device's first unlock): that is not "signed out".
    public nonisolated func storedSessionRole() throws -> AppRole? {
        try Self.storedRole(store: store, staff: staffSession.vault)
    }

    /// Reads the store again after `.credentialsUnreadable` (the device was unlocked since) and
    /// announces what it holds; throws, and stays as it is, while it still cannot be read.
    public func reloadStoredState() throws {
        let role = try storedSessionRole()
        guard authState == .credentialsUnreadable else { return }
        announcer.enrolment.send(EnrolmentStatus(staffSession.vault.peek()))
        announcer.states.send(role.map(AuthState.signedIn) ?? .signedOut(reason: nil))
    }

    /// How many callers wait for the staff refresh in flight (for tests that act once one
    /// joined it).
    var staffRefreshWaiters: Int { get async { await staffSession.refreshWaiters } }

    /// Where the session stands now.
    public nonisolated var authState: AuthState { announcer.states.value ?? .signedOut(reason: nil) }

    /// A new listener to the session state: the current state first, then every change. Any
    /// number of listeners may follow it at once (the app's navigation, the auth machines).
    public nonisolated func authStates() -> AsyncStream<AuthState> { announcer.states.stream() }

    /// Who is signed in, as last read from the server; nil when signed out (or not read yet
    /// after a launch: `restoreSession()` reads it).
    public nonisolated var signedInUser: SignedInUser? { announcer.users.value ?? nil }

    /// A new listener to who is signed in: the current user first (nil when nobody), then every
    /// change (a sign-in, a sign-out, the user or their shop read again and different). The
    /// session's state (`authStates()`) says whether there is a session; this says who it is.
    public nonisolated func signedInUsers() -> AsyncStream<SignedInUser?> { announcer.users.stream() }

    /// The sign-in machines report who they read as signed in (`SignedInUser`).
    nonisolated func userRead(_ user: SignedInUser) { announcer.userRead(user) }

    /// A new listener to session events (`signedIn`, `tokenRefreshed`, `signedOut`) from now on;
    /// each use of this property is a listener of its own.
    public nonisolated var events: AsyncStream<AuthEvent> { announcer.events.stream() }

    /// What the shop's security policy asks of the staff session now (docs/API.md §13.3), as its
    /// sign-in or latest refresh said: full access, a factor to enrol by a deadline, or a session
    /// restricted to enrolment. Full access when signed out.
    public nonisolated var enrolmentStatus: EnrolmentStatus { announcer.enrolment.value ?? .fullAccess }

    /// A new listener to `enrolmentStatus`: the current one first, then each one a sign-in,
    /// refresh or sign-out brings (a refresh after a 403 `FACTOR_ENROLMENT_REQUIRED` included).
    public nonisolated func enrolmentStatuses() -> AsyncStream<EnrolmentStatus> { announcer.enrolment.stream() }

    /// Sends `route` with `body` and returns its typed answer: the envelope's `data`, or the
    /// file of a binary route. `path` fills the template's parameters in order (escaped);
    /// `query` adds query items. The body is JSON, except a `RawRequestBody` (a CSV file), which
    /// is sent as its bytes with its own `Content-Type`.
    public func send<Body, Answer>(
        _ route: Route<Body, Answer>, _ body: Body, path: [String] = [], query: [URLQueryItem] = []
    ) async throws -> Answer {
        let request = try OutgoingRequest(route: route, path: path, query: query, sending: body)
        let (data, response) = try await perform(request)
        return try Self.decode(Answer.self, of: route, from: data, response: response)
    }

    /// Page `page` of a paginated list route, `limit` items long (the server's default when
    /// nil), filtered by the route's query parameters (`["status": "ready"]`); an unknown filter
    /// is refused before anything is sent.
    public func page<Item>(
        _ route: Route<EmptyPayload, [Item]>, path: [String] = [], page: Int = 1, limit: Int? = nil,
        filters: [String: String] = [:]
    ) async throws -> Page<Item> {
        guard route.format == .paginatedEnvelope else { throw APIError.invalidRequest("\(route.erased) is not a paginated list") }
        let pageRequest = PageRequest(path: path, limit: limit, filters: filters)
        let request = try OutgoingRequest(
            route: route, path: path, query: try pageRequest.query(page: page, allowed: route.query), body: nil)
        let (data, _) = try await perform(request)
        do {
            let envelope = try ResponseDecoder.decode(PageEnvelope<Item>.self, from: data)
            return Page(items: envelope.data, pagination: envelope.pagination, request: pageRequest)
        } catch {
            throw APIError.decoding(String(describing: error))
        }
    }

    /// The page after `previous`, with the same size and filters; nil after the last one.
    public func nextPage<Item>(after previous: Page<Item>, of route: Route<EmptyPayload, [Item]>) async throws -> Page<Item>? {
        guard let next = previous.nextPageNumber else { return nil }
        let request = previous.request
        return try await page(route, path: request.path, page: next, limit: request.limit, filters: request.filters)
    }

    /// Sends a route that takes no body.
    public func send<Answer>(
        _ route: Route<EmptyPayload, Answer>, path: [String] = [], query: [URLQueryItem] = []
    ) async throws -> Answer {
        try await send(route, EmptyPayload(), path: path, query: query)
    }

    /// Sends `request` with the credential it needs; the answer of a success.
    private func perform(_ request: OutgoingRequest) async throws -> (Data, HTTPURLResponse) {
        switch request.credential {
        case .none:
            return try Self.checked(try await transmit(request, bearer: nil))
        case .customer:
            return try await performAsCustomer(request)
        case .staff:
            let sender = self.sender
            do {
                return try await staffSession.send { token in try Self.checked(try await sender.send(request, bearer: token)) }
            } catch APIError.quarantined(let status, let message) {
                announcer.quarantined(status)
                throw APIError.quarantined(status: status, message: message)
            }
        case .reki:
            // REKI has its own client; a REKI route is never sent with Repair Minder credentials.
            throw APIError.notSignedIn
        }
    }

    private func performAsCustomer(_ request: OutgoingRequest) async throws -> (Data, HTTPURLResponse) {
        guard let credentials = try store.customerCredentials() else { throw APIError.notSignedIn }
        if let expiry = credentials.expiresAt, expiry <= now() {
            try await endSession(.customer, reason: .tokenRejected)
            throw APIError.sessionExpired(code: .tokenExpired)
        }
        do {
            return try Self.checked(try await transmit(request, bearer: credentials.token))
        } catch APIError.unauthorized(_, let code) {
            // A customer has no refresh token: a refused one is the end of the session (unless
            // another sign-in replaced it meanwhile).
            if try store.customerCredentials()?.token == credentials.token { try await endSession(.customer, reason: .tokenRejected) }
            throw APIError.sessionExpired(code: code)
        }
    }

    /// Refreshes the staff session now if its access token expires within `margin` seconds;
    /// the next expiry (nil when signed out). For a proactive refresh while the app is in the
    /// foreground (`AppModel.appBecameActive()`), so a request after a pause does not wait.
    @discardableResult
    public func refreshIfNeeded(margin: TimeInterval = 60) async throws -> Date? {
        try await staffSession.current(refreshingWithin: margin)?.accessTokenExpiresAt
    }

    /// An access token of the staff session valid for at least `minTTL` more seconds, for the
    /// app's own requests to other Repair Minder services: the stored one, or a new one from a
    /// refresh shared with every other caller that needs one (one refresh at a time). When the
    /// server's tokens live less than `minTTL`, a just-refreshed token is returned as it is.
    /// Signed out: `APIError.notSignedIn`; a refused refresh: `APIError.sessionExpired`.
    public func validAccessToken(minTTL: TimeInterval = 60) async throws -> String {
        guard let credentials = try await staffSession.current(refreshingWithin: minTTL) else { throw APIError.notSignedIn }
        return credentials.accessToken
    }

    /// Whether the staff session is guarded by biometrics (`BiometricLockSetting.guardsCredentials`):
    /// its refresh token under `.biometryCurrentSet`, its access token in memory only.
    public nonisolated var staffCredentialsAreGuarded: Bool { staffSession.vault.isGuarded }

    /// Whether the guarded staff session in memory is newer than the stored one: its refresh came
    /// while the device refused to write guarded items (locked). `saveUnsavedStaffSession()`
    /// writes it; `AppModel` does at each return to the foreground.
    public nonisolated var staffSessionIsUnsaved: Bool { staffSession.vault.hasUnsavedSession }

    /// Writes a guarded staff session that a locked device refused (`staffSessionIsUnsaved`).
    public nonisolated func saveUnsavedStaffSession() throws { try staffSession.vault.saveUnsaved() }

    /// Whether a guarded staff session is stored and not yet read in this launch: nothing can
    /// use it before `unlockStaffSession()`.
    public nonisolated var staffSessionIsLocked: Bool {
        guard staffSession.vault.isGuarded, (try? staffSession.vault.exists()) == true else { return false }
        return (try? staffSession.vault.read()) == nil
    }

    /// Reads a guarded staff session: on a phone the Keychain shows the Face ID or Touch ID
    /// prompt. True when there is a session (it needs no prompt when it is not guarded or was
    /// read before). A cancelled or failed prompt throws `CredentialAccessError`. The Keychain
    /// call blocks until the person answers; it runs on this actor, never on the main thread.
    @discardableResult
    public func unlockStaffSession() async throws -> Bool {
        try await staffSession.unlock()
    }

    /// Guards the staff session with biometrics from now on, or stops: a stored session moves
    /// between the ordinary item and the guarded one. `BiometricLock` calls it when the lock
    /// is turned on or off. Throws `CredentialAccessError.protectionUnavailable` where the
    /// store cannot guard items (a file, memory), and `.sessionLocked` to stop while locked.
    public func guardStaffCredentials(_ on: Bool) async throws {
        try await staffSession.setGuarded(on)
    }

    /// Refreshes the staff session now, whatever its access token's expiry, and returns what
    /// the shop's policy asks of it then. After the user enrolled the factor their shop requires
    /// (docs/API.md §13.3), this lifts a restriction without signing in again.
    @discardableResult
    public func refreshSession() async throws -> EnrolmentStatus {
        guard let credentials = try await staffSession.refreshNow() else { throw APIError.notSignedIn }
        return EnrolmentStatus(credentials)
    }

    /// Records a completed staff sign-in, with what its answer said of the shop's policy
    /// (`enrolmentStatus`).
    public func signedIn(staff response: StaffTokenResponse) async throws {
        let credentials = StaffCredentials(
            accessToken: response.token, refreshToken: response.refreshToken,
            accessTokenExpiresAt: now().addingTimeInterval(Double(response.expiresIn)), enrolmentRequired: response.enrolmentRequired,
            scope: response.scope)
        try await staffSession.begin(credentials)
        try store.saveRole(.staff)
        announcer.signedIn(.staff, enrolment: EnrolmentStatus(credentials))
    }

    /// Records a completed customer sign-in. The token's lifetime (its `exp` less its `iat`)
    /// is counted on the local clock.
    public func signedIn(customer response: CustomerTokenResponse) throws {
        let lifetime = Self.lifetime(of: response.token)
        try store.saveCustomer(
            CustomerCredentials(
                token: response.token, expiresAt: lifetime.map { now().addingTimeInterval($0) }, companyId: response.company.id))
        try store.saveRole(.customer)
        announcer.signedIn(.customer)
    }

    /// Forgets `role`'s credentials locally and announces it (the server call is the caller's).
    public func signedOut(_ role: AppRole, reason: SignOutReason) async throws {
        try await endSession(role, reason: reason)
    }

    private func endSession(_ role: AppRole, reason: SignOutReason) async throws {
        switch role {
        case .staff:
            try await staffSession.end()
            try store.delete(.staffProfile)
        case .customer:
            try store.delete(.customer)
            try store.delete(.customerProfile)
        }
        announcer.signedOut(role, reason: reason)
    }

    // MARK: Transport and decoding

    private func transmit(_ outgoing: OutgoingRequest, bearer: String?) async throws -> (Data, HTTPURLResponse) {
        try await sender.send(outgoing, bearer: bearer)
    }

    /// `response` if it is a success, or the typed error of a refusal.
    static func checked(_ response: (Data, HTTPURLResponse)) throws -> (Data, HTTPURLResponse) {
        _ = try check(response)
        return response
    }

    /// The answer of `route` as its type: nothing for `EmptyPayload`, the bytes of a file, the
    /// envelope's `data` otherwise.
    static func decode<Body, Answer>(
        _ type: Answer.Type, of route: Route<Body, Answer>, from data: Data, response: HTTPURLResponse
    ) throws -> Answer {
        if let none = EmptyPayload() as? Answer { return none }
        switch route.format {
        case .binary:
            guard let file = BinaryFile(data: data, contentType: response.value(forHTTPHeaderField: "Content-Type")) as? Answer
            else { throw APIError.decoding("\(route.erased) answers a file") }
            return file
        case .plain:
            do { return try ResponseDecoder.decode(Answer.self, from: data) } catch { throw APIError.decoding(String(describing: error)) }
        case .envelope, .paginatedEnvelope:
            return try decodeData(Answer.self, from: data)
        }
    }

    /// The body of a successful answer, or the typed error of a refusal.
    public static func check(_ response: (Data, HTTPURLResponse)) throws -> Data {
        let (data, http) = response
        let failure = try? ResponseDecoder.decode(ErrorEnvelope.self, from: data)
        if (200..<300).contains(http.statusCode), failure?.success != false { return data }
        let message = failure?.error ?? HTTPURLResponse.localizedString(forStatusCode: http.statusCode)
        let code = failure?.code
        switch http.statusCode {
        case 401: throw APIError.unauthorized(message: message, code: code)
        case 403:
            if let status = code.flatMap(APIError.QuarantineStatus.init(code:)) {
                throw APIError.quarantined(status: status, message: message)
            }
            if code == .factorEnrolmentRequired { throw APIError.enrolmentRequired(message: message) }
            throw APIError.server(status: 403, message: message, code: code)
        case 409 where code == .clientExists:
            throw APIError.clientExists(clientId: failure?.clientId, message: message)
        case 429:
            throw APIError.rateLimited(retryAfter: RetryAfter.seconds(in: http), message: message)
        default: throw APIError.server(status: http.statusCode, message: message, code: code)
        }
    }

    /// The `data` of a success envelope, decoded as `T`.
    public static func decodeData<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        do {
            let envelope = try ResponseDecoder.decode(DataEnvelope<T>.self, from: data)
            return envelope.data
        } catch {
            throw APIError.decoding(String(describing: error))
        }
    }

    /// How long a JWT lives (its `exp` less its `iat`), read without verifying: the server
    /// verifies; the client only plans, on its own clock, which may differ from the server's.
    static func lifetime(of token: String) -> TimeInterval? {
        let parts = token.split(separator: ".")
        guard parts.count == 3 else { return nil }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let payload = Data(base64Encoded: base64),
            let object = try? JSONSerialization.jsonObject(with: payload) as? [String: Any],
            let exp = (object["exp"] as? NSNumber)?.doubleValue, let iat = (object["iat"] as? NSNumber)?.doubleValue
        else { return nil }
        return exp - iat
    }
}

/// `{"success": true, "data": T}` for decoding.
struct DataEnvelope<T: Decodable>: Decodable {
    let data: T
}

extension SessionKind {
    /// A staff session (docs/API.md §2): renewed at `/api/auth/refresh`, whose answer says how
    /// long the new access token lives and what the shop's policy asks (§13.3); its renewal
    /// and its end are announced to the app.
    static func staff(announcing announcer: SessionAnnouncer) -> SessionKind {
        SessionKind(key: .staff, refresh: Routes.staffAuth.refresh) { answer, receivedAt in
            let refreshed = try APIClient.decodeData(RefreshResponse.self, from: try APIClient.check(answer))
            return SessionCredentials(
                accessToken: refreshed.token, refreshToken: refreshed.refreshToken,
                accessTokenExpiresAt: receivedAt.addingTimeInterval(Double(refreshed.expiresIn)),
                enrolmentRequired: refreshed.enrolmentRequired, scope: refreshed.scope)
        } refreshed: { credentials in
            announcer.refreshed(EnrolmentStatus(credentials))
        } ended: { code in
            announcer.signedOut(.staff, reason: .sessionRejected(code: code))
        }
    }
}
