import Foundation
import SQLKit

/// A user's authenticator-app enrolment: the secret (sealed), a pending one during setup, and
/// the last time step accepted (so a code cannot be replayed within its window).
struct TOTPCredential: Decodable, Sendable {
    var userId: String
    var secretSealed: String?
    var pendingSecretSealed: String?
    var enabledAt: Double?
    var lastUsedStep: Int64?

    var isEnabled: Bool { enabledAt != nil && secretSealed != nil }
}

/// Storage of TOTP enrolments and recovery codes (stored as keyed hashes).
struct TOTPStore: Sendable {
    let database: Database

    func credential(userId: String) async throws -> TOTPCredential? {
        try await database.withConnection { db in
            try await db.raw("SELECT * FROM totp_credentials WHERE user_id = \(bind: userId)")
                .first(decoding: TOTPCredential.self, with: AccountStore.rowDecoder)
        }
    }

    /// Stores a new pending secret, replacing an earlier pending one; refused (false) once enabled.
    func savePending(userId: String, sealed: String) async throws -> Bool {
        try await database.withConnection { db in
            try await db.raw(
                """
                INSERT INTO totp_credentials (user_id, pending_secret_sealed) VALUES (\(bind: userId), \(bind: sealed))
                ON CONFLICT (user_id) DO UPDATE SET pending_secret_sealed = excluded.pending_secret_sealed
                WHERE totp_credentials.enabled_at IS NULL
                RETURNING user_id
                """
            ).first()
        } != nil
    }

    /// Turns the pending secret `sealed` into the enabled one and replaces the recovery codes.
    /// False if the pending secret changed meanwhile (a concurrent setup) or TOTP got enabled.
    func enable(
        userId: String, sealed: String, step: UInt64, recoveryHashes: [String], hashKey: String, device: ClientDevice?, now: Double
    ) async throws -> Bool {
        try await database.transaction { db in
            let updated = try await db.raw(
                """
                UPDATE totp_credentials
                SET secret_sealed = pending_secret_sealed, pending_secret_sealed = NULL, enabled_at = \(bind: now),
                    last_used_step = \(bind: Int64(step))
                WHERE user_id = \(bind: userId) AND enabled_at IS NULL AND pending_secret_sealed = \(bind: sealed)
                RETURNING user_id
                """
            ).first()
            guard updated != nil else { return false }
            try await db.raw("DELETE FROM recovery_codes WHERE user_id = \(bind: userId)").run()
            for hash in recoveryHashes {
                try await db.raw(
                    """
                    INSERT INTO recovery_codes (id, user_id, code_hash, hash_key)
                    VALUES (\(bind: UUID().uuidString.lowercased()), \(bind: userId), \(bind: hash), \(bind: hashKey))
                    """
                ).run()
            }
            try await ActivityLog.record(.totpEnabled, userId: userId, device: device, at: now, on: db)
            return true
        }
    }

    /// Records that `step`'s code was used, on `db` (a transaction of the caller's); false if
    /// it, or a later one, already was (a replay).
    static func claimStep(userId: String, step: UInt64, on db: any SQLDatabase) async throws -> Bool {
        try await db.raw(
            """
            UPDATE totp_credentials SET last_used_step = \(bind: Int64(step))
            WHERE user_id = \(bind: userId) AND enabled_at IS NOT NULL
              AND (last_used_step IS NULL OR last_used_step < \(bind: Int64(step)))
            RETURNING user_id
            """
        ).first() != nil
    }

    /// Uses up the unused recovery code with this hash, on `db`; false if there is none.
    static func consumeRecoveryCode(userId: String, hash: String, now: Double, on db: any SQLDatabase) async throws -> Bool {
        try await db.raw(
            """
            UPDATE recovery_codes SET used_at = \(bind: now)
            WHERE id = (SELECT id FROM recovery_codes WHERE user_id = \(bind: userId) AND code_hash = \(bind: hash) AND used_at IS NULL LIMIT 1)
              AND used_at IS NULL
            RETURNING id
            """
        ).first() != nil
    }

    func hasUnusedRecoveryCode(userId: String, hash: String) async throws -> Bool {
        try await database.withConnection { db in
            try await db.raw(
                "SELECT id FROM recovery_codes WHERE user_id = \(bind: userId) AND code_hash = \(bind: hash) AND used_at IS NULL LIMIT 1"
            ).first()
        } != nil
    }

    func remainingRecoveryCodes(userId: String) async throws -> Int {
        try await database.withConnection { db in
            try await db.raw("SELECT COUNT(*) AS n FROM recovery_codes WHERE user_id = \(bind: userId) AND used_at IS NULL")
                .first(decodingColumn: "n", as: Int.self) ?? 0
        }
    }

    func disable(userId: String, device: ClientDevice?, now: Double) async throws {
        try await database.transaction { db in
            try await db.raw("DELETE FROM totp_credentials WHERE user_id = \(bind: userId)").run()
            try await db.raw("DELETE FROM recovery_codes WHERE user_id = \(bind: userId)").run()
            try await ActivityLog.record(.totpDisabled, userId: userId, device: device, at: now, on: db)
        }
    }
}
