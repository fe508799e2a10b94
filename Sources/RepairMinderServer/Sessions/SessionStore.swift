import Foundation
import SQLKit

/// A staff session: one sign-in, one family of refresh tokens.
struct StaffSession: Decodable, Sendable {
    var id: String
    var userId: String
    var isMobile: Int
    var revokedAt: Double?
}

/// Staff sessions and their refresh tokens (stored only as SHA-256 hashes).
struct SessionStore: Sendable {
    let database: Database

    /// Starts a session with its first refresh token; returns the session id.
    func create(userId: String, isMobile: Bool, refreshToken: String, now: Double, refreshTTL: Double) async throws -> String {
        let sessionId = UUID().uuidString.lowercased()
        try await database.transaction { db in
            try await db.raw(
                "INSERT INTO sessions (id, user_id, is_mobile, created_at) VALUES (\(bind: sessionId), \(bind: userId), \(bind: isMobile ? 1 : 0), \(bind: now))"
            ).run()
            try await db.raw(
                """
                INSERT INTO refresh_tokens (token_hash, session_id, issued_at, expires_at)
                VALUES (\(bind: SecretHashing.tokenHash(refreshToken)), \(bind: sessionId), \(bind: now), \(bind: now + refreshTTL))
                """
            ).run()
        }
        return sessionId
    }

    func session(id: String) async throws -> StaffSession? {
        try await database.withConnection { db in
            try await db.raw("SELECT id, user_id, is_mobile, revoked_at FROM sessions WHERE id = \(bind: id)")
                .first(decoding: StaffSession.self, with: AccountStore.rowDecoder)
        }
    }

    /// Ends a session: its refresh tokens and access tokens stop working, and the device tokens
    /// it registered are forgotten.
    func revoke(id: String, reason: String, now: Double) async throws {
        try await database.transaction { db in
            try await Self.revoke(id: id, reason: reason, now: now, on: db)
        }
    }

    /// `revoke` inside a transaction the caller already holds.
    static func revoke(id: String, reason: String, now: Double, on db: any SQLDatabase) async throws {
        try await db.raw(
            "UPDATE sessions SET revoked_at = \(bind: now), revoked_reason = \(bind: reason) WHERE id = \(bind: id) AND revoked_at IS NULL"
        ).run()
        try await DeviceTokenStore.removeAll(ofSession: id, on: db)
    }
}
