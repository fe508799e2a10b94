import Foundation
import SQLKit

/// How many messages of the mail queue are in each delivery state: the totals
/// `repairminder outbox --status` prints under however many entries it shows.
public struct MailQueueTotals: Sendable, Equatable {
    public var queued = 0
    /// Queued and held by a worker right now.
    public var sending = 0
    public var sent = 0
    public var failed = 0

    public var all: Int { queued + sending + sent + failed }
}

extension MailQueue {
    /// The totals of the whole queue (of mail to `recipient` only, if given), counted in the
    /// database rather than from a page of entries, so `--last 3` does not shrink them. An
    /// entry is sending while a worker's claim on it runs past `now`.
    public static func totals(in database: Database, to recipient: String? = nil, now: Double) async throws -> MailQueueTotals {
        let rows = try await database.withConnection { db in
            try await db.raw(
                """
                SELECT CASE WHEN status = 'queued' AND claimed_until > \(bind: now) THEN 'sending' ELSE status END AS state,
                    COUNT(*) AS n
                FROM mail_queue
                WHERE \(bind: recipient == nil ? 1 : 0) = 1 OR recipient = \(bind: recipient ?? "")
                GROUP BY 1
                """
            ).all()
        }
        var totals = MailQueueTotals()
        for row in rows {
            let count = try row.decode(column: "n", as: Int.self)
            switch try row.decode(column: "state", as: String.self) {
            case "queued": totals.queued = count
            case "sending": totals.sending = count
            case "sent": totals.sent = count
            case "failed": totals.failed = count
            default: break
            }
        }
        return totals
    }
}
