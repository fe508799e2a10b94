import Foundation
import SQLKit

/// A login challenge: opened by a correct password (docs/API.md §2.1), required by 2FA request and
/// verify, closed by success, by its 5th wrong code, or by a newer login of the same user.
struct LoginChallenge: Decodable, Sendable {
    var id: String
    var userId: String
    var email: String
    var expiresAt: Double
    /// Codes tried so far (column `failed_attempts`): each try is counted before its code is
    /// compared (docs/API.md §2.3), so a right one is among them until the challenge closes.
    var failedAttempts: Int
    var codeHash: String?
    var codeExpiresAt: Double?
    var lastCodeSentAt: Double?
    /// What step 1's caller is bound by (docs/API.md §2.3); nil on challenges opened before binding existed.
    var tokenHash: String?
    var clientIp: String?
    var userAgent: String?
    /// The SHA-256 of the challenge of step 1's passkey options, for a user with passkeys.
    var passkeyChallengeHash: String?
    /// `email` when a magic-link code opened it instead of the password (column `first_factor`).
    var firstFactor: String?

    /// The proof that opened the challenge, the first of the session's factors (docs/API.md §13.2).
    var openedBy: SignInFactor { firstFactor == "email" ? .emailedCode : .password }
}

/// Who took login step 1, so steps 2 and 3 can be held to it (docs/API.md §2.3).
struct ChallengeBinding: Sendable {
    /// `SecretHashing.tokenHash` of the `challengeToken` returned by step 1.
    var tokenHash: String
    var clientIP: String?
    var userAgent: String?
}

/// How an attempt to complete a challenge ended.
enum ChallengeCompletion: Sendable {
    /// Closed by this request, and its factor spent with it.
    case completed
    /// Not closed: it was already closed, or the emailed code was not its current live one.
    case notOpen
    /// The authenticator factor was spent meanwhile (a replayed TOTP step): nothing changed.
    case factorAlreadyUsed
}

/// Storage of login challenges. Every state change is one conditional UPDATE, so concurrent
/// requests cannot both use a code or overrun the attempt budget.
struct LoginChallengeStore: Sendable {
    let database: Database

    /// Opens a fresh challenge for `userId`, closing any earlier open one: a user has at most one.
    func open(
        userId: String, email: String, binding: ChallengeBinding, passkeyChallengeHash: String?, openedBy: SignInFactor,
        now: Double, ttl: Double
    ) async throws -> String {
        let id = UUID().uuidString.lowercased()
        try await database.transaction(serializedOn: "login-challenge:\(userId)") { db in
            try await db.raw(
                "UPDATE login_challenges SET closed_at = \(bind: now) WHERE user_id = \(bind: userId) AND closed_at IS NULL"
            ).run()
            try await db.raw(
                """
                INSERT INTO login_challenges (
                    id, user_id, email, created_at, expires_at, failed_attempts, token_hash, client_ip, user_agent, passkey_challenge_hash,
                    first_factor)
                VALUES (\(bind: id), \(bind: userId), \(bind: email), \(bind: now), \(bind: now + ttl), 0,
                    \(bind: binding.tokenHash), \(bind: binding.clientIP), \(bind: binding.userAgent), \(bind: passkeyChallengeHash),
                    \(bind: openedBy == .emailedCode ? "email" : nil))
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

    /// Counts one try before its code is compared (docs/API.md §2.3), so a check that fails
    /// with an error still counts. Returns the tries used so far, or nil when the challenge is
    /// closed, expired or out of tries: of concurrent requests at most `maxAttempts` are counted.
    func recordAttempt(challengeId: String, maxAttempts: Int, now: Double) async throws -> Int? {
        try await database.withConnection { db in
            try await db.raw(
                """
                UPDATE login_challenges SET failed_attempts = failed_attempts + 1
                WHERE id = \(bind: challengeId) AND closed_at IS NULL AND expires_at > \(bind: now)
                  AND failed_attempts < \(bind: maxAttempts)
                RETURNING failed_attempts
                """
            ).first(decodingColumn: "failed_attempts", as: Int.self)
        }
    }

    /// Closes the challenge and spends the factor that completed it in one transaction: both
    /// happen or neither, so a request that loses a race leaves the factor unused. An emailed
    /// code (`emailedCodeHash`) must be the challenge's current unexpired code; an authenticator
    /// factor is spent by `spend` on the same connection. Exactly one caller completes.
    func complete(
        challengeId: String, emailedCodeHash: String?, now: Double,
        spend: @Sendable @escaping (any SQLDatabase) async throws -> Bool = { _ in true }
    ) async throws -> ChallengeCompletion {
        let isTheCode: SQLQueryString =
            emailedCodeHash.map { "code_hash = \(bind: $0) AND code_expires_at > \(bind: now)" } ?? "1 = 1"
        do {
            return try await database.transaction { db in
                let closed = try await db.raw(
                    """
                    UPDATE login_challenges SET closed_at = \(bind: now)
                    WHERE id = \(bind: challengeId) AND closed_at IS NULL AND \(isTheCode)
                    RETURNING id
                    """
                ).first()
                guard closed != nil else { return .notOpen }
                // Thrown to roll the close back: the challenge stays open for another try.
                guard try await spend(db) else { throw FactorAlreadyUsed() }
                return .completed
            }
        } catch is FactorAlreadyUsed {
            return .factorAlreadyUsed
        }
    }

    private struct FactorAlreadyUsed: Error {}

    /// Closes the challenge (its tries ran out).
    func close(challengeId: String, now: Double) async throws {
        try await database.withConnection { db in
            try await db.raw(
                "UPDATE login_challenges SET closed_at = \(bind: now) WHERE id = \(bind: challengeId) AND closed_at IS NULL"
            ).run()
        }
    }

    private func challenge(id: String) async throws -> LoginChallenge? {
        try await database.withConnection { db in
            try await db.raw("SELECT * FROM login_challenges WHERE id = \(bind: id)")
                .first(decoding: LoginChallenge.self, with: AccountStore.rowDecoder)
        }
    }
}
