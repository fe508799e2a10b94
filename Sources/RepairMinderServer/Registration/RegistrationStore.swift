import Foundation
import SQLKit

/// What a registration asked for, kept until its code is verified (table `pending_registrations`).
struct PendingRegistration: Decodable, Sendable {
    var email: String
    var companyName: String
    var firstName: String
    var lastName: String
    var passwordHash: String
}

/// Pending registrations, and the shop and admin a verified one becomes (docs/API.md §9.1).
struct RegistrationStore: Sendable {
    let database: Database

    /// Whether a shop already has this name (names are unique).
    func companyExists(named name: String) async throws -> Bool {
        try await database.withConnection { db in
            try await db.raw("SELECT id FROM companies WHERE name = \(bind: name)").first()
        } != nil
    }

    /// Keeps `pending` until its code is verified; a newer registration of the same email replaces it.
    static func save(_ pending: PendingRegistration, now: Double, on db: any SQLDatabase) async throws {
        try await db.raw(
            """
            INSERT INTO pending_registrations (email, company_name, first_name, last_name, password_hash, created_at)
            VALUES (\(bind: pending.email), \(bind: pending.companyName), \(bind: pending.firstName), \(bind: pending.lastName),
                \(bind: pending.passwordHash), \(bind: now))
            ON CONFLICT (email) DO UPDATE SET company_name = excluded.company_name, first_name = excluded.first_name,
                last_name = excluded.last_name, password_hash = excluded.password_hash, created_at = excluded.created_at
            """
        ).run()
    }

    /// Takes the pending registration of `email` out (one caller gets it).
    static func take(email: String, on db: any SQLDatabase) async throws -> PendingRegistration? {
        try await db.raw(
            """
            DELETE FROM pending_registrations WHERE email = \(bind: email)
            RETURNING email, company_name, first_name, last_name, password_hash
            """
        ).first(decoding: PendingRegistration.self, with: AccountStore.rowDecoder)
    }

    /// Creates the shop (`pending_approval`) and its first user (an admin); the new user's id.
    /// Throws 409 when the email or the shop's name was taken meanwhile (each insert is
    /// conditional, so concurrent registrations cannot both get one).
    static func createShop(_ pending: PendingRegistration, now: Double, on db: any SQLDatabase) async throws -> String {
        let companyId = UUID().uuidString.lowercased(), userId = UUID().uuidString.lowercased()
        let company = try await db.raw(
            """
            INSERT INTO companies (id, name, status, created_at, updated_at)
            VALUES (\(bind: companyId), \(bind: pending.companyName), 'pending_approval', \(bind: now), \(bind: now))
            ON CONFLICT (name) DO NOTHING RETURNING id
            """
        ).first()
        guard company != nil else { throw APIError.companyNameTaken }
        let user = try await db.raw(
            """
            INSERT INTO users (id, email, first_name, last_name, company_id, role, is_active, archived, magic_link_enabled,
                password_hash, created_at, updated_at)
            VALUES (\(bind: userId), \(bind: pending.email), \(bind: pending.firstName), \(bind: pending.lastName),
                \(bind: companyId), 'admin', 1, 0, 1, \(bind: pending.passwordHash), \(bind: now), \(bind: now))
            ON CONFLICT (email) DO NOTHING RETURNING id
            """
        ).first()
        guard user != nil else { throw APIError.emailTaken }
        return userId
    }
}
