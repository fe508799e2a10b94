import Foundation
import RepairMinderModels
import SQLKit

/// Reads staff users and their companies.
struct AccountStore: Sendable {
    let database: Database

    static let rowDecoder = SQLRowDecoder(keyDecodingStrategy: .convertFromSnakeCase)

    func user(email: String) async throws -> UserRecord? {
        try await database.withConnection { db in
            try await db.raw("SELECT * FROM users WHERE email = \(bind: email)")
                .first(decoding: UserRecord.self, with: Self.spelledOutColumns)
        }
    }

    func user(id: String) async throws -> UserRecord? {
        try await database.withConnection { db in
            try await db.raw("SELECT * FROM users WHERE id = \(bind: id)")
                .first(decoding: UserRecord.self, with: Self.spelledOutColumns)
        }
    }

    func company(id: String) async throws -> CompanyRecord? {
        try await database.withConnection { db in
            // The record's columns only: read on every staff request, where each column decoded
            // costs (the security policy's are read through `SecurityPolicyStore`).
            try await db.raw("SELECT \(CompanyRecord.columns) FROM companies WHERE id = \(bind: id)")
                .first(decoding: CompanyRecord.self, with: Self.spelledOutColumns)
        }
    }

    /// The user and their company, or nil if either is gone.
    func userWithCompany(id: String) async throws -> (UserRecord, CompanyRecord)? {
        guard let user = try await user(id: id), let company = try await company(id: user.companyId) else { return nil }
        return (user, company)
    }

    /// What a staff bearer check needs, in one round trip: the live session `sessionId` of
    /// `userId`, with the user and their company; nil when the session is revoked, belongs to
    /// someone else or does not exist.
    func caller(sessionId: String, userId: String) async throws -> (lastUsedAt: Double?, user: UserRecord, company: CompanyRecord)? {
        try await database.withConnection { db in
            guard
                let row = try await db.raw(
                    """
                    SELECT s.last_used_at AS session_last_used_at, u.*,
                        c.id AS c_id, c.name AS c_name, c.status AS c_status, c.currency_code AS c_currency_code,
                        c.vat_number AS c_vat_number, c.logo_url AS c_logo_url, c.vat_rate_repair AS c_vat_rate_repair,
                        c.vat_rate_device_sale AS c_vat_rate_device_sale, c.vat_rate_accessory AS c_vat_rate_accessory,
                        c.vat_rate_device_purchase AS c_vat_rate_device_purchase
                    FROM sessions s JOIN users u ON u.id = s.user_id JOIN companies c ON c.id = u.company_id
                    WHERE s.id = \(bind: sessionId) AND s.user_id = \(bind: userId) AND s.revoked_at IS NULL
                    """
                ).first()
            else { return nil }
            let user = try row.decode(model: UserRecord.self, with: Self.spelledOutColumns)
            let company = try row.decode(model: CompanyRecord.self, with: Self.companyColumns)
            return (try row.decode(column: "session_last_used_at", as: Double?.self), user, company)
        }
    }

    /// The second factors `userId` enrolled, in one round trip (whether, not which).
    func enrolledFactors(userId: String) async throws -> EnrolledFactors {
        try await database.withConnection { db in
            let row = try await db.raw(
                """
                SELECT (SELECT COUNT(*) FROM totp_credentials
                        WHERE user_id = \(bind: userId) AND enabled_at IS NOT NULL AND secret_sealed IS NOT NULL) AS apps,
                    (SELECT COUNT(*) FROM passkeys WHERE user_id = \(bind: userId)) AS passkeys
                """
            ).first()
            return EnrolledFactors(
                hasAuthenticatorApp: try row?.decode(column: "apps", as: Int.self) ?? 0 > 0,
                hasPasskeys: try row?.decode(column: "passkeys", as: Int.self) ?? 0 > 0)
        }
    }

    /// What the shop of `userId` requires of its staff (docs/API.md §13).
    func requiredFactor(ofUser userId: String) async throws -> RequiredFactor {
        try await database.withConnection { db in
            try await db.raw(
                """
                SELECT c.required_factor FROM users u JOIN companies c ON c.id = u.company_id WHERE u.id = \(bind: userId)
                """
            ).first(decodingColumn: "required_factor", as: String.self)
        }.map { RequiredFactor(known: $0) ?? .passkey } ?? .notRequired
    }

    /// Records whose coding keys are their column names (`UserRecord`, `CompanyRecord`): no
    /// conversion per key, which the hot paths would pay for every column of every row.
    static let spelledOutColumns = SQLRowDecoder()
    /// The company's columns in `caller`'s row, each prefixed `c_`.
    private static let companyColumns = SQLRowDecoder(prefix: "c_")

    /// Through the revocation service, which tells the caller cache of the changed user.
    func recordLogin(userId: String, at now: Double, revocation: SessionRevocation) async throws {
        try await revocation.transaction { changing in
            try await changing.db.raw("UPDATE users SET last_login = \(bind: now) WHERE id = \(bind: userId)").run()
            changing.changedUser(userId)
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
