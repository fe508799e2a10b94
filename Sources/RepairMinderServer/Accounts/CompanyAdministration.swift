import Foundation
import RepairMinderModels
import SQLKit

/// A shop as operators see it (`repairminder company list`).
public struct CompanySummary: Sendable, Codable, Equatable {
    public let id: String
    public let name: String
    public let status: String
    /// ISO 8601 UTC.
    public let createdAt: String
    /// Staff accounts of the shop.
    public let staff: Int
}

/// Why an operator's company command could not be done.
public struct CompanyAdministrationError: Error, CustomStringConvertible {
    public let description: String
}

extension Database {
    /// Every shop, oldest first.
    public func companies() async throws -> [CompanySummary] {
        try await withConnection { db in try await CompanySummary.all(where: "1 = 1", on: db) }
    }

    /// Sets the status of the shop named by `idOrName` (its id, or its name in any case) and
    /// returns it with the status it had before. A change is recorded in the activity log, in
    /// the same transaction, as done by `actor` (the OS user running the command); setting the
    /// status a shop already has changes and records nothing. Staff see the change on their
    /// next request (docs/API.md §4: quarantine is checked on every request).
    public func setCompanyStatus(
        _ idOrName: String, to status: CompanyStatus, actor: String
    ) async throws -> (before: String, after: CompanySummary) {
        try await transaction(serializedOn: "company-administration") { db in
            let (id, before) = try await Self.company(named: idOrName, on: db)
            // Its administrators administer every shop: suspended, no one could (the API
            // refuses it as their own shop; the operator is refused here).
            if id == PlatformOwnCompany.id, status != .active {
                throw CompanyAdministrationError(
                    description: "the platform's own company administers every shop and cannot be \(status == .suspended ? "suspended" : "set to \(status.rawValue)")")
            }
            if before != status.rawValue {
                let now = Date().timeIntervalSince1970
                try await db.raw(
                    "UPDATE companies SET status = \(bind: status.rawValue), updated_at = \(bind: now) WHERE id = \(bind: id)"
                ).run()
                try await ActivityLog.record(.statusChange(from: before, to: status), companyId: id, actor: actor, at: now, on: db)
            }
            guard let summary = try await CompanySummary.all(where: "c.id = \(bind: id)", on: db).first else {
                throw CompanyAdministrationError(description: "the shop disappeared meanwhile")
            }
            return (before, summary)
        }
    }

    /// The id and status of the one shop `idOrName` names: an id exactly, else a name compared
    /// without regard to case (operators type "fixit phones" for "Fixit Phones"). Names are
    /// compared here, not in SQL, because SQLite's `lower()` folds ASCII only.
    private static func company(named idOrName: String, on db: any SQLDatabase) async throws -> (id: String, status: String) {
        let wanted = idOrName.trimmingCharacters(in: .whitespaces)
        let rows = try await db.raw("SELECT id, name, status FROM companies ORDER BY created_at, name").all()
        let shops = try rows.map { row in
            (id: try row.decode(column: "id", as: String.self), name: try row.decode(column: "name", as: String.self),
             status: try row.decode(column: "status", as: String.self))
        }
        if let shop = shops.first(where: { $0.id == wanted }) { return (shop.id, shop.status) }
        let named = shops.filter { $0.name.lowercased() == wanted.lowercased() }
        guard named.count == 1, let shop = named.first else {
            throw CompanyAdministrationError(
                description: named.isEmpty
                    ? "no shop has the id or name \"\(wanted)\" (see repairminder company list)"
                    : "\"\(wanted)\" names \(named.count) shops; give the id of one:\n"
                        + named.map { "  \($0.id)  \($0.name)" }.joined(separator: "\n"))
        }
        return (shop.id, shop.status)
    }
}

extension CompanySummary {
    /// The shops matching `condition` (on `companies c`), oldest first.
    static func all(where condition: SQLQueryString, on db: any SQLDatabase) async throws -> [CompanySummary] {
        try await db.raw(
            """
            SELECT c.id, c.name, c.status, c.created_at, (SELECT COUNT(*) FROM users u WHERE u.company_id = c.id AND u.deleted_at IS NULL) AS staff
            FROM companies c WHERE \(condition) ORDER BY c.created_at, c.name
            """
        ).all().map(CompanySummary.init(row:))
    }

    init(row: any SQLRow) throws {
        id = try row.decode(column: "id", as: String.self)
        name = try row.decode(column: "name", as: String.self)
        status = try row.decode(column: "status", as: String.self)
        createdAt = Timestamp.iso8601(try row.decode(column: "created_at", as: Double.self))
        staff = try row.decode(column: "staff", as: Int.self)
    }
}
