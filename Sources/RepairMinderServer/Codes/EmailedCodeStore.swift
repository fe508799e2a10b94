import Foundation
import SQLKit

/// An emailed code (staff magic link, customer sign-in): single use, expiring, with a
/// wrong-try budget.
struct EmailedCode: Decodable, Sendable {
    var id: String
    var email: String
    var codeHash: String
    var expiresAt: Double
    var failedAttempts: Int
    /// Customer codes requested for one company only; nil covers every company of the email.
    var companyId: String?
}

/// Storage of emailed codes (table `magic_codes`). `purpose` separates what each code is for.
struct EmailedCodeStore: Sendable {
    let database: Database

    /// Stores a new code for `email` and queues `mail`, its email, in the same transaction;
    /// earlier unused codes of the same purpose stop working.
    func issue(
        purpose: String, email: String, companyId: String? = nil, codeHash: String, now: Double, ttl: Double, mail: OutgoingMail,
        alongside: @Sendable @escaping (any SQLDatabase) async throws -> Void = { _ in }
    ) async throws {
        try await database.transaction(serializedOn: "codes:\(purpose):\(email)") { db in
            try await db.raw(
                "UPDATE magic_codes SET used_at = \(bind: now) WHERE purpose = \(bind: purpose) AND email = \(bind: email) AND used_at IS NULL"
            ).run()
            try await db.raw(
                """
                INSERT INTO magic_codes (id, purpose, email, company_id, code_hash, created_at, expires_at, failed_attempts)
                VALUES (\(bind: UUID().uuidString.lowercased()), \(bind: purpose), \(bind: email), \(bind: companyId),
                    \(bind: codeHash), \(bind: now), \(bind: now + ttl), 0)
                """
            ).run()
            try await mail.enqueue(on: db)
            try await alongside(db)
        }
    }

    /// The live (unused, unexpired) code of `email`, if any.
    func live(purpose: String, email: String, now: Double) async throws -> EmailedCode? {
        try await database.withConnection { db in
            try await db.raw(
                """
                SELECT * FROM magic_codes
                WHERE purpose = \(bind: purpose) AND email = \(bind: email) AND used_at IS NULL AND expires_at > \(bind: now)
                ORDER BY created_at DESC LIMIT 1
                """
            ).first(decoding: EmailedCode.self, with: AccountStore.rowDecoder)
        }
    }

    /// Counts a wrong try; the `maxAttempts`-th closes the code.
    func recordFailure(id: String, maxAttempts: Int, now: Double) async throws {
        try await database.withConnection { db in
            try await db.raw(
                """
                UPDATE magic_codes
                SET failed_attempts = failed_attempts + 1,
                    used_at = CASE WHEN failed_attempts + 1 >= \(bind: maxAttempts) THEN \(bind: now) ELSE NULL END
                WHERE id = \(bind: id) AND used_at IS NULL
                """
            ).run()
        }
    }

    /// Uses the code up if it matches and is still live. Exactly one concurrent caller wins.
    func consume(id: String, codeHash: String, now: Double) async throws -> Bool {
        try await database.withConnection { db in try await Self.consume(id: id, codeHash: codeHash, now: now, on: db) }
    }

    /// `consume` on a connection (a transaction) of the caller's.
    static func consume(id: String, codeHash: String, now: Double, on db: any SQLDatabase) async throws -> Bool {
        try await db.raw(
            """
            UPDATE magic_codes SET used_at = \(bind: now)
            WHERE id = \(bind: id) AND used_at IS NULL AND code_hash = \(bind: codeHash) AND expires_at > \(bind: now)
            RETURNING id
            """
        ).first() != nil
    }
}
