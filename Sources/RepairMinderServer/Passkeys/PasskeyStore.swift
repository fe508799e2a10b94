import Foundation
import RepairMinderModels
import SQLKit

/// A stored passkey (table `passkeys`).
struct PasskeyRecord: Decodable, Sendable {
    var id: String
    var userId: String
    /// Base64url.
    var credentialId: String
    /// The COSE key, base64url.
    var publicKey: String
    var signCount: Int64
    var backedUp: Int
    var name: String
    var createdAt: Double
    var lastUsedAt: Double?

    var wire: Passkey {
        Passkey(
            id: id, name: name, createdAt: Timestamp.iso8601(createdAt), lastUsedAt: lastUsedAt.map(Timestamp.iso8601),
            backedUp: backedUp != 0)
    }
}

/// What a passkey ceremony's challenge is for.
enum PasskeyCeremony: String, Sendable {
    case registration
    case login
}

/// Storage of passkeys, their users' handles and their ceremonies' challenges (docs/API.md §11).
/// Every state change that must happen once is one conditional statement.
struct PasskeyStore: Sendable {
    let database: Database
    /// Passkeys one user may have (`--passkeys-per-user`, docs/API.md §7): every sign-in loads
    /// them all, and login step 1 and the enrolment options list them.
    var maximumPerUser = 20
    /// Enrolments one user may have open at once; opening another drops the oldest.
    static let openEnrolmentsPerUser = 5

    // MARK: User handles

    /// The user's opaque handle (32 random bytes, base64url), made on first use: what the
    /// authenticator stores as the passkey's user, so it never holds the email or the id.
    func handle(forUser userId: String) async throws -> String {
        try await database.transaction { db in
            try await db.raw(
                """
                INSERT INTO passkey_user_handles (user_id, handle) VALUES (\(bind: userId), \(bind: RandomToken.base64URL(byteCount: 32)))
                ON CONFLICT (user_id) DO NOTHING
                """
            ).run()
            guard
                let handle = try await db.raw("SELECT handle FROM passkey_user_handles WHERE user_id = \(bind: userId)")
                    .first(decodingColumn: "handle", as: String.self)
            else { throw APIError.internalError }
            return handle
        }
    }

    func user(forHandle handle: String) async throws -> String? {
        try await database.withConnection { db in
            try await db.raw("SELECT user_id FROM passkey_user_handles WHERE handle = \(bind: handle)")
                .first(decodingColumn: "user_id", as: String.self)
        }
    }

    // MARK: Passkeys

    func passkeys(ofUser userId: String) async throws -> [PasskeyRecord] {
        try await database.withConnection { db in
            try await db.raw("SELECT * FROM passkeys WHERE user_id = \(bind: userId) ORDER BY created_at, id")
                .all(decoding: PasskeyRecord.self, with: AccountStore.rowDecoder)
        }
    }

    func passkey(credentialId: String) async throws -> PasskeyRecord? {
        try await database.withConnection { db in
            try await db.raw("SELECT * FROM passkeys WHERE credential_id = \(bind: credentialId)")
                .first(decoding: PasskeyRecord.self, with: AccountStore.rowDecoder)
        }
    }

    /// Keeps a new passkey and logs its enrolment, in one transaction; nil when its credential
    /// id is already registered (to anyone): the unique index decides between concurrent tries.
    /// 409 `PASSKEY_LIMIT` when the user has `maximumPerUser` already: the user's handle row,
    /// written first, queues concurrent enrolments of one user, so the count each checks is the
    /// committed one (on PostgreSQL as on SQLite) and a limit of 20 is never 21.
    func insert(
        _ credential: WebAuthnRelyingParty.NewCredential, userId: String, name: String, device: ClientDevice, now: Double
    ) async throws -> PasskeyRecord? {
        let record = PasskeyRecord(
            id: UUID().uuidString.lowercased(), userId: userId, credentialId: credential.credentialId,
            publicKey: Data(credential.publicKey).base64URLEncoded(), signCount: Int64(credential.signCount),
            backedUp: credential.backedUp ? 1 : 0, name: name, createdAt: now, lastUsedAt: nil)
        return try await database.transaction { db in
            // A write to the user's handle row locks it until the commit: the next enrolment of
            // this user waits here, then counts what this one added.
            try await db.raw("UPDATE passkey_user_handles SET handle = handle WHERE user_id = \(bind: userId)").run()
            let count = try await db.raw("SELECT COUNT(*) AS n FROM passkeys WHERE user_id = \(bind: userId)")
                .first(decodingColumn: "n", as: Int.self) ?? 0
            guard count < maximumPerUser else { throw APIError.passkeyLimit(maximumPerUser) }
            let inserted = try await db.raw(
                """
                INSERT INTO passkeys (id, user_id, credential_id, public_key, sign_count, backed_up, name, created_at)
                VALUES (\(bind: record.id), \(bind: userId), \(bind: record.credentialId), \(bind: record.publicKey),
                    \(bind: record.signCount), \(bind: record.backedUp), \(bind: name), \(bind: now))
                ON CONFLICT (credential_id) DO NOTHING
                RETURNING id
                """
            ).first()
            guard inserted != nil else { return nil }
            try await ActivityLog.record(.passkeyAdded, userId: userId, device: device, at: now, on: db)
            return record
        }
    }

    /// Removes the user's passkey `id` and logs it; false when the user has no such passkey.
    func remove(id: String, ofUser userId: String, device: ClientDevice, now: Double) async throws -> Bool {
        try await database.transaction { db in
            let removed = try await db.raw(
                "DELETE FROM passkeys WHERE id = \(bind: id) AND user_id = \(bind: userId) RETURNING id"
            ).first()
            guard removed != nil else { return false }
            try await ActivityLog.record(.passkeyRemoved, userId: userId, device: device, at: now, on: db)
            return true
        }
    }

    /// Records a sign-in by `passkey` whose authenticator counted `signCount`, on `db` (the
    /// caller's transaction). False when the counter did not move forward from the stored one
    /// (WebAuthn §7.2 step 22: a cloned authenticator), unless both are 0 (authenticators
    /// that keep no counter); the check and the write are one statement, so of two sign-ins
    /// with the same count only one passes.
    static func recordUse(
        of passkey: PasskeyRecord, signCount: UInt32, backedUp: Bool, now: Double, on db: any SQLDatabase
    ) async throws -> Bool {
        let count = Int64(signCount)
        return try await db.raw(
            """
            UPDATE passkeys SET sign_count = \(bind: count), backed_up = \(bind: backedUp ? 1 : 0), last_used_at = \(bind: now)
            WHERE id = \(bind: passkey.id)
              AND (sign_count < \(bind: count) OR (sign_count = 0 AND \(bind: count) = 0))
            RETURNING id
            """
        ).first() != nil
    }

    // MARK: Ceremonies

    /// Opens a ceremony whose challenge hashes to `challengeHash`; its id. A user's enrolment
    /// drops their oldest beyond `openEnrolmentsPerUser`: a user's pending challenges are bounded.
    func openCeremony(_ purpose: PasskeyCeremony, userId: String?, challengeHash: String, now: Double) async throws -> String {
        // Ordered ids: "the oldest" is the first made, even within one clock tick.
        let id = OrderedID.next()
        try await database.transaction { db in
            if let userId {
                try await db.raw(
                    """
                    DELETE FROM passkey_challenges
                    WHERE purpose = \(bind: purpose.rawValue) AND user_id = \(bind: userId)
                      AND id NOT IN (
                        SELECT id FROM passkey_challenges
                        WHERE purpose = \(bind: purpose.rawValue) AND user_id = \(bind: userId) AND used_at IS NULL
                        ORDER BY id DESC LIMIT \(literal: Self.openEnrolmentsPerUser - 1))
                    """
                ).run()
            }
            try await db.raw(
                """
                INSERT INTO passkey_challenges (id, purpose, user_id, challenge_hash, expires_at)
                VALUES (\(bind: id), \(bind: purpose.rawValue), \(bind: userId), \(bind: challengeHash),
                    \(bind: now + Double(WebAuthnRelyingParty.timeoutSeconds)))
                """
            ).run()
        }
        return id
    }

    /// Uses up ceremony `id` of `purpose` (and of `userId`, for an enrolment) and returns its
    /// challenge's hash; nil when it is unknown, expired, another's or used. Of concurrent
    /// requests only one gets it.
    func useCeremony(id: String, _ purpose: PasskeyCeremony, userId: String?, now: Double) async throws -> String? {
        let ofUser: SQLQueryString = userId.map { "AND user_id = \(bind: $0)" } ?? "AND user_id IS NULL"
        return try await database.withConnection { db in
            try await db.raw(
                """
                UPDATE passkey_challenges SET used_at = \(bind: now)
                WHERE id = \(bind: id) AND purpose = \(bind: purpose.rawValue) \(ofUser)
                  AND used_at IS NULL AND expires_at > \(bind: now)
                RETURNING challenge_hash
                """
            ).first(decodingColumn: "challenge_hash", as: String.self)
        }
    }
}
