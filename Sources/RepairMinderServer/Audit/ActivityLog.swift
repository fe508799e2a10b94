import Foundation
import RepairMinderModels
import SQLKit

/// A row of the activity log (table `activity_log`).
struct ActivityRecord: Decodable, Sendable {
    var id: String
    var userId: String
    var type: String
    var at: Double
    var ipAddress: String?
    var userAgent: String?
    var sessionId: String?

    var wire: ActivityEvent {
        ActivityEvent(
            id: id, type: ActivityEventType(rawValue: type), at: Timestamp.iso8601(at), ipAddress: ipAddress, userAgent: userAgent, sessionId: sessionId)
    }
}

/// The audit log of docs/API.md §9.4: one row per security event of a staff user, written on
/// the connection (the transaction) that makes the change it records, so an event is logged
/// exactly when its change commits. It holds who, what, when and from where: never a
/// password, code or token. Kept for good (the purge leaves it alone).
enum ActivityLog {
    /// Records `type` for `userId`, from `device` (the request's, when there is one), about `sessionId`.
    static func record(
        _ type: ActivityEventType, userId: String, sessionId: String? = nil, device: ClientDevice? = nil, at now: Double,
        on db: any SQLDatabase
    ) async throws {
        let userAgent = device?.userAgent.map { String($0.prefix(SessionStore.userAgentLimit)) }
        try await db.raw(
            """
            INSERT INTO activity_log (id, user_id, type, at, ip_address, user_agent, session_id)
            VALUES (\(bind: OrderedID.next()), \(bind: userId), \(bind: type.rawValue), \(bind: now),
                \(bind: device?.ipAddress), \(bind: userAgent), \(bind: sessionId))
            """
        ).run()
    }

    /// `record` in a statement of its own, for events that change nothing else (a wrong password).
    static func record(
        _ type: ActivityEventType, userId: String, sessionId: String? = nil, device: ClientDevice? = nil, at now: Double,
        in database: Database
    ) async throws {
        try await database.withConnection { db in
            try await record(type, userId: userId, sessionId: sessionId, device: device, at: now, on: db)
        }
    }

    /// One page of `userId`'s events, newest first, and how many there are in all.
    static func page(userId: String, page: Int, limit: Int, in database: Database) async throws -> ([ActivityRecord], total: Int) {
        try await database.withConnection { db in
            let total = try await db.raw("SELECT COUNT(*) AS n FROM activity_log WHERE user_id = \(bind: userId)")
                .first(decodingColumn: "n", as: Int.self) ?? 0
            let rows = try await db.raw(
                """
                SELECT * FROM activity_log WHERE user_id = \(bind: userId)
                ORDER BY at DESC, id DESC LIMIT \(literal: limit) OFFSET \(literal: (page - 1) * limit)
                """
            ).all(decoding: ActivityRecord.self, with: AccountStore.rowDecoder)
            return (rows, total)
        }
    }

}

/// One event of the audit log with the email of its user: what `repairminder audit` prints.
public struct AuditEntry: Sendable, Codable, Equatable {
    public let email: String
    public let event: ActivityEvent
}

extension Database {
    /// Every event since `since` (seconds since 1970), oldest first, of `email`'s user or of
    /// everyone: the operators' view of the activity log (`repairminder audit`).
    public func activity(email: String?, since: Double) async throws -> [AuditEntry] {
        try await withConnection { db in
            let who: SQLQueryString = email.map { "AND u.email = \(bind: $0)" } ?? ""
            let rows = try await db.raw(
                """
                SELECT a.*, u.email AS user_email FROM activity_log a JOIN users u ON u.id = a.user_id
                WHERE a.at >= \(bind: since) \(who) ORDER BY a.at, a.id
                """
            ).all()
            return try rows.map { row in
                AuditEntry(
                    email: try row.decode(column: "user_email", as: String.self),
                    event: try row.decode(model: ActivityRecord.self, with: AccountStore.rowDecoder).wire)
            }
        }
    }
}
