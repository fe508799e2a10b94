import Foundation
import SQLKit

/// A session (staff or REKI): one sign-in, one family of refresh tokens.
struct SessionRecord: Decodable, Sendable {
    var id: String
    var userId: String
    var isMobile: Int
    var revokedAt: Double?
    var userAgent: String?
    var ipAddress: String?
    var createdAt: Double
    var lastUsedAt: Double?
}

/// The device a request comes from, as a session records it (docs/API.md §9.4).
struct ClientDevice: Sendable {
    var isMobile: Bool
    var userAgent: String?
    var ipAddress: String?
}

/// The sessions of one realm (staff or REKI) and their refresh tokens (stored only as SHA-256 hashes).
struct SessionStore: Sendable {
    let database: Database
    var realm: SessionRealm = .staff
    /// The instance's staff caller cache, told of every revocation committed through this store.
    var callerCache: StaffCallerCache? = nil

    /// Starts a session with its first refresh token; returns the session id.
    func create(userId: String, device: ClientDevice, refreshToken: String, now: Double, refreshTTL: Double) async throws -> String {
        let sessionId = UUID().uuidString.lowercased()
        let realm = self.realm
        try await database.transaction { db in
            try await Self.create(
                id: sessionId, userId: userId, device: device, refreshToken: refreshToken, now: now, refreshTTL: refreshTTL,
                realm: realm, on: db)
        }
        return sessionId
    }

    /// `create` inside a transaction the caller already holds (a registration that creates the
    /// account and its first session together).
    static func create(
        id sessionId: String, userId: String, device: ClientDevice, refreshToken: String, now: Double, refreshTTL: Double,
        realm: SessionRealm, on db: any SQLDatabase
    ) async throws {
        // A User-Agent is the client's to choose: kept, but not at any length.
        let userAgent = device.userAgent.map { String($0.prefix(Self.userAgentLimit)) }
        try await db.raw(
            """
            INSERT INTO \(ident: realm.sessions) (id, user_id, is_mobile, created_at, user_agent, ip_address, last_used_at)
            VALUES (\(bind: sessionId), \(bind: userId), \(bind: device.isMobile ? 1 : 0), \(bind: now),
                \(bind: userAgent), \(bind: device.ipAddress), \(bind: now))
            """
        ).run()
        try await db.raw(
            """
            INSERT INTO \(ident: realm.refreshTokens) (token_hash, session_id, issued_at, expires_at)
            VALUES (\(bind: SecretHashing.tokenHash(refreshToken)), \(bind: sessionId), \(bind: now), \(bind: now + refreshTTL))
            """
        ).run()
        if realm.isStaff {
            try await ActivityLog.record(.loginSucceeded, userId: userId, sessionId: sessionId, device: device, at: now, on: db)
        }
    }

    static let userAgentLimit = 512
    /// The columns a `SessionRecord` decodes from.
    private static let columns = SQLQueryString("id, user_id, is_mobile, revoked_at, user_agent, ip_address, created_at, last_used_at")
    /// `last_used_at` moves at most this often per session, so a busy session does not write on every request.
    static let lastUsedResolution: Double = 60

    /// Records that session `id` (last recorded as used at `lastUsedAt`) was used now, if that
    /// was a minute ago or more: most requests write nothing. Conditional, so concurrent
    /// requests write it once. True when it was due (and written, by this call or a concurrent one).
    @discardableResult
    func touch(id: String, lastUsedAt: Double?, now: Double) async throws -> Bool {
        guard (lastUsedAt ?? 0) <= now - Self.lastUsedResolution else { return false }
        let realm = self.realm
        try await database.withConnection { db in
            try await db.raw(
                """
                UPDATE \(ident: realm.sessions) SET last_used_at = \(bind: now)
                WHERE id = \(bind: id) AND (last_used_at IS NULL OR last_used_at <= \(bind: now - Self.lastUsedResolution))
                """
            ).run()
        }
        return true
    }

    /// The user's live sessions (not revoked, with a refresh token that has not expired), newest first.
    func live(userId: String, now: Double) async throws -> [SessionRecord] {
        let realm = self.realm
        return try await database.withConnection { db in
            try await db.raw(
                """
                SELECT \(Self.columns) FROM \(ident: realm.sessions) s
                WHERE user_id = \(bind: userId) AND revoked_at IS NULL
                  AND EXISTS (SELECT 1 FROM \(ident: realm.refreshTokens) WHERE session_id = s.id AND expires_at > \(bind: now))
                ORDER BY created_at DESC, id DESC
                """
            ).all(decoding: SessionRecord.self, with: AccountStore.rowDecoder)
        }
    }

    /// Revokes session `id` if it is a live session of `userId`; false for another user's or an unknown one.
    func revoke(id: String, ofUser userId: String, reason: String, device: ClientDevice?, now: Double) async throws -> Bool {
        let realm = self.realm
        let revoked = try await database.transaction { db in
            let owned = try await db.raw(
                "SELECT id FROM \(ident: realm.sessions) WHERE id = \(bind: id) AND user_id = \(bind: userId) AND revoked_at IS NULL"
            ).first()
            guard owned != nil else { return false }
            try await Self.revoke(id: id, reason: reason, device: device, now: now, realm: realm, on: db)
            return true
        }
        if revoked { callerCache?.forget(sessionId: id) }
        return revoked
    }

    /// Ends a session: its refresh tokens and access tokens stop working, and the device tokens
    /// it registered are forgotten.
    func revoke(id: String, reason: String, device: ClientDevice? = nil, now: Double) async throws {
        let realm = self.realm
        try await database.transaction { db in
            try await Self.revoke(id: id, reason: reason, device: device, now: now, realm: realm, on: db)
        }
        callerCache?.forget(sessionId: id)
    }

    /// `revoke` inside a transaction the caller already holds; for staff, the activity log
    /// records it for the session's user, from `device` (the request that caused it, if any).
    /// Once committed, the caller tells the instance's `StaffCallerCache` (`forget`).
    static func revoke(
        id: String, reason: String, device: ClientDevice? = nil, now: Double, realm: SessionRealm = .staff, on db: any SQLDatabase
    ) async throws {
        let revoked = try await db.raw(
            """
            UPDATE \(ident: realm.sessions) SET revoked_at = \(bind: now), revoked_reason = \(bind: reason)
            WHERE id = \(bind: id) AND revoked_at IS NULL RETURNING user_id
            """
        ).first(decodingColumn: "user_id", as: String.self)
        guard realm.isStaff else { return }
        try await DeviceTokenStore.removeAll(ofSession: id, on: db)
        if let userId = revoked {
            try await ActivityLog.record(.sessionRevoked, userId: userId, sessionId: id, device: device, at: now, on: db)
        }
    }

    /// Revokes every live session of `userId` but `keeping` (the caller's own, when it stays
    /// signed in), inside the caller's transaction; how many were revoked.
    @discardableResult
    static func revokeAll(
        userId: String, keeping: String? = nil, reason: String, device: ClientDevice?, now: Double,
        realm: SessionRealm = .staff, on db: any SQLDatabase
    ) async throws -> Int {
        let ids = try await db.raw(
            """
            SELECT id FROM \(ident: realm.sessions)
            WHERE user_id = \(bind: userId) AND revoked_at IS NULL AND id <> \(bind: keeping ?? "")
            """
        ).all(decodingColumn: "id", as: String.self)
        for id in ids { try await revoke(id: id, reason: reason, device: device, now: now, realm: realm, on: db) }
        return ids.count
    }
}
