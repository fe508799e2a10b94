import Foundation
import SQLKit

/// A customer session: what a customer token is backed by, so logout can revoke it.
struct CustomerSession: Decodable, Sendable {
    var id: String
    var clientId: String
    var companyId: String
    var expiresAt: Double
    var revokedAt: Double?
}

/// Clients (customers of companies) and their sessions.
struct CustomerStore: Sendable {
    let database: Database

    /// Every company `email` is a client of (only `companyId`'s when given), with the client row,
    /// ordered by company name.
    func memberships(email: String, companyId: String? = nil) async throws -> [(ClientRecord, CompanyRecord)] {
        let clients = try await database.withConnection { db in
            // A deleted client or one whose portal is switched off is no membership (docs/API.md §14).
            try await db.raw("SELECT * FROM clients WHERE email = \(bind: email) AND deleted_at IS NULL AND portal_enabled <> 0")
                .all(decoding: ClientRecord.self, with: AccountStore.rowDecoder)
        }
        let accounts = AccountStore(database: database)
        var result: [(ClientRecord, CompanyRecord)] = []
        for client in clients where companyId == nil || client.companyId == companyId {
            if let company = try await accounts.company(id: client.companyId) { result.append((client, company)) }
        }
        return result.sorted { $0.1.name.localizedCaseInsensitiveCompare($1.1.name) == .orderedAscending }
    }

    func client(id: String) async throws -> ClientRecord? {
        try await database.withConnection { db in
            try await db.raw("SELECT * FROM clients WHERE id = \(bind: id)")
                .first(decoding: ClientRecord.self, with: AccountStore.rowDecoder)
        }
    }

    /// Starts a customer session on `device` and records the client's portal sign-in
    /// (`last_portal_login`, docs/API.md §14).
    func createSession(clientId: String, companyId: String, device: ClientDevice, now: Double, ttl: Double) async throws -> CustomerSession {
        let session = CustomerSession(
            id: UUID().uuidString.lowercased(), clientId: clientId, companyId: companyId, expiresAt: now + ttl, revokedAt: nil)
        try await database.transaction { db in
            try await db.raw(
                """
                INSERT INTO customer_sessions (id, client_id, company_id, is_mobile, user_agent, ip_address, created_at, expires_at)
                VALUES (\(bind: session.id), \(bind: clientId), \(bind: companyId), \(bind: device.isMobile ? 1 : 0), \(bind: device.userAgent),
                    \(bind: device.ipAddress), \(bind: now), \(bind: session.expiresAt))
                """
            ).run()
            try await db.raw("UPDATE clients SET last_portal_login = \(bind: now) WHERE id = \(bind: clientId)").run()
        }
        return session
    }

    func session(id: String) async throws -> CustomerSession? {
        try await database.withConnection { db in
            try await db.raw("SELECT id, client_id, company_id, expires_at, revoked_at FROM customer_sessions WHERE id = \(bind: id)")
                .first(decoding: CustomerSession.self, with: AccountStore.rowDecoder)
        }
    }

    /// Ends a customer session and forgets the device tokens it registered.
    func revokeSession(id: String, now: Double) async throws {
        try await database.transaction { db in
            try await db.raw(
                "UPDATE customer_sessions SET revoked_at = \(bind: now) WHERE id = \(bind: id) AND revoked_at IS NULL"
            ).run()
            try await DeviceTokenStore.removeAll(ofSession: id, on: db)
        }
    }
}
