import Foundation
import RepairMinderModels
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

/// The sessions of one realm (staff or REKI) and their refresh tokens (stored only as SHA-256
/// hashes). Sessions end through `SessionRevocation` only.
struct SessionStore: Sendable {
    let database: Database
    var realm: SessionRealm = .staff

    /// Starts a session with its first refresh token; returns the session id.
    /// `amr`: how the user signed in (RFC 8176, docs/API.md §13.2), for every token of the session.
    func create(
        userId: String, device: ClientDevice, refreshToken: String, now: Double, refreshTTL: Double, amr: [String]? = nil
    ) async throws -> String {
        let sessionId = UUID().uuidString.lowercased()
        let realm = self.realm
        try await database.transaction { db in
            try await Self.create(
                id: sessionId, userId: userId, device: device, refreshToken: refreshToken, now: now, refreshTTL: refreshTTL,
                amr: amr, realm: realm, on: db)
        }
        return sessionId
    }

    /// `create` inside a transaction the caller already holds (a registration that creates the
    /// account and its first session together).
    static func create(
        id sessionId: String, userId: String, device: ClientDevice, refreshToken: String, now: Double, refreshTTL: Double,
        amr: [String]? = nil, realm: SessionRealm, on db: any SQLDatabase
    ) async throws {
        // A User-Agent is the client's to choose: kept, but not at any length.
        let userAgent = device.userAgent.map { String($0.prefix(Self.userAgentLimit)) }
        try await db.raw(
            """
            INSERT INTO \(ident: realm.sessions) (id, user_id, is_mobile, created_at, user_agent, ip_address, last_used_at, amr)
            VALUES (\(bind: sessionId), \(bind: userId), \(bind: device.isMobile ? 1 : 0), \(bind: now),
                \(bind: userAgent), \(bind: device.ipAddress), \(bind: now), \(bind: amr.map(AuthenticationMethods.stored)))
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

    /// `live`'s sessions as the wire shows them; `current` marks `callerSession`, the caller's own.
    func liveInfo(userId: String, callerSession: String, now: Double) async throws -> [SessionInfo] {
        try await live(userId: userId, now: now).map { session in
            SessionInfo(
                id: session.id, current: session.id == callerSession, isMobile: session.isMobile != 0,
                userAgent: session.userAgent, ipAddress: session.ipAddress, createdAt: Timestamp.iso8601(session.createdAt),
                lastUsedAt: session.lastUsedAt.map(Timestamp.iso8601))
        }
    }
}
