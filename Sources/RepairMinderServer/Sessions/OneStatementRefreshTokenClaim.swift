import SQLKit

/// PostgreSQL's common case of a refresh (`RefreshTokenRotation`) in one statement (one round
/// trip, one commit): claim the token, insert its successor and read the session's user, with
/// data-modifying CTEs (which SQLite lacks).
struct OneStatementRefreshTokenClaim<Account: SessionAccount>: RefreshTokenClaiming {
    let database: Database
    let revocation: SessionRevocation
    let settings: ServerSettings

    /// nil when the token was not claimable.
    func claim(_ claim: RefreshTokenRotation<Account>.Claim) async throws -> RefreshTokenRotation<Account>.Outcome? {
        let (presentedHash, successorHash, successor, now) = (claim.presentedHash, claim.successorHash, claim.successor, claim.now)
        let web = Account.refreshLifetime(isMobile: false, settings: settings)
        let mobile = Account.refreshLifetime(isMobile: true, settings: settings)
        let (webEnd, mobileEnd) = (settings.sessionMaxLifetime(isMobile: false), settings.sessionMaxLifetime(isMobile: true))
        let realm = Account.realm
        guard
            let found = try await database.withConnection({ db in
                try await db.raw(
                    """
                    WITH claimed AS (
                        UPDATE \(ident: realm.refreshTokens) SET rotated_at = \(bind: now), successor_hash = \(bind: successorHash)
                        WHERE token_hash = \(bind: presentedHash) AND rotated_at IS NULL AND expires_at > \(bind: now)
                        RETURNING session_id
                    ), successor AS (
                        INSERT INTO \(ident: realm.refreshTokens) (token_hash, session_id, issued_at, expires_at)
                        SELECT \(bind: successorHash), s.id, \(bind: now), LEAST(
                            \(bind: now) + CASE WHEN s.is_mobile <> 0 THEN \(bind: mobile) ELSE \(bind: web) END,
                            s.created_at + CASE WHEN s.is_mobile <> 0 THEN \(bind: mobileEnd) ELSE \(bind: webEnd) END)
                        FROM claimed c JOIN \(ident: realm.sessions) s ON s.id = c.session_id
                        RETURNING session_id
                    )
                    SELECT u.*, s.id AS session_id, s.is_mobile, s.revoked_at, s.created_at AS session_start, s.amr AS session_amr
                    FROM successor n JOIN \(ident: realm.sessions) s ON s.id = n.session_id
                    JOIN \(ident: realm.accounts) u ON u.id = s.user_id
                    """
                ).first()
            })
        else { return nil }
        let (row, user) = try RefreshTokenRotation<Account>.decode(found)
        if let refusal = RefreshTokenRotation<Account>.refusal(row, user, now: now, settings: settings) {
            guard refusal.code == .userInactive else { return .rejected(refusal) }
            _ = try await revocation.transaction {
                try await $0.revoke(session: row.sessionId, realm: realm, reason: "user_inactive", now: now)
            }
            return .rejected(refusal)
        }
        return .rotated(
            RefreshTokenRotation<Account>.Rotated(refreshToken: successor, row: row, user: user), retried: false)
    }
}
