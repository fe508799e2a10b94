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
}
