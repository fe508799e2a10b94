import Foundation
import SQLKit

/// The durable mail queue (table `mail_queue`), shared by every server instance on the database.
///
/// A request that sends a code inserts its message in the transaction that stores the code
/// (`OutgoingMail.enqueue(on:)`) and answers at once; `MailDeliveryService` delivers it.
/// Bodies hold codes, so they are sealed with the encryption key (AES-GCM, bound to the
/// message's id) and erased once the retention period after delivery has passed.
///
/// Delivery is at least once, with at most one duplicate: a worker claims a message (a
/// conditional `UPDATE`, so two workers never hold the same one) and records the moment it
/// hands the message over (`handOver`, just before the end of SMTP DATA). A claim that ends
/// after hand-over without an answer — the worker crashed, or the connection dropped before
/// the reply — leaves the message in doubt: the next claim counts it in `uncertain` and sends
/// it once more with the same `Message-ID`; a second doubt marks it failed instead of risking
/// another copy. Before hand-over the mail server has not accepted anything, so a retry
/// cannot duplicate.
public struct MailQueue: Sendable {
    let database: Database
    private let box: SecretBox
    let wakeup: Wakeup

    /// Resends allowed for a message whose earlier delivery is in doubt.
    static let maxResendsInDoubt = 1
    /// Finished messages (bodies already erased) are deleted this long after they finished.
    static let rowRetention = 30.0 * 24 * 3600

    public init(database: Database, encryptionKeys: EncryptionKeys) {
        self.database = database
        box = SecretBox(keys: encryptionKeys)
        wakeup = Wakeup()
    }

    public init(database: Database, encryptionKey: String) {
        self.init(database: database, encryptionKeys: EncryptionKeys(current: encryptionKey))
    }

    // MARK: Enqueueing

    /// Seals `message` for the queue; insert it with `enqueue(on:)` in the code's transaction.
    func seal(_ message: MailMessage, now: Double) throws -> OutgoingMail {
        let id = Self.newID()
        let body = try JSONEncoder().encode(message)
        return OutgoingMail(
            id: id, recipient: message.to, subject: message.subject,
            sealedBody: try box.seal(Array(body), owner: Self.owner(id)), createdAt: now)
    }

    /// Queues `message` on its own (a mail that goes with no code) and wakes the worker.
    func send(_ message: MailMessage, now: Double) async throws {
        let sealed = try seal(message, now: now)
        try await database.transaction { db in try await sealed.enqueue(on: db) }
        deliverSoon()
    }

    /// Tells this instance's worker that mail was committed (other instances find it by polling).
    func deliverSoon() {
        wakeup.signal()
    }

    // MARK: Delivering

    /// Claims up to `limit` due messages for `lease` seconds. The claim condition is repeated in
    /// the outer `WHERE`, so on PostgreSQL a worker that waited on another's row lock re-checks
    /// it against the committed row and skips what the other claimed.
    func claim(limit: Int, now: Double, lease: Double) async throws -> [ClaimedMail] {
        let token = RandomToken.base64URL(byteCount: 16)
        return try await database.withConnection { db in
            try await db.raw(
                """
                UPDATE mail_queue
                SET claim_token = \(bind: token), claimed_until = \(bind: now + lease), attempts = attempts + 1,
                    uncertain = uncertain + CASE WHEN handed_over_at IS NULL THEN 0 ELSE 1 END, handed_over_at = NULL
                WHERE id IN (
                        SELECT id FROM mail_queue
                        WHERE status = 'queued' AND next_attempt_at <= \(bind: now)
                          AND (claimed_until IS NULL OR claimed_until <= \(bind: now))
                        ORDER BY next_attempt_at LIMIT \(bind: limit))
                  AND status = 'queued' AND next_attempt_at <= \(bind: now)
                  AND (claimed_until IS NULL OR claimed_until <= \(bind: now))
                RETURNING id, recipient, body_sealed, attempts, uncertain, created_at, claim_token
                """
            ).all(decoding: ClaimedMail.self, with: AccountStore.rowDecoder)
        }
    }

    /// The message of a claimed entry.
    func open(_ mail: ClaimedMail) throws -> MailMessage {
        guard let sealed = mail.bodySealed else { throw MailQueueError.bodyErased }
        return try openBody(sealed, id: mail.id)
    }

    /// Records that the message is being handed over; false if the claim was lost (it expired
    /// and another worker took the message), in which case it must not be sent.
    func handOver(_ mail: ClaimedMail, now: Double) async throws -> Bool {
        try await database.withConnection { db in
            try await db.raw(
                """
                UPDATE mail_queue SET handed_over_at = \(bind: now)
                WHERE id = \(bind: mail.id) AND claim_token = \(bind: mail.claimToken) RETURNING id
                """
            ).first()
        } != nil
    }

    func markSent(_ mail: ClaimedMail, now: Double) async throws {
        try await database.withConnection { db in
            _ = try await finish(mail, status: "sent", error: nil, now: now, on: db)
        }
    }

    /// Fails the message for good, recording the attempt's failure with it (`mail_failures`).
    func markFailed(_ mail: ClaimedMail, failure: MailDeliveryError, now: Double) async throws {
        try await database.transaction { db in
            guard try await finish(mail, status: "failed", error: failure.description, now: now, on: db) else { return }
            try await Self.record(failure, of: mail, final: true, at: now, on: db)
        }
    }

    /// Whether the worker still held the claim (else another worker has the message, and this
    /// outcome is not recorded).
    private func finish(_ mail: ClaimedMail, status: String, error: String?, now: Double, on db: any SQLDatabase) async throws -> Bool {
        try await db.raw(
            """
            UPDATE mail_queue
            SET status = \(bind: status), finished_at = \(bind: now), last_error = \(bind: error),
                claim_token = NULL, claimed_until = NULL
            WHERE id = \(bind: mail.id) AND claim_token = \(bind: mail.claimToken) RETURNING id
            """
        ).first() != nil
    }

    /// Releases the claim and schedules another attempt at `time`, recording the attempt's
    /// failure (`mail_failures`). `inDoubt`: the message was handed over and no answer came, so
    /// the next claim counts a doubt. `unreachable`: the mail server did not answer at all.
    func retry(_ mail: ClaimedMail, at time: Double, failure: MailDeliveryError, inDoubt: Bool, unreachable: Bool, now: Double) async throws {
        try await database.transaction { db in
            let held = try await db.raw(
                """
                UPDATE mail_queue
                SET next_attempt_at = \(bind: time), last_error = \(bind: failure.description), claim_token = NULL, claimed_until = NULL,
                    unreachable = \(bind: unreachable ? 1 : 0),
                    handed_over_at = CASE WHEN \(bind: inDoubt ? 1 : 0) = 1 THEN handed_over_at ELSE NULL END
                WHERE id = \(bind: mail.id) AND claim_token = \(bind: mail.claimToken) RETURNING id
                """
            ).first() != nil
            if held { try await Self.record(failure, of: mail, final: false, at: now, on: db) }
        }
    }

    /// Makes due now every message whose last attempt could not reach the mail server: it has
    /// just taken a message, so it is back. (Messages it answered with a 4xx keep their backoff.)
    func bringRetriesForward(now: Double) async throws {
        try await database.withConnection { db in
            try await db.raw(
                """
                UPDATE mail_queue SET next_attempt_at = \(bind: now)
                WHERE status = 'queued' AND unreachable = 1 AND next_attempt_at > \(bind: now)
                """
            ).run()
        }
    }

    /// Erases the bodies of messages finished before `cutoff` and deletes rows finished long ago,
    /// and failures recorded as long ago.
    func erase(finishedBefore cutoff: Double, now: Double) async throws {
        try await database.withConnection { db in
            try await db.raw(
                """
                UPDATE mail_queue SET body_sealed = NULL
                WHERE finished_at IS NOT NULL AND finished_at < \(bind: cutoff) AND body_sealed IS NOT NULL
                """
            ).run()
            try await db.raw("DELETE FROM mail_queue WHERE finished_at < \(bind: now - Self.rowRetention)").run()
            try await Self.eraseFailures(before: now - Self.rowRetention, on: db)
        }
    }

    // MARK: Inspecting

    /// The newest `limit` entries of the queue in `database`, newest last, optionally only to `recipient`.
    public static func entries(in database: Database, to recipient: String? = nil, limit: Int = 1000) async throws -> [MailQueueEntry] {
        let newestFirst = try await database.withConnection { db in
            try await db.raw(
                """
                SELECT id, recipient, subject, status, attempts, last_error, created_at, next_attempt_at, claimed_until, finished_at,
                    CASE WHEN body_sealed IS NULL THEN 0 ELSE 1 END AS has_body
                FROM mail_queue
                WHERE \(bind: recipient == nil ? 1 : 0) = 1 OR recipient = \(bind: recipient ?? "")
                ORDER BY created_at DESC, id DESC LIMIT \(bind: limit)
                """
            ).all(decoding: MailQueueEntry.self, with: AccountStore.rowDecoder)
        }
        return newestFirst.reversed()
    }

    /// The messages queued for `recipient` whose bodies are still kept, oldest first, whatever
    /// their delivery state: what was sent to an address, for tests and support.
    public func messages(to recipient: String) async throws -> [MailMessage] {
        let sealed = try await database.withConnection { db in
            try await db.raw(
                """
                SELECT id, body_sealed FROM mail_queue WHERE recipient = \(bind: recipient) AND body_sealed IS NOT NULL
                ORDER BY created_at, id
                """
            ).all(decoding: SealedBody.self, with: AccountStore.rowDecoder)
        }
        return try sealed.map { try openBody($0.bodySealed, id: $0.id) }
    }

    /// A fresh id that sorts by when it was made (wall-clock nanoseconds, then randomness), so
    /// messages queued within one tick of the server's clock still list in order.
    static func newID() -> String {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        let nanoseconds = UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
        let hex = String(nanoseconds, radix: 16)
        return String(repeating: "0", count: max(0, 16 - hex.count)) + hex + "-" + RandomToken.base64URL(byteCount: 9)
    }

    private func openBody(_ sealed: String, id: String) throws -> MailMessage {
        try JSONDecoder().decode(MailMessage.self, from: Data(box.open(sealed, owner: Self.owner(id))))
    }

    /// What each sealed body is bound to: a body copied to another row does not open.
    static func owner(_ id: String) -> String { "mail:\(id)" }

    private struct SealedBody: Decodable {
        let id: String
        let bodySealed: String
    }
}

/// A message sealed for the queue, ready to be inserted.
struct OutgoingMail: Sendable {
    let id: String
    let recipient: String
    let subject: String
    let sealedBody: String
    let createdAt: Double

    /// Inserts the message, due at once. Call it inside the transaction that stores the code it
    /// carries, so both commit or neither does.
    func enqueue(on db: any SQLDatabase) async throws {
        try await db.raw(
            """
            INSERT INTO mail_queue (id, recipient, subject, body_sealed, status, attempts, uncertain, next_attempt_at, created_at)
            VALUES (\(bind: id), \(bind: recipient), \(bind: subject), \(bind: sealedBody), 'queued', 0, 0,
                \(bind: createdAt), \(bind: createdAt))
            """
        ).run()
    }
}

/// A queued message one worker holds until its claim expires.
struct ClaimedMail: Decodable, Sendable {
    let id: String
    let recipient: String
    let bodySealed: String?
    /// Attempts so far, this one included.
    let attempts: Int
    /// Earlier attempts that ended in doubt (handed over, no answer).
    let uncertain: Int
    let createdAt: Double
    let claimToken: String
}

/// One message of the queue as `repairminder outbox --status` shows it (never its body).
public struct MailQueueEntry: Decodable, Sendable {
    public let id: String
    public let recipient: String
    public let subject: String
    /// `queued`, `sent` or `failed`.
    public let status: String
    public let attempts: Int
    public let lastError: String?
    public let createdAt: Double
    public let nextAttemptAt: Double
    /// Set while a worker is delivering it.
    public let claimedUntil: Double?
    public let finishedAt: Double?
    /// 0 once the body has been erased after the retention period.
    public let hasBody: Int
}

enum MailQueueError: Error, CustomStringConvertible {
    case bodyErased

    var description: String { "the message body was erased" }
}

extension MailQueue {
    /// Messages neither sent nor failed yet, whatever instance will deliver them.
    func depth() async throws -> Int {
        try await database.withConnection { db in
            try await db.raw("SELECT COUNT(*) AS n FROM mail_queue WHERE finished_at IS NULL").first(decoding: Count.self)?.n ?? 0
        }
    }

    private struct Count: Decodable { let n: Int }
}
