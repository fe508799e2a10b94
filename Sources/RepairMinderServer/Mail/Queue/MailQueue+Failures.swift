import Foundation
import RepairMinderModels
import SQLKit

/// The failed delivery attempts (table `mail_failures`, migration 21): one row per attempt
/// that failed, written with the queue row's update in one transaction, and read as the
/// queue's health by the platform's administrators (docs/API.md §15.5). A row holds where the
/// attempt failed and the reply code, never the error's words: they may echo the address
/// (`last_error` keeps those for `repairminder outbox --status`).
extension MailQueue {
    /// Records the failure of `mail`'s current attempt; `final` when no retry follows.
    static func record(_ failure: MailDeliveryError, of mail: ClaimedMail, final: Bool, at now: Double, on db: any SQLDatabase) async throws {
        try await db.raw(
            """
            INSERT INTO mail_failures (mail_id, attempt, at, stage, reply_code, is_final)
            VALUES (\(bind: mail.id), \(bind: mail.attempts), \(bind: now), \(bind: failure.stage.rawValue), \(bind: failure.replyCode),
                \(bind: final ? 1 : 0))
            """
        ).run()
    }

    /// Deletes the failures recorded before `cutoff`: the worker's erase pass, with the queue's
    /// own old rows.
    static func eraseFailures(before cutoff: Double, on db: any SQLDatabase) async throws {
        try await db.raw("DELETE FROM mail_failures WHERE at < \(bind: cutoff)").run()
    }

    /// The queue's health at `now`: the messages waiting and the oldest one's age, the attempts
    /// that failed in the hour before `now`, and the latest `MailQueueHealth.listedFailures`
    /// failures, newest first. Each count reads an index (`mail_queue_due`, `mail_failures_at`).
    static func health(in database: Database, now: Double) async throws -> MailQueueHealth {
        try await database.withConnection { db in
            let waiting = try await db.raw("SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM mail_queue WHERE status = 'queued'").first()
            let queued = try waiting?.decode(column: "n", as: Int.self) ?? 0
            let oldest = try waiting?.decode(column: "oldest", as: Double?.self)
            let failedLastHour = try await db.raw("SELECT COUNT(*) AS n FROM mail_failures WHERE at > \(bind: now - 3600)")
                .first(decodingColumn: "n", as: Int.self) ?? 0
            let recent = try await db.raw(
                """
                SELECT mail_id, attempt, at, stage, reply_code, is_final FROM mail_failures
                ORDER BY at DESC, mail_id DESC, attempt DESC LIMIT \(bind: MailQueueHealth.listedFailures)
                """
            ).all().map(Self.failure)
            return MailQueueHealth(
                // A clock behind a message's (another instance's) is no reason for a negative age.
                queued: queued, oldestQueuedAgeSeconds: oldest.map { Int(max(0, now - $0)) }, failedLastHour: failedLastHour,
                recentFailures: recent)
        }
    }

    private static func failure(_ row: any SQLRow) throws -> MailQueueFailure {
        MailQueueFailure(
            id: try row.decode(column: "mail_id", as: String.self), at: Timestamp.iso8601(try row.decode(column: "at", as: Double.self)),
            // Leniently: a stage a newer instance on the same database wrote is shown as it is.
            stage: MailFailureStage(rawValue: try row.decode(column: "stage", as: String.self)),
            replyCode: try row.decode(column: "reply_code", as: Int?.self), attempts: try row.decode(column: "attempt", as: Int.self),
            final: try row.decode(column: "is_final", as: Int.self) != 0)
    }
}
