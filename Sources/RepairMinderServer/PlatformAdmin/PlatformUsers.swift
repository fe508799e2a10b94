import Foundation
import RepairMinderModels
import SQLKit

/// Staff accounts of every shop, for the platform's administrators (docs/API.md §15): found by
/// address or name, and signed out of every session.
struct PlatformUsers: Sendable {
    let database: Database
    let revocation: SessionRevocation

    /// One page of staff accounts, by address, whose address or names contain `query`
    /// (case-insensitively); and how many there are.
    func page(query: String?, companyId: String? = nil, page: Int, limit: Int) async throws -> ([PlatformUser], total: Int) {
        var conditions: [SQLQueryString] = ["u.deleted_at IS NULL"]
        if let query, !query.isEmpty {
            let pattern = "%" + TeamStore.likeEscaped(query.lowercased()) + "%"
            conditions.append("""
                (LOWER(u.email) LIKE \(bind: pattern) ESCAPE '\\'
                OR LOWER(COALESCE(u.first_name, '') || ' ' || COALESCE(u.last_name, '')) LIKE \(bind: pattern) ESCAPE '\\')
                """)
        }
        if let companyId, !companyId.isEmpty { conditions.append("u.company_id = \(bind: companyId)") }
        let filter = conditions.joined(separator: " AND ")
        return try await database.withConnection { db in
            let total = try await db.raw("SELECT COUNT(*) AS n FROM users u WHERE \(filter)").first(decodingColumn: "n", as: Int.self) ?? 0
            let rows = try await db.raw(
                """
                SELECT u.id, u.email, u.first_name, u.last_name, u.role, u.company_id, c.name AS company_name, u.is_active,
                    u.archived, u.last_login
                FROM users u JOIN companies c ON c.id = u.company_id WHERE \(filter)
                ORDER BY u.email, u.id LIMIT \(bind: limit) OFFSET \(bind: (page - 1) * limit)
                """
            ).all()
            return (try rows.map(Self.user), total)
        }
    }

    /// Ends every session of staff account `id`, in any shop; how many were live. Recorded as
    /// the team's `sessions_revoked_by_admin` of the member's shop, with the platform
    /// administrator as the actor.
    func signOut(_ id: String, by staff: AuthenticatedStaff, device: ClientDevice, now: Double) async throws -> Int {
        try await revocation.transaction { changing in
            guard
                let companyId = try await changing.db.raw("SELECT company_id FROM users WHERE id = \(bind: id)")
                    .first(decodingColumn: "company_id", as: String.self)
            else { throw APIError.notFound }
            let revoked = try await changing.revokeAll(ofUser: id, reason: "signed_out_by_platform_admin", device: device, now: now)
            try await ActivityLog.record(
                .sessionsRevokedByAdmin, userId: id, device: device, at: now, actor: staff, companyId: companyId, on: changing.db)
            changing.changedUser(id)
            return revoked
        }
    }

    private static func user(_ row: any SQLRow) throws -> PlatformUser {
        PlatformUser(
            id: try row.decode(column: "id", as: String.self), email: try row.decode(column: "email", as: String.self),
            firstName: try row.decode(column: "first_name", as: String?.self), lastName: try row.decode(column: "last_name", as: String?.self),
            role: UserRole(rawValue: try row.decode(column: "role", as: String.self)),
            companyId: try row.decode(column: "company_id", as: String.self),
            companyName: try row.decode(column: "company_name", as: String.self),
            isActive: try row.decode(column: "is_active", as: Int.self) != 0, archived: try row.decode(column: "archived", as: Int.self) != 0,
            lastLogin: try row.decode(column: "last_login", as: Double?.self).map(Timestamp.iso8601))
    }
}
