import SQLKit

/// Deletes rows that can no longer mean anything, once they have been dead for `retention`
/// seconds: expired refresh tokens, revoked or run-out staff, REKI and connected apps' sessions
/// (and authorization codes), expired or
/// revoked customer sessions (with the device tokens their sessions registered), expired login
/// challenges, emailed codes, REKI reset links and pending registrations, and idle limit counters.
///
/// Dead rows are kept for `retention` (default 7 days) rather than deleted at once so that an
/// operator can still see what happened lately (a reuse revocation, a burst of failed codes).
/// A live row is never touched. A rotated refresh token is kept until it expires and for
/// `retention` beyond, because presenting it again is how reuse is detected; after that it is
/// refused as unknown (`INVALID_REFRESH_TOKEN`) rather than revoking its session: the price of
/// not keeping every token a long-lived session ever had. The activity log (the audit trail)
/// is kept for good, and the mail queue (with its failed attempts) is left to its worker, which
/// erases it.
///
/// Every statement deletes at most `batchSize` rows found through an index on a time column,
/// each batch its own short transaction, so a large backlog never holds SQLite's single write
/// lock for long and never blocks sign-ins.
struct Purge: Sendable {
    let database: Database
    /// Seconds a dead row is kept (`--purge-retention`).
    let retention: Double
    /// Seconds a pending registration can still be verified: its code's lifetime (`--code-ttl`).
    let registrationLifetime: Double
    /// Seconds a limit counter is still read after its last event: its longest window, or the
    /// spacing between code emails (`--code-resend-interval`) when that is longer.
    let counterLifetime: Double
    var batchSize = 500

    /// The purge of a server with `settings`.
    init(database: Database, settings: ServerSettings, batchSize: Int = 500) {
        self.database = database
        retention = Double(settings.purgeRetention)
        registrationLifetime = Double(settings.codeTTL)
        counterLifetime = max(WindowCounters.longestWindow, Double(settings.codeResendInterval))
        self.batchSize = batchSize
    }

    /// One pass over every table; how many rows of each kind it deleted (only non-zero counts).
    func run(now: Double) async throws -> [String: Int] {
        let cutoff = now - retention
        var removed: [String: Int] = [:]
        func count(_ kind: String, _ n: Int) { if n > 0 { removed[kind, default: 0] += n } }

        for realm in SessionRealm.all {
            count("revoked sessions", try await batches { try await revokedSessions(of: realm, before: cutoff, on: $0) })
            count("expired refresh tokens", try await batches { try await expiredRefreshTokens(of: realm, before: cutoff, on: $0) })
        }
        count("app sessions without a refresh token", try await batches { try await appSessionsWithoutRefresh(before: cutoff, on: $0) })
        count("customer sessions", try await batches { try await deadCustomerSessions(before: cutoff, on: $0) })
        count("authorization codes", try await batches { db in
            try await deleteBatch(db, "oauth_codes", "code_hash", where: "expires_at < \(bind: cutoff)")
        })
        count("login challenges", try await batches { db in
            try await deleteBatch(db, "login_challenges", "id", where: "expires_at < \(bind: cutoff)")
        })
        count("passkey challenges", try await batches { db in
            try await deleteBatch(db, "passkey_challenges", "id", where: "expires_at < \(bind: cutoff)")
        })
        count("emailed codes", try await batches { db in
            try await deleteBatch(db, "magic_codes", "id", where: "expires_at < \(bind: cutoff)")
        })
        count("reset links", try await batches { db in
            try await deleteBatch(db, "reki_password_resets", "token_hash", where: "expires_at < \(bind: cutoff)")
        })
        // A registration has no expiry of its own: it dies with its code.
        count("pending registrations", try await batches { db in
            try await deleteBatch(db, "pending_registrations", "email", where: "created_at < \(bind: cutoff - registrationLifetime)")
        })
        // An idle counter counts nothing any more; no retention needed beyond its lifetime (a
        // day for a shop's invitations, whose window is a day).
        let daily = AbuseLimits.prefix(of: .invitations) + "%"
        count("idle limit counters", try await batches { db in
            try await deleteBatch(
                db, "request_windows", "key",
                where: """
                    last_at <= \(bind: now - counterLifetime)
                    AND (key NOT LIKE \(bind: daily) OR last_at <= \(bind: now - AbuseLimits.invitationWindow))
                    """)
        })
        return removed
    }

    /// Runs `batch` (one transaction each) until it deletes less than a full batch; the total.
    private func batches(_ batch: @Sendable @escaping (any SQLDatabase) async throws -> Int) async throws -> Int {
        var total = 0
        while true {
            try Task.checkCancellation()
            let n = try await database.transaction { try await batch($0) }
            total += n
            if n < batchSize { return total }
        }
    }

    /// Deletes up to a batch of `table`'s rows matching `condition`, by their key column.
    private func deleteBatch(_ db: any SQLDatabase, _ table: String, _ key: String, where condition: SQLQueryString) async throws -> Int {
        try await db.raw(
            """
            DELETE FROM \(ident: table) WHERE \(ident: key) IN (
                SELECT \(ident: key) FROM \(ident: table) WHERE \(condition) LIMIT \(literal: batchSize))
            RETURNING \(ident: key)
            """
        ).all().count
    }

    /// Sessions of `realm` revoked before `cutoff`, with their refresh and device tokens.
    private func revokedSessions(of realm: SessionRealm, before cutoff: Double, on db: any SQLDatabase) async throws -> Int {
        let ids = try await db.raw(
            "SELECT id FROM \(ident: realm.sessions) WHERE revoked_at < \(bind: cutoff) LIMIT \(literal: batchSize)"
        ).all(decodingColumn: "id", as: String.self)
        try await deleteSessions(ids, of: realm, on: db)
        return ids.count
    }

    /// A connected app's sessions that never had a refresh token (no `offline_access`, docs/API.md
    /// §16.4), made before `cutoff`: they lived as long as their access token.
    private func appSessionsWithoutRefresh(before cutoff: Double, on db: any SQLDatabase) async throws -> Int {
        let ids = try await db.raw(
            """
            SELECT id FROM oauth_sessions s WHERE created_at < \(bind: cutoff)
              AND NOT EXISTS (SELECT 1 FROM oauth_refresh_tokens WHERE session_id = s.id) LIMIT \(literal: batchSize)
            """
        ).all(decodingColumn: "id", as: String.self)
        try await deleteSessions(ids, of: .oauth, on: db)
        return ids.count
    }

    /// Refresh tokens that expired before `cutoff`; a session left without any token (every
    /// one expired: it can never refresh again) goes with its last one.
    private func expiredRefreshTokens(of realm: SessionRealm, before cutoff: Double, on db: any SQLDatabase) async throws -> Int {
        let tokens = realm.refreshTokens
        let rows = try await db.raw(
            """
            DELETE FROM \(ident: tokens) WHERE token_hash IN (
                SELECT token_hash FROM \(ident: tokens) WHERE expires_at < \(bind: cutoff) LIMIT \(literal: batchSize))
            RETURNING session_id
            """
        ).all(decodingColumn: "session_id", as: String.self)
        var emptied: [String] = []
        for session in Set(rows) {
            let left = try await db.raw(
                "SELECT token_hash FROM \(ident: tokens) WHERE session_id = \(bind: session) LIMIT 1"
            ).first()
            if left == nil { emptied.append(session) }
        }
        try await deleteSessions(emptied, of: realm, on: db)
        return rows.count
    }

    /// Customer sessions expired or revoked before `cutoff`, with their device tokens.
    private func deadCustomerSessions(before cutoff: Double, on db: any SQLDatabase) async throws -> Int {
        let ids = try await db.raw(
            """
            SELECT id FROM customer_sessions WHERE expires_at < \(bind: cutoff)
            UNION SELECT id FROM customer_sessions WHERE revoked_at < \(bind: cutoff)
            LIMIT \(literal: batchSize)
            """
        ).all(decodingColumn: "id", as: String.self)
        guard !ids.isEmpty else { return 0 }
        try await db.raw("DELETE FROM device_tokens WHERE session_id IN (\(binds: ids))").run()
        try await db.raw("DELETE FROM customer_sessions WHERE id IN (\(binds: ids))").run()
        return ids.count
    }

    /// Deletes these sessions of `realm` and what hangs off them: any refresh tokens left and,
    /// for staff, device tokens.
    private func deleteSessions(_ ids: [String], of realm: SessionRealm, on db: any SQLDatabase) async throws {
        guard !ids.isEmpty else { return }
        if realm.isStaff { try await db.raw("DELETE FROM device_tokens WHERE session_id IN (\(binds: ids))").run() }
        try await db.raw("DELETE FROM \(ident: realm.refreshTokens) WHERE session_id IN (\(binds: ids))").run()
        try await db.raw("DELETE FROM \(ident: realm.sessions) WHERE id IN (\(binds: ids))").run()
    }
}
