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

    func client(id: String, companyId: String) async throws -> ClientRecord {
        guard
            let found = try await database.withConnection({ db in
                try await db.raw("SELECT * FROM clients WHERE id = \(bind: id) AND company_id = \(bind: companyId) AND \(Self.live)")
                    .first(decoding: ClientRecord.self, with: AccountStore.rowDecoder)
            })
        else { throw APIError.notFound }
        return found
    }

    /// One page of the shop's clients, newest first, and how many there are.
    func page(companyId: String, query: String?, page: Int, limit: Int) async throws -> ([ClientRecord], total: Int) {
        let filter: SQLQueryString
        if let query, !query.isEmpty, let key = ClientKeys.key(query) {
            filter = " AND (email_key >= \(bind: key) AND email_key < \(bind: ClientKeys.upperBound(key)) OR first_name_key >= \(bind: key) AND first_name_key < \(bind: ClientKeys.upperBound(key)) OR last_name_key >= \(bind: key) AND last_name_key < \(bind: ClientKeys.upperBound(key)))"
        } else {
            filter = ""
        }
        return try await database.withConnection { db in
            let total = try await db.raw("SELECT COUNT(*) AS n FROM clients WHERE company_id = \(bind: companyId) AND \(Self.live)\(filter)")
                .first(decodingColumn: "n", as: Int.self) ?? 0
            let rows = try await db.raw(
                """
                SELECT * FROM clients WHERE company_id = \(bind: companyId) AND \(Self.live)\(filter)
                ORDER BY created_at DESC, id DESC LIMIT \(bind: limit) OFFSET \(bind: (page - 1) * limit)
                """
            ).all(decoding: ClientRecord.self, with: AccountStore.rowDecoder)
            return (rows, total)
        }
    }

    /// Up to `limit` clients whose address, first or last name, or phone digits start with
    /// `query`: one capped branch per key, each read by range on its own index.
    func search(companyId: String, query: String, limit: Int) async throws -> [ClientRecord] {
        guard let key = ClientKeys.key(query), !key.isEmpty else { return [] }
        let upper = ClientKeys.upperBound(key)
        var branches: [SQLQueryString] = ["email_key", "first_name_key", "last_name_key"].map { column in
            "SELECT id FROM clients WHERE company_id = \(bind: companyId) AND \(Self.live) AND \(unsafeRaw: column) >= \(bind: key) AND \(unsafeRaw: column) < \(bind: upper)"
        }
        if let digits = ClientKeys.digits(query), !digits.isEmpty {
            branches.append(
                "SELECT id FROM clients WHERE company_id = \(bind: companyId) AND \(Self.live) AND phone_digits >= \(bind: digits) AND phone_digits < \(bind: ClientKeys.upperBound(digits))")
        }
        let capped = branches
        return try await database.withConnection { db in
            var ids: [String] = []
            for branch in capped {
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

    /// Adds a client; 409 `CLIENT_EXISTS` when the address is already a live client of the shop.
    func create(_ body: ClientCreateRequest, by staff: AuthenticatedStaff, device: ClientDevice, now: Double) async throws
        -> ClientRecord
    {
        let id = UUID().uuidString.lowercased(), companyId = staff.company.id
        try await database.transaction(serializedOn: "clients:" + companyId) { db in
            try await Self.audit(.clientCreated, clientId: id, email: body.email, by: staff, device: device, now: now, on: db)
            try await Self.refuseTaken(body.email, companyId: companyId, except: nil, on: db)
            try await Self.insert(
                id: id, email: body.email, firstName: body.firstName, lastName: body.lastName, phone: body.phone, notes: body.notes,
                companyId: companyId, now: now, on: db)
        }
        return try await client(id: id, companyId: companyId)
    }

    /// Inserts a client row with its search keys, in the caller's transaction.
    static func insert(
        id: String, email: String, firstName: String?, lastName: String?, phone: String? = nil, notes: String? = nil,
        companyId: String, now: Double, on db: any SQLDatabase
    ) async throws {
        try await db.raw(
            """
            INSERT INTO clients (id, email, email_key, first_name, first_name_key, last_name, last_name_key, phone, phone_digits,
                notes, company_id, created_at, updated_at)
            VALUES (\(bind: id), \(bind: email), \(bind: ClientKeys.key(email)), \(bind: firstName), \(bind: ClientKeys.key(firstName)),
                \(bind: lastName), \(bind: ClientKeys.key(lastName)), \(bind: phone), \(bind: ClientKeys.digits(phone)), \(bind: notes),
                \(bind: companyId), \(bind: now), \(bind: now))
            """
        ).run()
    }

    private static func refuseTaken(_ email: String, companyId: String, except id: String?, on db: any SQLDatabase) async throws {
        if let existing = try await db.raw(
            """
            SELECT id FROM clients WHERE company_id = \(bind: companyId) AND email_key = \(bind: ClientKeys.key(email)) AND \(live)
            """
        ).first(decodingColumn: "id", as: String.self), existing != id {
            throw APIError.clientExists
        }
    }

    /// Applies `body` to the shop's client `id`.
    func update(id: String, _ body: ClientUpdateRequest, by staff: AuthenticatedStaff, device: ClientDevice, now: Double)
        async throws -> ClientRecord
    {
        let companyId = staff.company.id
        try await database.transaction(serializedOn: "clients:" + companyId) { db in
            guard
                let current = try await db.raw(
                    "SELECT * FROM clients WHERE id = \(bind: id) AND company_id = \(bind: companyId) AND \(Self.live)"
                ).first(decoding: ClientRecord.self, with: AccountStore.rowDecoder)
            else { throw APIError.notFound }
            if let email = body.email { try await Self.refuseTaken(email, companyId: companyId, except: id, on: db) }
            let email = body.email ?? current.email, firstName = body.firstName ?? current.firstName
            let lastName = body.lastName ?? current.lastName, phone = body.phone ?? current.phone
            let portal = body.portalEnabled.map { $0 ? 1 : 0 } ?? current.portalEnabled ?? 1
            try await db.raw(
                """
                UPDATE clients SET email = \(bind: email), email_key = \(bind: ClientKeys.key(email)), first_name = \(bind: firstName),
                    first_name_key = \(bind: ClientKeys.key(firstName)), last_name = \(bind: lastName),
                    last_name_key = \(bind: ClientKeys.key(lastName)), phone = \(bind: phone), phone_digits = \(bind: ClientKeys.digits(phone)),
                    notes = \(bind: body.notes ?? current.notes), portal_enabled = \(bind: portal), updated_at = \(bind: now)
                WHERE id = \(bind: id)
                """
            ).run()
            try await Self.audit(.clientUpdated, clientId: id, email: email, by: staff, device: device, now: now, on: db)
            // A portal switched off ends the client's sessions with the shop, as a delete does.
            if portal == 0 { try await Self.endSessions(clientId: id, now: now, on: db) }
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
                        email_key = NULL, updated_at = \(bind: now)
                    WHERE id = \(bind: id) AND company_id = \(bind: companyId) AND \(Self.live)
                    RETURNING id
                    """
                ).first() != nil
            else { throw APIError.notFound }
            try await Self.audit(.clientDeleted, clientId: id, email: nil, by: staff, device: device, now: now, on: db)
            try await Self.endSessions(clientId: id, now: now, on: db)
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

    private static func endSessions(clientId: String, now: Double, on db: any SQLDatabase) async throws {
        try await db.raw(
            "UPDATE customer_sessions SET revoked_at = \(bind: now) WHERE client_id = \(bind: clientId) AND revoked_at IS NULL"
        ).run()
    }
}
