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

    /// Sets the status of the shop named by `idOrName` (its id, or its exact name) and returns
    /// it with the status it had before. Staff see the change on their next request
    /// (docs/API.md §4: quarantine is checked on every request).
    public func setCompanyStatus(_ idOrName: String, to status: CompanyStatus) async throws -> (before: String, after: CompanySummary) {
        try await transaction { db in
            let found = try await db.raw(
                "SELECT id, status FROM companies WHERE id = \(bind: idOrName) OR name = \(bind: idOrName)"
            ).all()
            guard found.count == 1, let row = found.first else {
                throw CompanyAdministrationError(
                    description: found.isEmpty
                        ? "no shop has the id or name \"\(idOrName)\" (see repairminder company list)"
                        : "\"\(idOrName)\" names more than one shop: use its id")
            }
            let id = try row.decode(column: "id", as: String.self), before = try row.decode(column: "status", as: String.self)
            try await db.raw(
                "UPDATE companies SET status = \(bind: status.rawValue), updated_at = \(bind: Date().timeIntervalSince1970) WHERE id = \(bind: id)"
            ).run()
            guard let summary = try await CompanySummary.all(where: "c.id = \(bind: id)", on: db).first else { throw CompanyAdministrationError(description: "the shop disappeared meanwhile") }
            return (before, summary)
        }
    }
}

extension CompanySummary {
    /// The shops matching `condition` (on `companies c`), oldest first.
    static func all(where condition: SQLQueryString, on db: any SQLDatabase) async throws -> [CompanySummary] {
        try await db.raw(
            """
            SELECT c.id, c.name, c.status, c.created_at, (SELECT COUNT(*) FROM users u WHERE u.company_id = c.id) AS staff
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
