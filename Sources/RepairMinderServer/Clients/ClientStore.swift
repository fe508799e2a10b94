import Foundation
import RepairMinderModels
import SQLKit

/// A shop's clients (docs/API.md §14): every statement names the shop, so another shop's
/// client is not found. The address is unique per shop among clients not deleted (the partial
/// index `clients_live_email`); a deleted client keeps its row, its address moved aside.
struct ClientStore: Sendable {
    let database: Database

    /// The rows not deleted, spelled as the partial indexes' condition so that they serve.
    private static let live: SQLQueryString = "deleted_at IS NULL"

    /// The shop's live client `id`: 404 for another shop's, a deleted or an unknown one.
    func client(id: String, companyId: String) async throws -> ClientRecord {
        try await database.withConnection { db in try await Self.live(id: id, companyId: companyId, on: db) }
    }

    /// `client(id:companyId:)` on the caller's connection or transaction.
    static func live(id: String, companyId: String, on db: any SQLDatabase) async throws -> ClientRecord {
        guard
            let found = try await db.raw("SELECT * FROM clients WHERE id = \(bind: id) AND company_id = \(bind: companyId) AND \(live)")
                .first(decoding: ClientRecord.self, with: AccountStore.rowDecoder)
        else { throw APIError.notFound }
        return found
    }

    /// The orders a page can take (`sort`), each read by its index.
    enum Order: String {
        case newestFirst = "-created_at"
        case name

        var sql: SQLQueryString {
            switch self {
            case .newestFirst: "created_at DESC, id DESC"
            case .name: "name_key, id"
            }
        }
    }

    /// One page of the shop's clients, in `order`, and how many there are; with `query`, only
    /// those `search` would match.
    func page(companyId: String, query: String?, order: Order, page: Int, limit: Int) async throws -> ([ClientRecord], total: Int) {
        let scope: SQLQueryString
        if let query, !query.isEmpty {
            let branches = Self.matching(query, companyId: companyId)
            guard !branches.isEmpty else { return ([], 0) }
            scope = "id IN (\(branches.joined(separator: " UNION ")))"
        } else {
            scope = "company_id = \(bind: companyId) AND \(Self.live)"
        }
        return try await database.withConnection { db in
            let total = try await db.raw("SELECT COUNT(*) AS n FROM clients WHERE \(scope)").first(decodingColumn: "n", as: Int.self) ?? 0
            // The page's ids first, from the order's index alone, then their rows: skipping
            // `offset` entries of an index is cheap, skipping rows is not.
            let rows = try await db.raw(
                """
                SELECT c.* FROM clients c JOIN (
                    SELECT id FROM clients WHERE \(scope) ORDER BY \(order.sql) LIMIT \(bind: limit) OFFSET \(bind: (page - 1) * limit)
                ) p ON c.id = p.id ORDER BY \(order.sql)
                """
            ).all(decoding: ClientRecord.self, with: AccountStore.rowDecoder)
            return (rows, total)
        }
    }

    /// Up to `limit` clients whose address, first or last name, or phone digits start with
    /// `query`: each branch capped and read by range on its own index.
    func search(companyId: String, query: String, limit: Int) async throws -> [ClientRecord] {
        let branches = Self.matching(query, companyId: companyId)
        guard !branches.isEmpty else { return [] }
        return try await database.withConnection { db in
            var ids: [String] = []
            for branch in branches {
                for id in try await db.raw("\(branch) LIMIT \(bind: limit)").all(decodingColumn: "id", as: String.self) where !ids.contains(id) {
                    ids.append(id)
                }
            }
            guard !ids.isEmpty else { return [] }
            return try await db.raw(
                "SELECT * FROM clients WHERE id IN (\(binds: ids)) ORDER BY email_key LIMIT \(bind: limit)"
            ).all(decoding: ClientRecord.self, with: AccountStore.rowDecoder)
        }
    }

    /// One `SELECT id` per key `query` can be a prefix of (the address, first and last name,
    /// and the phone's digits when it has any), each a range on its key's index; none for an
    /// empty query.
    private static func matching(_ query: String, companyId: String) -> [SQLQueryString] {
        guard let key = ClientKeys.key(query), !key.isEmpty else { return [] }
        func range(_ column: String, _ prefix: String) -> SQLQueryString {
            """
            SELECT id FROM clients WHERE company_id = \(bind: companyId) AND \(live) AND \(unsafeRaw: column) >= \(bind: prefix) \
            AND \(unsafeRaw: column) < \(bind: ClientKeys.upperBound(prefix))
            """
        }
        var branches = ["email_key", "first_name_key", "last_name_key"].map { range($0, key) }
        if let digits = ClientKeys.digits(query), !digits.isEmpty { branches.append(range("phone_digits", digits)) }
        return branches
    }

    /// Adds a client; 409 `CLIENT_EXISTS` when the address is already a live client of the shop.
    func create(_ body: ClientCreateRequest, by staff: AuthenticatedStaff, device: ClientDevice, now: Double) async throws
        -> ClientRecord
    {
        let id = UUID().uuidString.lowercased(), companyId = staff.company.id
        try await database.transaction(serializedOn: "clients:" + companyId) { db in
            try await Self.audit(.clientCreated, clientId: id, email: body.email, by: staff, device: device, now: now, on: db)
            try await Self.refuseTaken(body.email, companyId: companyId, except: nil, on: db)
            try await Self.insert(
                [NewClient(id: id, email: body.email, firstName: body.firstName, lastName: body.lastName, phone: body.phone, notes: body.notes)],
                companyId: companyId, now: now, on: db)
        }
        return try await client(id: id, companyId: companyId)
    }

    /// A client row to insert.
    struct NewClient: Sendable {
        var id = UUID().uuidString.lowercased()
        var email: String
        var firstName: String?
        var lastName: String?
        var phone: String?
        var notes: String?
    }

    /// Inserts client rows with their search keys in one statement, in the caller's transaction.
    static func insert(_ clients: [NewClient], companyId: String, now: Double, on db: any SQLDatabase) async throws {
        guard !clients.isEmpty else { return }
        let rows = clients.map { c -> SQLQueryString in
            """
            (\(bind: c.id), \(bind: c.email), \(bind: ClientKeys.key(c.email)), \(bind: c.firstName), \(bind: ClientKeys.key(c.firstName)),
            \(bind: c.lastName), \(bind: ClientKeys.key(c.lastName)), \(bind: ClientKeys.name(firstName: c.firstName, lastName: c.lastName, email: c.email)),
            \(bind: c.phone), \(bind: ClientKeys.digits(c.phone)), \(bind: c.notes), \(bind: companyId), \(bind: now), \(bind: now))
            """
        }
        try await db.raw(
            """
            INSERT INTO clients (id, email, email_key, first_name, first_name_key, last_name, last_name_key, name_key, phone,
                phone_digits, notes, company_id, created_at, updated_at)
            VALUES \(rows.joined(separator: ", "))
            """
        ).run()
    }

    private static func refuseTaken(_ email: String, companyId: String, except id: String?, on db: any SQLDatabase) async throws {
        if let existing = try await existingId(email, companyId: companyId, on: db), existing != id {
            throw APIError.clientExists(existing)
        }
    }

    /// The live client of the shop with `email`, whatever its case.
    static func existingId(_ email: String, companyId: String, on db: any SQLDatabase) async throws -> String? {
        try await db.raw(
            "SELECT id FROM clients WHERE company_id = \(bind: companyId) AND email_key = \(bind: ClientKeys.key(email)) AND \(live)"
        ).first(decodingColumn: "id", as: String.self)
    }

    /// Applies `body` to the shop's client `id`.
    func update(id: String, _ body: ClientUpdateRequest, by staff: AuthenticatedStaff, device: ClientDevice, now: Double)
        async throws -> ClientRecord
    {
        let companyId = staff.company.id
        try await database.transaction(serializedOn: "clients:" + companyId) { db in
            let current = try await Self.live(id: id, companyId: companyId, on: db)
            if let email = body.email { try await Self.refuseTaken(email, companyId: companyId, except: id, on: db) }
            let email = body.email ?? current.email, firstName = body.firstName ?? current.firstName
            let lastName = body.lastName ?? current.lastName, phone = body.phone ?? current.phone
            let portal = body.portalEnabled.map { $0 ? 1 : 0 } ?? current.portalEnabled ?? 1
            try await db.raw(
                """
                UPDATE clients SET email = \(bind: email), email_key = \(bind: ClientKeys.key(email)), first_name = \(bind: firstName),
                    first_name_key = \(bind: ClientKeys.key(firstName)), last_name = \(bind: lastName),
                    last_name_key = \(bind: ClientKeys.key(lastName)),
                    name_key = \(bind: ClientKeys.name(firstName: firstName, lastName: lastName, email: email)),
                    phone = \(bind: phone), phone_digits = \(bind: ClientKeys.digits(phone)),
                    notes = \(bind: body.notes ?? current.notes), portal_enabled = \(bind: portal), updated_at = \(bind: now)
                WHERE id = \(bind: id)
                """
            ).run()
            try await Self.audit(.clientUpdated, clientId: id, email: email, by: staff, device: device, now: now, on: db)
            // A portal switched off ends the client's sessions with the shop, as a delete does.
            if portal == 0 { try await ClientPortal.endSessions(clientId: id, now: now, on: db) }
        }
        return try await client(id: id, companyId: companyId)
    }

    /// Soft-deletes the shop's client `id`: its address moves aside (it may be added again) and
    /// its portal sessions end at once.
    func delete(id: String, by staff: AuthenticatedStaff, device: ClientDevice, now: Double) async throws {
        let companyId = staff.company.id
        try await database.transaction(serializedOn: "clients:" + companyId) { db in
            guard
                try await db.raw(
                    """
                    UPDATE clients SET deleted_at = \(bind: now), deleted_email = email, email = \(bind: "deleted:" + id),
                        email_key = NULL, name_key = NULL, updated_at = \(bind: now)
                    WHERE id = \(bind: id) AND company_id = \(bind: companyId) AND \(Self.live)
                    RETURNING id
                    """
                ).first() != nil
            else { throw APIError.notFound }
            try await Self.audit(.clientDeleted, clientId: id, email: nil, by: staff, device: device, now: now, on: db)
            try await ClientPortal.endSessions(clientId: id, now: now, on: db)
        }
    }

    /// The acting staff member's event, naming the client, in the change's transaction.
    private static func audit(
        _ type: ActivityEventType, clientId: String, email: String?, by staff: AuthenticatedStaff, device: ClientDevice, now: Double,
        on db: any SQLDatabase
    ) async throws {
        var detail = ["clientId": clientId]
        if let email { detail["email"] = email }
        try await ActivityLog.record(type, userId: staff.user.id, device: device, at: now, actor: staff, detail: detail, on: db)
    }
}
