import Foundation
import RepairMinderModels
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A session whose access token is renewed with a refresh token, kept alive the same way for
/// every kind (`SessionKind`: staff for `APIClient`, REKI for `REKIClient`; docs/API.md §2.7):
///
/// - no stored credentials is `APIError.notSignedIn`;
/// - an access token within 60 s of expiry is refreshed before use;
/// - a request that meets a 401 is replayed once with newer credentials: the stored ones if
///   another caller already refreshed, else one refresh shared by every caller (`RefreshGate`,
///   which also bounds refreshes per minute);
/// - only a refusal (any 401) from the refresh endpoint ends the session: the credentials are
///   deleted, the kind is told, and the caller gets `APIError.sessionExpired`. Network errors,
///   429, 5xx and an unreadable answer keep it;
/// - a full token refused with 403 `FACTOR_ENROLMENT_REQUIRED` (the shop's policy restricts the
///   session, docs/API.md §13.3) is refreshed once: the answer is the restricted token (the
///   caller gets `APIError.enrolmentRequired`), or a full one after an enrolment (replayed);
/// - signing in or out wins over a refresh in flight: its tokens are never written back, and
///   the callers waiting for it carry on with the new session (or fail: signed out).
///
/// The credentials are kept by a `SessionVault`: as they are, or guarded by biometrics with the
/// access token in memory only (`guardedItems`, the staff session).
actor RefreshingSession {
    nonisolated let kind: SessionKind
    nonisolated let store: any CredentialStore
    nonisolated let vault: SessionVault
    private let sender: RequestSender
    private let now: @Sendable () -> Date
    private let gate: RefreshGate<SessionCredentials>
    /// Taken around each refresh when other processes share the store (`RefreshLease`).
    private let lease: RefreshLease?
    /// Moves on at every sign-in and sign-out: a refresh that started in another generation
    /// must not write its tokens back.
    private var generation = 0

    init(
        _ kind: SessionKind, store: any CredentialStore, sender: RequestSender, maxRefreshesPerMinute: Int,
        now: @escaping @Sendable () -> Date, guardedItems: GuardedItems? = nil, lease: RefreshLease? = nil
    ) {
        self.kind = kind
        self.store = store
        vault = SessionVault(store: store, key: kind.key, guardedItems: guardedItems)
        self.sender = sender
        self.now = now
        gate = RefreshGate(maxPerMinute: maxRefreshesPerMinute, now: now)
        self.lease = lease
    }

    /// The stored credentials; nil when signed out (`CredentialAccessError.sessionLocked` while
    /// a guarded session waits for its unlock).
    nonisolated func stored() throws -> SessionCredentials? { try vault.read() }

    /// What `transmit` answers when given the session's access token. `transmit` throws
    /// `APIError.unauthorized` for a 401, and is then called once more with newer credentials.
    func send<Answer: Sendable>(_ transmit: @Sendable (_ accessToken: String) async throws -> Answer) async throws -> Answer {
        guard let credentials = try await current(refreshingWithin: 60) else { throw APIError.notSignedIn }
        do {
            return try await transmit(credentials.accessToken)
        } catch APIError.unauthorized(_, let code) where Self.refreshHelps(code) {
            // Another caller may have refreshed while this request was in flight: use its token.
            let retry = try await fresh(replacing: credentials)
            return try await transmit(retry.accessToken)
        } catch APIError.enrolmentRequired(let message) where !credentials.isEnrolmentOnly {
            // A full token that the shop's policy now restricts (docs/API.md §13.3: a tightening,
            // or the grace period's end): one refresh brings the restricted token, which says what
            // to enrol (and is announced). Had the user enrolled meanwhile, it is a full one: replay.
            // A restricted token's refusal is final as it is: no refresh, so no loop of them.
            let renewed = try await fresh(replacing: credentials)
            guard !renewed.isEnrolmentOnly else { throw APIError.enrolmentRequired(message: message) }
            return try await transmit(renewed.accessToken)
        }
    }

    /// Whether a 401 with `code` is about the access token, so a refresh and one replay may
    /// help: `UNAUTHORIZED` and `TOKEN_EXPIRED` (docs/API.md §1), or an answer without a code.
    /// Any other (a wrong current password, `INVALID_CREDENTIALS`) is the request's own answer:
    /// replaying it would count the same wrong password twice and waste a refresh.
    static func refreshHelps(_ code: ErrorCode?) -> Bool {
        code == nil || code == .unauthorized || code == .tokenExpired
    }

    /// The stored credentials, refreshed first if the access token expires within `margin`
    /// seconds; nil when signed out.
    func current(refreshingWithin margin: TimeInterval) async throws -> SessionCredentials? {
        guard let credentials = try stored() else { return nil }
        guard credentials.accessTokenExpiresAt.timeIntervalSince(now()) < margin else { return credentials }
        return try await fresh(replacing: credentials)
    }

    /// Refreshes now, whatever the access token's expiry: the new credentials, nil when signed out.
    func refreshNow() async throws -> SessionCredentials? {
        guard let credentials = try stored() else { return nil }
        return try await fresh(replacing: credentials)
    }

    /// Records a completed sign-in.
    func begin(_ credentials: SessionCredentials) throws {
        generation += 1
        try vault.save(credentials)
    }

    /// Forgets the session locally (the server call, if any, is the caller's).
    func end() throws {
        generation += 1
        try vault.delete()
    }

    /// Reads a guarded session (the OS asks for biometrics); whether there is a session.
    func unlock() throws -> Bool { try vault.unlock() }

    /// Guards the session from now on, or stops (`SessionVault.setGuarded`).
    func setGuarded(_ on: Bool) throws { try vault.setGuarded(on) }

    /// How many callers wait for the refresh in flight.
    var refreshWaiters: Int { get async { await gate.waiting } }

    /// Credentials newer than `stale` (`RefreshGate`: one refresh at a time, shared).
    private func fresh(replacing stale: SessionCredentials) async throws -> SessionCredentials {
        let vault = self.vault
        return try await gate.fresh(replacing: stale, stored: { try vault.read() }) { stored in
            try await self.refresh(using: stored)
        }
    }

    private func refresh(using credentials: SessionCredentials) async throws -> SessionCredentials {
        guard let lease else { return try await exchange(credentials) }
        return try await lease.holding {
            // Another process may have refreshed while this one waited: its tokens are stored.
            if let stored = try vault.read(), stored.refreshToken != credentials.refreshToken { return stored }
            return try await exchange(credentials)
        }
    }

    /// Spends `credentials`' refresh token for new tokens, and keeps them.
    private func exchange(_ credentials: SessionCredentials) async throws -> SessionCredentials {
        let started = now(), startedIn = generation
        let answer = try await sender.send(try kind.refreshRequest(credentials.refreshToken), bearer: nil)
        // Signed out (or in again) while the refresh was in flight: its tokens are not wanted.
        // Those who waited for it go on with the session signed in meanwhile, if there is one.
        guard generation == startedIn else {
            guard let signedInMeanwhile = try vault.read() else { throw APIError.notSignedIn }
            return signedInMeanwhile
        }
        do {
            let next = try kind.renewed(answer, started)
            try vault.save(next)
            kind.refreshed(next)
            return next
        } catch APIError.unauthorized(_, let code) {
            // Any refusal of the refresh token is final (expired, revoked, reused, user gone).
            try end()
            kind.ended(code)
            throw APIError.sessionExpired(code: code)
        }
    }
}
