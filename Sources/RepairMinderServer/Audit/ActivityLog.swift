import Foundation
import RepairMinderModels
import SQLKit

/// A row of the activity log (table `activity_log`).
struct ActivityRecord: Decodable, Sendable {
    var id: String
    /// The staff member the event concerns; nil for an operator's event about a shop.
    var userId: String?
    /// The shop an operator's event concerns (`OperatorEventType`).
    var companyId: String?
    /// Who did it, for operator events: the OS user that ran `repairminder`.
    var actor: String?
    var type: String
    var at: Double
    var ipAddress: String?
    var userAgent: String?
    var sessionId: String?
    /// The admin who acted on the user (the team's events, docs/API.md §12).
    var actorUserId: String?
    /// That admin's address, when the query joined it (`actor_email`).
    var actorEmail: String?
    /// What changed, as a JSON object of strings.
    var detail: String?

    var wire: ActivityEvent {
        ActivityEvent(
            id: id, type: ActivityEventType(rawValue: type), at: Timestamp.iso8601(at), ipAddress: ipAddress, userAgent: userAgent,
            sessionId: sessionId, actor: actorUserId.map { ActorSummary(id: $0, email: actorEmail ?? "") },
            detail: detail.flatMap { try? JSONDecoder().decode([String: String].self, from: Data($0.utf8)) })
    }
}

/// The audit log of docs/API.md §9.4: one row per security event of a staff user, written on
/// the connection (the transaction) that makes the change it records, so an event is logged
/// exactly when its change commits. It holds who, what, when and from where: never a
/// password, code or token. Kept for good (the purge leaves it alone).
enum ActivityLog {
    private static let detailEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    /// `detail` as the column keeps it: a JSON object, its keys sorted.
    static func detailJSON(_ detail: [String: String]) throws -> String {
        String(decoding: try detailEncoder.encode(detail), as: UTF8.self)
    }

    /// Records `type` for `userId`, from `device` (the request's, when there is one), about
    /// `sessionId`; with `actor`, done to them by that admin, `detail` saying what changed. The
    /// event is the actor's shop's unless `companyId` names the member's (a platform
    /// administrator acting on another shop's member).
    static func record(
        _ type: ActivityEventType, userId: String, sessionId: String? = nil, device: ClientDevice? = nil, at now: Double,
        actor: AuthenticatedStaff? = nil, companyId: String? = nil, detail: [String: String]? = nil, on db: any SQLDatabase
    ) async throws {
        let userAgent = device?.userAgent.map { String($0.prefix(SessionStore.userAgentLimit)) }
        let encodedDetail = try detail.map(Self.detailJSON)
        try await db.raw(
            """
            INSERT INTO activity_log (id, user_id, company_id, actor_user_id, type, at, ip_address, user_agent, session_id, detail)
            VALUES (\(bind: OrderedID.next()), \(bind: userId), \(bind: companyId ?? actor?.company.id), \(bind: actor?.user.id),
                \(bind: type.rawValue), \(bind: now), \(bind: device?.ipAddress), \(bind: userAgent), \(bind: sessionId),
                \(bind: encodedDetail))
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

    /// One page of `userId`'s events, newest first, and how many there are in all. Operators'
    /// events about the account (`actor` set, `OperatorEventType`) are left out: the API's
    /// event types are a published list, and those are for `repairminder audit`.
    static func page(userId: String, page: Int, limit: Int, in database: Database) async throws -> ([ActivityRecord], total: Int) {
        try await database.withConnection { db in
            let total = try await db.raw("SELECT COUNT(*) AS n FROM activity_log WHERE user_id = \(bind: userId) AND actor IS NULL")
                .first(decodingColumn: "n", as: Int.self) ?? 0
            let rows = try await db.raw(
                """
                SELECT a.*, au.email AS actor_email FROM activity_log a LEFT JOIN users au ON au.id = a.actor_user_id
                WHERE a.user_id = \(bind: userId) AND a.actor IS NULL
                ORDER BY a.at DESC, a.id DESC LIMIT \(literal: limit) OFFSET \(literal: (page - 1) * limit)
                """
            ).all(decoding: ActivityRecord.self, with: AccountStore.rowDecoder)
            return (rows, total)
        }
    }

}

/// One event of the audit log with what it concerns: what `repairminder audit` prints.
public struct AuditEntry: Sendable, Codable, Equatable {
    /// The staff member's email; nil for an operator's event about a shop.
    public let email: String?
    /// The shop's name, for an operator's event about a shop.
    public let company: String?
    /// Who did it, for an operator's event: the OS user that ran the command.
    public let actor: String?
    public let event: ActivityEvent
}

extension Database {
    /// Every event since `since` (seconds since 1970), oldest first, of `email`'s user or of
    /// everyone, operators' events about shops included when no email is given: the
    /// operators' view of the activity log (`repairminder audit`).
    public func activity(email: String?, since: Double) async throws -> [AuditEntry] {
        try await withConnection { db in
            let who: SQLQueryString = email.map { "AND u.email = \(bind: $0)" } ?? ""
            let rows = try await db.raw(
                """
                SELECT a.*, u.email AS user_email, c.name AS company_name FROM activity_log a
                LEFT JOIN users u ON u.id = a.user_id LEFT JOIN companies c ON c.id = a.company_id
                WHERE a.at >= \(bind: since) \(who) ORDER BY a.at, a.id
                """
            ).all()
            return try rows.map { row in
                let record = try row.decode(model: ActivityRecord.self, with: AccountStore.rowDecoder)
                return AuditEntry(
                    email: try row.decode(column: "user_email", as: String?.self),
                    company: try row.decode(column: "company_name", as: String?.self),
                    actor: record.actor, event: record.wire)
            }
        }
    }
}
