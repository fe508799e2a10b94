import Foundation
import RepairMinderModels
import SQLKit

/// The platform's shops (docs/API.md §15): the list its administrators page through, and the
/// status changes `repairminder company` makes, with the acting administrator as the actor.
struct PlatformAdministration: Sendable {
    let database: Database

    /// A status change an administrator asks for, with the statuses it starts from.
    enum Transition: String, Sendable, CaseIterable {
        case approve, suspend, reactivate

        var target: CompanyStatus {
            switch self {
            case .approve, .reactivate: .active
            case .suspend: .suspended
            }
        }

        var from: [CompanyStatus] {
            switch self {
            case .approve: [.pendingApproval]
            case .suspend: [.active, .pendingApproval]
            case .reactivate: [.suspended]
            }
        }

        /// The 409's words for a shop in `status`.
        func refusal(_ status: String) -> String {
            switch self {
            case .approve: "Only a shop pending approval can be approved; this one is \(Self.spoken(status))"
            case .suspend: "This shop is suspended already"
            case .reactivate: "Only a suspended shop can be reactivated; this one is \(Self.spoken(status))"
            }
        }

        private static func spoken(_ status: String) -> String { status.replacingOccurrences(of: "_", with: " ") }
    }

    /// One page of shops, those pending approval first, then by name; and how many there are.
    func page(status: CompanyStatus?, query: String?, page: Int, limit: Int) async throws -> ([PlatformCompany], total: Int) {
        var conditions: [SQLQueryString] = ["1 = 1"]
        if let status { conditions.append("c.status = \(bind: status.rawValue)") }
        if let query, !query.isEmpty, let key = ClientKeys.key(query) {
            // A shop's name contains the text, whatever its (ASCII) case: a few thousand shops
            // at most, read without an index.
            conditions.append("lower(c.name) LIKE \(bind: "%" + TeamStore.likeEscaped(key) + "%") ESCAPE '\\'")
        }
        let filter = conditions.joined(separator: " AND ")
        return try await database.withConnection { db in
            let total = try await db.raw("SELECT COUNT(*) AS n FROM companies c WHERE \(filter)").first(decodingColumn: "n", as: Int.self) ?? 0
            let rows = try await db.raw(
                """
                SELECT \(Self.columns) FROM companies c WHERE \(filter)
                ORDER BY CASE WHEN c.status = 'pending_approval' THEN 0 ELSE 1 END, c.name, c.id
                LIMIT \(bind: limit) OFFSET \(bind: (page - 1) * limit)
                """
            ).all().map(Self.company)
            return (rows, total)
        }
    }

    /// Shop `id` with its counts and owner; nil when there is none.
    func company(id: String) async throws -> PlatformCompany? {
        try await database.withConnection { db in
            try await db.raw("SELECT \(Self.columns) FROM companies c WHERE c.id = \(bind: id)").first().map(Self.company)
        }
    }

    /// Applies `transition` to shop `id`, recording the operator's event with `staff` as the
    /// actor in the same transaction; 404 for an unknown shop, 409 for a status it does not
    /// start from, and for the administrator's own shop (suspending it would lock them out).
    func apply(_ transition: Transition, to id: String, by staff: AuthenticatedStaff, now: Double) async throws -> PlatformCompany {
        try await database.transaction(serializedOn: "company-administration") { db in
            guard let before = try await db.raw("SELECT status FROM companies WHERE id = \(bind: id)").first(decodingColumn: "status", as: String.self)
            else { throw APIError.notFound }
            if transition == .suspend, id == staff.company.id {
                throw APIError(.companyStatusConflict, "You cannot suspend your own shop")
            }
            guard transition.from.map(\.rawValue).contains(before) else {
                throw APIError(.companyStatusConflict, transition.refusal(before))
            }
            try await db.raw(
                "UPDATE companies SET status = \(bind: transition.target.rawValue), updated_at = \(bind: now) WHERE id = \(bind: id)"
            ).run()
            try await ActivityLog.record(
                .statusChange(from: before, to: transition.target), companyId: id, actor: staff.user.email, actorUserId: staff.user.id,
                at: now, on: db)
            guard let changed = try await db.raw("SELECT \(Self.columns) FROM companies c WHERE c.id = \(bind: id)").first().map(Self.company)
            else { throw APIError.notFound }
            return changed
        }
    }

    /// A shop's row with its counts and its first admin.
    private static let columns: SQLQueryString = """
        c.id, c.name, c.status, c.created_at, c.client_count,
        (SELECT COUNT(*) FROM users u WHERE u.company_id = c.id AND u.deleted_at IS NULL) AS staff_count,
        (SELECT u.email FROM users u WHERE u.company_id = c.id AND u.role IN ('admin', 'master_admin') AND u.deleted_at IS NULL
            ORDER BY u.created_at, u.id LIMIT 1) AS owner_email
        """

    private static func company(_ row: any SQLRow) throws -> PlatformCompany {
        PlatformCompany(
            id: try row.decode(column: "id", as: String.self), name: try row.decode(column: "name", as: String.self),
            status: try row.decode(column: "status", as: String.self), staffCount: try row.decode(column: "staff_count", as: Int.self),
            clientCount: try row.decode(column: "client_count", as: Int.self),
            createdAt: Timestamp.iso8601(try row.decode(column: "created_at", as: Double.self)),
            ownerEmail: try row.decode(column: "owner_email", as: String?.self))
    }
}
