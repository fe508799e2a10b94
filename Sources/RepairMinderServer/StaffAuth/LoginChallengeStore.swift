import Foundation
import SQLKit

/// A login challenge: opened by a correct password (docs/API.md §2.1), required by 2FA request and
/// verify, closed by success, by its 5th wrong code, or by a newer login of the same user.
struct LoginChallenge: Decodable, Sendable {
    var id: String
    var userId: String
    var email: String
    var expiresAt: Double
    var failedAttempts: Int
    var codeHash: String?
    var codeExpiresAt: Double?
    var lastCodeSentAt: Double?
}

/// Storage of login challenges. Every state change is one conditional UPDATE, so concurrent
/// requests cannot both use a code or overrun the attempt budget.
struct LoginChallengeStore: Sendable {
    let database: Database

    /// Opens a fresh challenge for `userId`, closing any earlier open one: a user has at most one.
    func open(userId: String, email: String, now: Double, ttl: Double) async throws -> String {
        let id = UUID().uuidString.lowercased()
        try await database.transaction(serializedOn: "login-challenge:\(userId)") { db in
            try await db.raw(
                "UPDATE login_challenges SET closed_at = \(bind: now) WHERE user_id = \(bind: userId) AND closed_at IS NULL"
            ).run()
            try await db.raw(
                """
                INSERT INTO login_challenges (id, user_id, email, created_at, expires_at, failed_attempts)
                VALUES (\(bind: id), \(bind: userId), \(bind: email), \(bind: now), \(bind: now + ttl), 0)
                """
            ).run()
        }
        return id
    }

    /// The user's open, unexpired challenge.
    func openChallenge(userId: String, now: Double) async throws -> LoginChallenge? {
        try await database.withConnection { db in
            try await db.raw(
                """
                SELECT * FROM login_challenges
                WHERE user_id = \(bind: userId) AND closed_at IS NULL AND expires_at > \(bind: now)
                ORDER BY created_at DESC LIMIT 1
                """
            ).first(decoding: LoginChallenge.self, with: AccountStore.rowDecoder)
        }
    }

    /// Replaces the challenge's code and queues `mail`, its email, in one transaction, unless a
    /// code was sent less than `minInterval` seconds ago: then returns the seconds to wait. The
    /// check and the write are one statement.
    func storeCode(
        challengeId: String, codeHash: String, now: Double, codeTTL: Double, minInterval: Double, mail: OutgoingMail
    ) async throws -> Double? {
        let updated = try await database.transaction { db in
            let replaced = try await db.raw(
                """
                UPDATE login_challenges
                SET code_hash = \(bind: codeHash), code_expires_at = \(bind: now + codeTTL), last_code_sent_at = \(bind: now)
                WHERE id = \(bind: challengeId) AND closed_at IS NULL
                  AND (last_code_sent_at IS NULL OR last_code_sent_at <= \(bind: now - minInterval))
                RETURNING id
                """
            ).first() != nil
            if replaced { try await mail.enqueue(on: db) }
            return replaced
        }
        if updated { return nil }
        guard let challenge = try await challenge(id: challengeId), let last = challenge.lastCodeSentAt else { return 1 }
        return last + minInterval - now
    }

    /// Counts one wrong code; returns the attempts used so far, closing the challenge at `maxAttempts`.
    /// nil when the challenge was already closed.
    func recordFailure(challengeId: String, maxAttempts: Int, now: Double) async throws -> Int? {
        try await database.withConnection { db in
            try await db.raw(
                """
                UPDATE login_challenges
                SET failed_attempts = failed_attempts + 1,
                    closed_at = CASE WHEN failed_attempts + 1 >= \(bind: maxAttempts) THEN \(bind: now) ELSE NULL END
                WHERE id = \(bind: challengeId) AND closed_at IS NULL
                RETURNING failed_attempts
                """
            ).first(decodingColumn: "failed_attempts", as: Int.self)
        }
    }

    /// Closes the challenge if `codeHash` is its current, unexpired code. Exactly one caller wins.
    func complete(challengeId: String, codeHash: String, now: Double) async throws -> Bool {
        try await database.withConnection { db in
            try await db.raw(
                """
                UPDATE login_challenges SET closed_at = \(bind: now)
                WHERE id = \(bind: challengeId) AND closed_at IS NULL
                  AND code_hash = \(bind: codeHash) AND code_expires_at > \(bind: now)
                RETURNING id
                """
            ).first()
        } != nil
    }

    /// Closes the challenge after another second factor (authenticator app) was accepted.
    /// Exactly one caller wins.
    func close(challengeId: String, now: Double) async throws -> Bool {
        try await database.withConnection { db in
            try await db.raw(
                "UPDATE login_challenges SET closed_at = \(bind: now) WHERE id = \(bind: challengeId) AND closed_at IS NULL RETURNING id"
            ).first()
        } != nil
    }

    private func challenge(id: String) async throws -> LoginChallenge? {
        try await database.withConnection { db in
            try await db.raw("SELECT * FROM login_challenges WHERE id = \(bind: id)")
                .first(decoding: LoginChallenge.self, with: AccountStore.rowDecoder)
        }
    }
}
