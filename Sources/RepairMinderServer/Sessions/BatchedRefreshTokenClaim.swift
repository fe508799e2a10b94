import SQLKit

/// SQLite's common case of a refresh (`RefreshTokenRotation`): the exchanges that arrived
/// together (`GroupCommit`), claimed in one transaction of three statements whatever their
/// number: claim every presented token, read their sessions and users, insert the successors.
/// SQLite writes one transaction at a time; with one per exchange, each queued for the write
/// lock behind the five round trips and the commit of every other.
struct BatchedRefreshTokenClaim<Account: SessionAccount>: RefreshTokenClaiming {
    typealias Claim = RefreshTokenRotation<Account>.Claim
    typealias Outcome = RefreshTokenRotation<Account>.Outcome
    private let batches: GroupCommit<Claim, Outcome?>

    init(revocation: SessionRevocation, settings: ServerSettings) {
        batches = GroupCommit { claims in try await Self.claimTogether(claims, revocation: revocation, settings: settings) }
    }

    func claim(_ claim: Claim) async throws -> Outcome? { try await batches.submit(claim) }

    /// Per claim, in order: its outcome, or nil when its token was not claimable, or was
    /// presented twice in the batch (the second goes the one-by-one way, as the retry it is).
    static func claimTogether(_ claims: [Claim], revocation: SessionRevocation, settings: ServerSettings) async throws -> [Outcome?] {
        let realm = Account.realm
        let firstOfHash = Dictionary(claims.enumerated().map { ($1.presentedHash, $0) }, uniquingKeysWith: min)
        let distinct = firstOfHash.values.sorted().map { claims[$0] }
        let outcomes: [String: Outcome] = try await revocation.transaction { ending in
            let db = ending.db
            let presented = distinct.map { "(\(bind: $0.presentedHash), \(bind: $0.successorHash), \(bind: $0.now))" as SQLQueryString }
            let claimed = try await db.raw(
                """
                WITH presented(hash, successor, at) AS (VALUES \(presented.joined(separator: ", ")))
                UPDATE \(ident: realm.refreshTokens) AS rt SET rotated_at = p.at, successor_hash = p.successor
                FROM presented p
                WHERE rt.token_hash = p.hash AND rt.rotated_at IS NULL AND rt.expires_at > p.at
                RETURNING token_hash
                """
            ).all(decodingColumn: "token_hash", as: String.self)
            guard !claimed.isEmpty else { return [:] }
            let found = try await db.raw(
                """
                SELECT u.*, rt.token_hash, rt.session_id, rt.rotated_at, s.is_mobile, s.revoked_at, s.created_at AS session_start, s.amr AS session_amr
                FROM \(ident: realm.refreshTokens) rt
                JOIN \(ident: realm.sessions) s ON s.id = rt.session_id
                JOIN \(ident: realm.accounts) u ON u.id = s.user_id
                WHERE rt.token_hash IN (\(binds: claimed))
                """
            ).all()
            var outcomes: [String: Outcome] = [:]
            var successors: [SQLQueryString] = []
            for columns in found {
                let hash = try columns.decode(column: "token_hash", as: String.self)
                guard let index = firstOfHash[hash] else { continue }
                let claim = claims[index]
                let (row, user) = try RefreshTokenRotation<Account>.decode(columns)
                if let refusal = RefreshTokenRotation<Account>.refusal(row, user, now: claim.now, settings: settings) {
                    if refusal.code == .userInactive {
                        try await ending.revoke(session: row.sessionId, realm: realm, reason: "user_inactive", now: claim.now)
                        outcomes[hash] = .rejected(refusal)
                    } else {
                        outcomes[hash] = .rejected(refusal)
                    }
                    continue
                }
                let expiresAt = row.successorExpiry(now: claim.now, settings: settings)
                successors.append("(\(bind: claim.successorHash), \(bind: row.sessionId), \(bind: claim.now), \(bind: expiresAt))")
                let rotated = RefreshTokenRotation<Account>.Rotated(refreshToken: claim.successor, row: row, user: user)
                outcomes[hash] = .rotated(rotated, retried: false)
            }
            if !successors.isEmpty {
                try await db.raw(
                    """
                    INSERT INTO \(ident: realm.refreshTokens) (token_hash, session_id, issued_at, expires_at)
                    VALUES \(successors.joined(separator: ", "))
                    """
                ).run()
            }
            // A claimed token without a session row: refused, as the one-by-one way does.
            for hash in claimed where outcomes[hash] == nil { outcomes[hash] = .rejected(.invalidRefreshToken) }
            return outcomes
        }
        return claims.enumerated().map { index, claim in
            firstOfHash[claim.presentedHash] == index ? outcomes[claim.presentedHash] : nil
        }
    }
}
