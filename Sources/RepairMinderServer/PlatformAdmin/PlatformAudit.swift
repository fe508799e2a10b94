import Foundation
import RepairMinderModels
import SQLKit

/// The whole audit log for the platform's administrators (docs/API.md §15.3): every shop's
/// staff events and the operators' changes, filtered by shop, type and time, newest first.
struct PlatformAudit: Sendable {
    let database: Database

    struct Filter: Sendable {
        var companyId: String?
        var type: String?
        var since: Double?
    }

    func page(_ filter: Filter, page: Int, limit: Int) async throws -> ([PlatformAuditEvent], total: Int) {
        var conditions: [SQLQueryString] = ["1 = 1"]
        // A shop's events: those recorded for it (operators', its admins'), and its staff's own.
        if let companyId = filter.companyId { conditions.append("(a.company_id = \(bind: companyId) OR u.company_id = \(bind: companyId))") }
        if let type = filter.type { conditions.append("a.type = \(bind: type)") }
        if let since = filter.since { conditions.append("a.at >= \(bind: since)") }
        let condition = conditions.joined(separator: " AND ")
        return try await database.withConnection { db in
            let total = try await db.raw(
                "SELECT COUNT(*) AS n FROM activity_log a LEFT JOIN users u ON u.id = a.user_id WHERE \(condition)"
            ).first(decodingColumn: "n", as: Int.self) ?? 0
            let rows = try await db.raw(
                """
                SELECT a.id, a.type, a.at, a.company_id, a.user_id, u.email AS user_email, COALESCE(au.email, a.actor) AS actor_name,
                    a.ip_address, a.user_agent, a.detail
                FROM activity_log a LEFT JOIN users u ON u.id = a.user_id LEFT JOIN users au ON au.id = a.actor_user_id
                WHERE \(condition) ORDER BY a.at DESC, a.id DESC LIMIT \(bind: limit) OFFSET \(bind: (page - 1) * limit)
                """
            ).all()
            return (try rows.map(Self.event), total)
        }
    }

    private static func event(_ row: any SQLRow) throws -> PlatformAuditEvent {
        PlatformAuditEvent(
            id: try row.decode(column: "id", as: String.self), type: try row.decode(column: "type", as: String.self),
            at: Timestamp.iso8601(try row.decode(column: "at", as: Double.self)),
            companyId: try row.decode(column: "company_id", as: String?.self), userId: try row.decode(column: "user_id", as: String?.self),
            userEmail: try row.decode(column: "user_email", as: String?.self), actor: try row.decode(column: "actor_name", as: String?.self),
            ipAddress: try row.decode(column: "ip_address", as: String?.self), userAgent: try row.decode(column: "user_agent", as: String?.self),
            detail: try row.decode(column: "detail", as: String?.self).flatMap {
                try? JSONDecoder().decode([String: String].self, from: Data($0.utf8))
            })
    }
}
