import Foundation
import Logging
import SQLKit

/// Refresh with rotation, reuse detection and retry grace (docs/API.md §2.7).
///
/// Each presented token is used up and replaced by its successor, `HMAC(server key, token)`:
/// derivable, so a client retrying after a lost response gets the same successor within the
/// grace window, and 20 concurrent refreshes of one token all get that one successor, never
/// two live siblings. Presenting a rotated token outside that allowance is treated as theft:
/// the whole session is revoked. A successor never outlives the session's absolute end
/// (`--session-max-lifetime-*` from its sign-in); past it, refresh is `REFRESH_TOKEN_EXPIRED`.
///
/// One implementation for every realm (`Account.realm`: staff, REKI): the same statements on
/// that realm's tables.
struct RefreshTokenRotation<Account: SessionAccount>: Sendable {
    let database: Database
    let hashing: SecretHashing
    let settings: ServerSettings
    let metrics: ServerMetrics?
    /// How the sessions a refresh ends (reuse, an inactive user) are ended.
    let revocation: SessionRevocation
    /// The common case, claimed the engine's fastest way (`Database.refreshTokenClaim`).
    private let fastClaim: any RefreshTokenClaiming<Account>

    init(database: Database, hashing: SecretHashing, settings: ServerSettings, metrics: ServerMetrics?, revocation: SessionRevocation) {
        self.database = database
        self.hashing = hashing
        self.settings = settings
        self.metrics = metrics
        self.revocation = revocation
        fastClaim = database.refreshTokenClaim(revocation: revocation, settings: settings)
    }

    /// One presented token's exchange, as its fast paths see it.
    struct Claim: Sendable {
        let presentedHash: String
        let successor: String
        let successorHash: String
        let now: Double
    }

    struct Rotated: Sendable {
        let refreshToken: String
        let sessionId: String
        /// The session's user as the rotation read them, for the new access token.
        let user: Account
        let isMobile: Bool
        /// When the session began (its sign-in).
        let sessionStart: Double
        /// How the session signed in (`AuthenticationMethods.stored`), for its refreshed tokens.
        let amr: String?

        /// `refreshToken`, the successor of a token of `row`'s session.
        init(refreshToken: String, row: TokenRow, user: Account) {
            self.refreshToken = refreshToken
            sessionId = row.sessionId
            self.user = user
            isMobile = row.isMobile != 0
            sessionStart = row.sessionStart
            amr = row.amr
        }
    }

    enum Outcome: Sendable {
        /// `retried`: the grace window's repeat of an exchange already made.
        case rotated(Rotated, retried: Bool)
        /// Refused; a session the refusal ended was ended through `revocation`.
        case rejected(APIError)
    }

    struct TokenRow: Decodable {
        var sessionId: String
        var rotatedAt: Double?
        var isMobile: Int
        var revokedAt: Double?
        /// When the session began (its sign-in).
        var sessionStart: Double
        var amr: String?

        enum CodingKeys: String, CodingKey {
            case sessionId = "session_id", rotatedAt = "rotated_at", isMobile = "is_mobile", revokedAt = "revoked_at"
            case sessionStart = "session_start", amr = "session_amr"
        }

        /// When this token's successor, issued `now`, expires.
        func successorExpiry(now: Double, settings: ServerSettings) -> Double {
            Account.refreshExpiry(now: now, sessionStart: sessionStart, isMobile: isMobile != 0, settings: settings)
        }
    }

    /// The token's session and its user, from one row of either path's query.
    static func decode(_ row: any SQLRow) throws -> (TokenRow, Account) {
        // Both row types spell out their column names.
        let columns = AccountStore.spelledOutColumns
        return (try row.decode(model: TokenRow.self, with: columns), try row.decode(model: Account.self, with: columns))
    }

    /// Why a token of this session may not be exchanged at `now`, claimed or not: an inactive
    /// user's session is ended (`USER_INACTIVE`, first: deactivating a member revokes their
    /// sessions, and the app tells the person why only on this code); a dead session stays dead
    /// (`INVALID_REFRESH_TOKEN`); a session past its absolute end (one whose token was issued
    /// before that end was enforced) is over (`REFRESH_TOKEN_EXPIRED`).
    static func refusal(_ row: TokenRow, _ user: Account, now: Double, settings: ServerSettings) -> APIError? {
        if !user.canSignIn { return .userInactive }
        if row.revokedAt != nil { return .invalidRefreshToken }
        if now >= row.sessionStart + settings.sessionMaxLifetime(isMobile: row.isMobile != 0) { return .refreshTokenExpired }
        return nil
    }

    /// `device` is the caller's, for the activity log of a detected reuse; `logger` the
    /// request's, which warns of one (a stolen token, most likely: an operator's alert).
    func rotate(_ presented: String, device: ClientDevice? = nil, logger: Logger? = nil, now: Double) async throws -> Rotated {
        let presentedHash = SecretHashing.tokenHash(presented)
        let successor = hashing.successor(of: presented)
        let successorHash = SecretHashing.tokenHash(successor)
        let grace = Double(settings.refreshReuseGrace)
        let settings = self.settings, realm = Account.realm
        // The common case first, the engine's fastest way; nil when the token was not claimable
        // (unknown, expired, rotated before): the transaction below works out which, with the
        // same claim failing again.
        let claim = Claim(presentedHash: presentedHash, successor: successor, successorHash: successorHash, now: now)
        if let outcome = try await fastClaim.claim(claim) { return try finish(outcome) }
        // One transaction that starts by claiming the token: a conditional UPDATE, which of
        // concurrent refreshes (on any instance) exactly one wins; the others wait for its row
        // lock, find the token rotated, and take the retry path below.
        let outcome: Outcome = try await revocation.transaction { ending in
            let db = ending.db
            let claimed = try await db.raw(
                """
                UPDATE \(ident: realm.refreshTokens) SET rotated_at = \(bind: now), successor_hash = \(bind: successorHash)
                WHERE token_hash = \(bind: presentedHash) AND rotated_at IS NULL AND expires_at > \(bind: now)
                RETURNING token_hash
                """
            ).first() != nil
            guard
                let found = try await db.raw(
                    """
                    SELECT u.*, rt.session_id, rt.rotated_at, s.is_mobile, s.revoked_at, s.created_at AS session_start, s.amr AS session_amr
                    FROM \(ident: realm.refreshTokens) rt
                    JOIN \(ident: realm.sessions) s ON s.id = rt.session_id
                    JOIN \(ident: realm.accounts) u ON u.id = s.user_id
                    WHERE rt.token_hash = \(bind: presentedHash)
                    """
                ).first()
            else { return .rejected(.invalidRefreshToken) }
            let (row, user) = try Self.decode(found)
            if let refusal = Self.refusal(row, user, now: now, settings: settings) {
                guard refusal.code == .userInactive else { return .rejected(refusal) }
                try await ending.revoke(session: row.sessionId, realm: realm, reason: "user_inactive", now: now)
                return .rejected(refusal)
            }
            let rotated = Rotated(refreshToken: successor, row: row, user: user)
            if claimed {
                try await db.raw(
                    """
                    INSERT INTO \(ident: realm.refreshTokens) (token_hash, session_id, issued_at, expires_at)
                    VALUES (\(bind: successorHash), \(bind: row.sessionId), \(bind: now), \(bind: row.successorExpiry(now: now, settings: settings)))
                    """
                ).run()
                return .rotated(rotated, retried: false)
            }
            guard let rotatedAt = row.rotatedAt else { return .rejected(.refreshTokenExpired) }
            // Rotated before: a retry within the grace window gets the same successor, as long
            // as that successor was not used yet; anything else is a stolen token being replayed.
            // (Made under the previous encryption key when the rotation straddled a switch.)
            if now - rotatedAt <= grace {
                for candidate in hashing.successors(of: presented) {
                    let unused = try await db.raw(
                        """
                        SELECT token_hash FROM \(ident: realm.refreshTokens)
                        WHERE token_hash = \(bind: SecretHashing.tokenHash(candidate)) AND rotated_at IS NULL
                        """
                    ).first() != nil
                    if unused {
                        return .rotated(
                            Rotated(refreshToken: candidate, row: row, user: user), retried: true)
                    }
                }
            }
            if realm.auditsStaffUsers {
                try await ActivityLog.record(
                    .tokenReuseDetected, userId: user.id, sessionId: row.sessionId, device: device, at: now, on: db)
            }
            logger?.warning(
                "Refresh token reuse: a spent refresh token was presented again after the grace window; the session is revoked",
                metadata: [
                    "user_id": .string(user.id), "session_id": .string(row.sessionId), "realm": .string(realm.sessions),
                    "ip": .string(device?.ipAddress ?? "unknown"),
                ])
            try await ending.revoke(session: row.sessionId, realm: realm, reason: "refresh_token_reuse", device: device, now: now)
            return .rejected(.tokenReuseDetected)
        }
        return try finish(outcome)
    }

    private func finish(_ outcome: Outcome) throws -> Rotated {
        switch outcome {
        case .rotated(let rotated, let retried):
            metrics?.refreshRotated(retried: retried)
            return rotated
        case .rejected(let error):
            if error.code == .tokenReuseDetected { metrics?.refreshReuseDetected() }
            throw error
        }
    }
}
