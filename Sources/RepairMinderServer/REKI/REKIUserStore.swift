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

    static func setPassword(userId: String, hash: String, now: Double, on db: any SQLDatabase) async throws {
        try await db.raw(
            "UPDATE reki_users SET password_hash = \(bind: hash), updated_at = \(bind: now) WHERE id = \(bind: userId)"
        ).run()
    }
}
