import Foundation
import SQLKit

/// Reads staff users and their companies.
struct AccountStore: Sendable {
    let database: Database

    static let rowDecoder = SQLRowDecoder(keyDecodingStrategy: .convertFromSnakeCase)

    func user(email: String) async throws -> UserRecord? {
        try await database.withConnection { db in
            try await db.raw("SELECT * FROM users WHERE email = \(bind: email)")
                .first(decoding: UserRecord.self, with: Self.rowDecoder)
        }
    }

    func user(id: String) async throws -> UserRecord? {
        try await database.withConnection { db in
            try await db.raw("SELECT * FROM users WHERE id = \(bind: id)")
                .first(decoding: UserRecord.self, with: Self.rowDecoder)
        }
    }

    func company(id: String) async throws -> CompanyRecord? {
        try await database.withConnection { db in
            try await db.raw("SELECT * FROM companies WHERE id = \(bind: id)")
                .first(decoding: CompanyRecord.self, with: Self.rowDecoder)
        }
    }

    /// The user and their company, or nil if either is gone.
    func userWithCompany(id: String) async throws -> (UserRecord, CompanyRecord)? {
        guard let user = try await user(id: id), let company = try await company(id: user.companyId) else { return nil }
        return (user, company)
    }

    func recordLogin(userId: String, at now: Double) async throws {
        try await database.withConnection { db in
            try await db.raw("UPDATE users SET last_login = \(bind: now) WHERE id = \(bind: userId)").run()
        }
    }

    /// Sets the user's password hash, inside the caller's transaction (a reset: the emailed
    /// code, consumed in the same transaction, is what admits one writer).
    static func setPassword(userId: String, hash: String, now: Double, on db: any SQLDatabase) async throws {
        try await db.raw("UPDATE users SET password_hash = \(bind: hash), updated_at = \(bind: now) WHERE id = \(bind: userId)").run()
    }

    /// Replaces the user's password hash if it is still `expected` (nil: the user had none),
    /// inside the caller's transaction: of two concurrent changes from the same old password,
    /// one wins. False when it changed meanwhile.
    static func replacePassword(userId: String, expected: String?, with hash: String, now: Double, on db: any SQLDatabase) async throws -> Bool {
        let unchanged: SQLQueryString = expected.map { "password_hash = \(bind: $0)" } ?? "password_hash IS NULL"
        return try await db.raw(
            """
            UPDATE users SET password_hash = \(bind: hash), updated_at = \(bind: now)
            WHERE id = \(bind: userId) AND \(unchanged)
            RETURNING id
            """
        ).first() != nil
    }
}
