import Foundation
import RepairMinderModels
import SQLKit

/// Deleting one's own account (docs/API.md §9.5), for staff and for customers. What is erased
/// is the person: names, addresses, where they signed in from, their factors and sessions. What
/// stays is the fact, under an id that names nobody: the audit log's events, a shop's record of
/// a client it served. The address can be used again at once.
struct AccountDeletion: Sendable {
    let revocation: SessionRevocation

    /// How recent a sign-in stands in for a password the account does not have.
    static let freshSignIn: Double = 10 * 60
    /// `actor` of the audit event: the account's owner did it, not an operator.
    static let actor = "account owner"

    // MARK: Staff

    /// Deletes `staff`'s account, whose password (if any) the caller has checked. One change per
    /// shop at a time with the team's (`team:` key), so the shop-keeps-an-admin rule reads the
    /// members as they are: the last active admin of a shop with other active members is refused,
    /// and the shop's only active member closes the shop with their account (`closeShop`).
    func deleteStaff(_ staff: AuthenticatedStaff, closeShop: Bool, now: Double) async throws {
        let user = staff.user, companyId = staff.company.id
        try await revocation.transaction(serializedOn: "team:" + companyId) { deleting in
            let db = deleting.db
            // Of two deletions racing, the second finds the account gone (as its session is).
            guard
                try await db.raw("SELECT deleted_at FROM users WHERE id = \(bind: user.id)")
                    .first(decodingColumn: "deleted_at", as: Double?.self) == .some(nil)
            else { throw APIError.unauthorized }
            if user.passwordHash == nil {
                let signedInAt = try await db.raw("SELECT created_at FROM sessions WHERE id = \(bind: staff.claims.sid)")
                    .first(decodingColumn: "created_at", as: Double.self)
                guard let signedInAt, now - signedInAt <= Self.freshSignIn else { throw APIError.reauthenticationRequired }
            }
            if let standing = try await Self.lastAdmin(user, companyId: companyId, on: db) {
                guard standing == .alone else { throw APIError.lastAdminCannotLeave }
                guard companyId != PlatformOwnCompany.id else { throw APIError.lastPlatformAdminCannotLeave }
                guard closeShop else { throw APIError.shopCloseRequired }
                try await Self.close(companyId: companyId, now: now, on: db)
            }
            try await deleting.revokeAll(ofUser: user.id, reason: "account_deleted", device: nil, now: now)
            // And what connected apps were given (docs/API.md §16): their sessions and the consents.
            try await deleting.revokeAll(ofUser: user.id, realm: .oauth, reason: "account_deleted", device: nil, now: now)
            try await db.raw("DELETE FROM oauth_consents WHERE user_id = \(bind: user.id)").run()
            try await Self.erase(user, now: now, on: db)
            deleting.changedUser(user.id)
            try await ActivityLog.record(.accountDeleted, companyId: companyId, userId: user.id, actor: Self.actor, at: now, on: db)
        }
    }

    /// How `user` is the shop's last active admin: beside other active members, or alone.
    enum LastAdmin { case withOthers, alone }

    /// nil when the shop keeps an active admin without `user`.
    private static func lastAdmin(_ user: UserRecord, companyId: String, on db: any SQLDatabase) async throws -> LastAdmin? {
        guard [.admin, .masterAdmin].contains(user.userRole) else { return nil }
        let row = try await db.raw(
            """
            SELECT COUNT(*) AS members, COALESCE(SUM(CASE WHEN role IN ('admin', 'master_admin') THEN 1 ELSE 0 END), 0) AS admins
            FROM users WHERE company_id = \(bind: companyId) AND id <> \(bind: user.id) AND is_active = 1 AND archived = 0
            """
        ).first()
        guard let row, try row.decode(column: "admins", as: Int.self) == 0 else { return nil }
        return try row.decode(column: "members", as: Int.self) == 0 ? .alone : .withOthers
    }

    /// The shop leaves service with its last member: suspended, as an operator would, recorded so.
    private static func close(companyId: String, now: Double, on db: any SQLDatabase) async throws {
        try await db.raw("UPDATE companies SET status = 'suspended', updated_at = \(bind: now) WHERE id = \(bind: companyId)").run()
        try await ActivityLog.record(
            .companySuspended, companyId: companyId, actor: actor, at: now, detail: ["reason": "its only member deleted their account"],
            on: db)
    }

    /// Empties the user's row and removes what hangs off it; their events lose where they came
    /// from, and what an admin wrote about them (names in `member_updated`, say).
    private static func erase(_ user: UserRecord, now: Double, on db: any SQLDatabase) async throws {
        for table in ["totp_credentials", "recovery_codes", "passkeys", "passkey_user_handles", "push_preferences", "login_challenges"] {
            try await db.delete(from: table).where("user_id", .equal, user.id).run()
        }
        try await db.raw("DELETE FROM device_tokens WHERE owner_kind = 'staff' AND owner_id = \(bind: user.id)").run()
        try await forgetAddress(user.email, on: db)
        try await db.raw(
            """
            UPDATE invitations SET email = \(bind: "deleted:" + user.id), first_name = '', last_name = ''
            WHERE LOWER(email) = \(bind: user.email.lowercased()) AND status <> 'pending'
            """
        ).run()
        try await db.raw(
            """
            UPDATE activity_log SET ip_address = NULL, user_agent = NULL,
                detail = CASE WHEN actor_user_id IS NULL OR actor_user_id <> user_id THEN NULL ELSE detail END
            WHERE user_id = \(bind: user.id)
            """
        ).run()
        try await db.raw(
            """
            UPDATE users SET email = \(bind: "deleted:" + user.id), first_name = NULL, last_name = NULL, password_hash = NULL,
                is_active = 0, archived = 1, magic_link_enabled = 0, deleted_at = \(bind: now), updated_at = \(bind: now)
            WHERE id = \(bind: user.id)
            """
        ).run()
    }

    /// The emailed codes kept by address alone. (The limits' counters, `request_windows`, end
    /// with their windows.)
    private static func forgetAddress(_ email: String, on db: any SQLDatabase) async throws {
        try await db.raw("DELETE FROM magic_codes WHERE LOWER(email) = \(bind: email.lowercased())").run()
    }

    /// The shop's events about a client (created, updated, invited, signed out: `ClientStore`,
    /// `ClientPortal`) name its address in their detail: it goes, the rest stays. Read by the
    /// shop's index, so a big audit log is not scanned whole in the deletion's transaction.
    private static func forgetAddressInEvents(aboutClient clientId: String, companyId: String, on db: any SQLDatabase) async throws {
        let types = [ActivityEventType.clientCreated, .clientUpdated, .clientPortalInvited, .clientSessionsRevoked].map(\.rawValue)
        let rows = try await db.raw(
            """
            SELECT id, detail FROM activity_log
            WHERE company_id = \(bind: companyId) AND type IN (\(binds: types)) AND detail LIKE \(bind: "%" + clientId + "%")
            """
        ).all()
        for row in rows {
            let id = try row.decode(column: "id", as: String.self)
            guard let text = try row.decode(column: "detail", as: String?.self),
                var detail = try? JSONDecoder().decode([String: String].self, from: Data(text.utf8)), detail["clientId"] == clientId
            else { continue }
            detail["email"] = nil
            try await db.raw("UPDATE activity_log SET detail = \(bind: try ActivityLog.detailJSON(detail)) WHERE id = \(bind: id)").run()
        }
    }

    // MARK: Customers

    /// Deletes the customer `customer` signed in as, in every shop their address is a client of:
    /// each record becomes an anonymous deleted client (the shop's other records may name its
    /// id), its sessions end, and the shop's audit says a customer deleted their account. A
    /// customer has no password: the sign-in must be less than 10 minutes old.
    func deleteCustomer(_ customer: AuthenticatedCustomer, now: Double) async throws {
        guard now - Double(customer.claims.issuedAt) <= Self.freshSignIn else { throw APIError.reauthenticationRequired }
        let key = ClientKeys.key(customer.client.email)
        try await revocation.transaction { deleting in
            let db = deleting.db
            let erased = try await db.raw(
                """
                UPDATE clients SET email = 'deleted:' || id, email_key = NULL, deleted_email = NULL, first_name = NULL,
                    first_name_key = NULL, last_name = NULL, last_name_key = NULL, name_key = NULL, phone = NULL, phone_digits = NULL,
                    notes = NULL, portal_enabled = 0, deleted_at = \(bind: now), updated_at = \(bind: now)
                WHERE email_key = \(bind: key) AND deleted_at IS NULL
                RETURNING id, company_id
                """
            ).all().map { (try $0.decode(column: "id", as: String.self), try $0.decode(column: "company_id", as: String.self)) }
            for (clientId, companyId) in erased {
                try await ClientStore.countClients(-1, companyId: companyId, on: db)
                try await db.raw(
                    """
                    UPDATE customer_sessions SET revoked_at = COALESCE(revoked_at, \(bind: now)), user_agent = NULL, ip_address = NULL
                    WHERE client_id = \(bind: clientId)
                    """
                ).run()
                try await Self.forgetAddressInEvents(aboutClient: clientId, companyId: companyId, on: db)
                try await ActivityLog.record(
                    .customerAccountDeleted, companyId: companyId, actor: Self.actor, at: now, detail: ["clientId": clientId], on: db)
                try await db.raw(
                    "DELETE FROM device_tokens WHERE session_id IN (SELECT id FROM customer_sessions WHERE client_id = \(bind: clientId))"
                ).run()
            }
            try await Self.forgetAddress(customer.client.email, on: db)
        }
    }
}
