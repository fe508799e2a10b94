import Foundation
import RepairMinderModels
import SQLKit

/// A `reki_users` row.
struct REKIUserRecord: Decodable, Sendable, SessionAccount {
    var id: String
    var email: String
    var passwordHash: String
    var isActive: Int
    var createdAt: Double

    var canSignIn: Bool { isActive != 0 }

    /// Spelled out, as `RefreshTokenRotation` decodes rows without key conversion.
    enum CodingKeys: String, CodingKey {
        case id, email, passwordHash = "password_hash", isActive = "is_active", createdAt = "created_at"
    }

    static var realm: SessionRealm { .reki }
    /// docs/API.md §10: seven days, sliding with each refresh, on every device.
    static func refreshLifetime(isMobile: Bool, settings: ServerSettings) -> Double { 7 * 24 * 3600 }

    /// The wire object: `createdAt` with milliseconds, as seed 002 shows it.
    var wire: REKIUser { REKIUser(id: id, email: email, createdAt: Timestamp.iso8601Milliseconds(createdAt)) }
}

/// REKI's accounts: a set of their own, apart from Repair Minder's staff and customers (an
/// email may be in both).
struct REKIUserStore: Sendable {
    let database: Database

    func user(email: String) async throws -> REKIUserRecord? {
        try await database.withConnection { db in
            try await db.raw("SELECT * FROM reki_users WHERE email = \(bind: email)").first(decoding: REKIUserRecord.self)
        }
    }

    func user(id: String) async throws -> REKIUserRecord? {
        try await database.withConnection { db in
            try await db.raw("SELECT * FROM reki_users WHERE id = \(bind: id)").first(decoding: REKIUserRecord.self)
        }
    }

    /// What a REKI bearer check needs, in one round trip: the live session `sessionId` of
    /// `userId` and the user; nil when the session is revoked, someone else's or unknown.
    func caller(sessionId: String, userId: String) async throws -> (lastUsedAt: Double?, user: REKIUserRecord)? {
        try await database.withConnection { db in
            guard
                let row = try await db.raw(
                    """
                    SELECT s.last_used_at AS session_last_used_at, u.*
                    FROM reki_sessions s JOIN reki_users u ON u.id = s.user_id
                    WHERE s.id = \(bind: sessionId) AND s.user_id = \(bind: userId) AND s.revoked_at IS NULL
                    """
                ).first()
            else { return nil }
            return (try row.decode(column: "session_last_used_at", as: Double?.self), try row.decode(model: REKIUserRecord.self))
        }
    }

    /// Inserts a user inside the caller's transaction; nil when the email is taken (of two
    /// concurrent registrations of one address, exactly one gets the user).
    static func create(email: String, passwordHash: String, now: Double, on db: any SQLDatabase) async throws -> REKIUserRecord? {
        try await db.raw(
            """
            INSERT INTO reki_users (id, email, password_hash, is_active, created_at, updated_at)
            VALUES (\(bind: UUID().uuidString.lowercased()), \(bind: email), \(bind: passwordHash), 1, \(bind: now), \(bind: now))
            ON CONFLICT (email) DO NOTHING
            RETURNING *
            """
        ).first(decoding: REKIUserRecord.self)
    }

    /// Replaces an outdated password hash with `new`, if it is still `old`.
    func upgradePassword(userId: String, from old: String, to new: String, now: Double) async throws {
        try await database.withConnection { db in
            try await db.raw(
                """
                UPDATE reki_users SET password_hash = \(bind: new), updated_at = \(bind: now)
                WHERE id = \(bind: userId) AND password_hash = \(bind: old)
                """
            ).run()
        }
    }

    static func setPassword(userId: String, hash: String, now: Double, on db: any SQLDatabase) async throws {
        try await db.raw(
            "UPDATE reki_users SET password_hash = \(bind: hash), updated_at = \(bind: now) WHERE id = \(bind: userId)"
        ).run()
    }
}
