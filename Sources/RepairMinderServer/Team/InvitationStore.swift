import Foundation
import RepairMinderModels
import SQLKit

/// Invitations to join a shop (docs/API.md §12.3, §12.4): a 256-bit token whose SHA-256 alone
/// is stored, mailed as a link, usable once within 7 days. Each write and its mail commit
/// together; accepting uses the invitation up in the statement that finds it, so of two
/// concurrent accepts exactly one gets it.
struct InvitationStore: Sendable {
    let database: Database
    let mail: MailQueue

    static let lifetime: Double = 7 * 24 * 3600
    /// The least time between two mails of one invitation.
    static let resendSpacing: Double = 60

    /// A row of `invitations` with its sender's address.
    struct Row: Decodable, Sendable {
        var id: String
        var companyId: String
        var email: String
        var firstName: String
        var lastName: String
        var role: String
        var acceptable: Int
        var status: String
        var invitedBy: String?
        var invitedByEmail: String?
        var createdAt: Double
        var expiresAt: Double
        var lastSentAt: Double

        func wire(now: Double) -> Invitation {
            let status = status == "pending" && expiresAt <= now ? InvitationStatus.expired : InvitationStatus(rawValue: status)
            return Invitation(
                id: id, email: email, firstName: firstName, lastName: lastName, role: UserRole(rawValue: role), status: status,
                invitedBy: invitedBy.map { ActorSummary(id: $0, email: invitedByEmail ?? "") },
                createdAt: Timestamp.iso8601(createdAt), expiresAt: Timestamp.iso8601(expiresAt))
        }
    }

    private static let columns: SQLQueryString = "i.*, u.email AS invited_by_email"
    private static let joined: SQLQueryString = "invitations i LEFT JOIN users u ON u.id = i.invited_by"

    /// The link an invitee follows.
    static func link(token: String, serverURL: String) -> String {
        (serverURL.hasSuffix("/") ? String(serverURL.dropLast()) : serverURL) + "/invite?token=" + token
    }

    /// Creates the invitation and queues its mail in one transaction: the link, or, for an
    /// address that already has a staff account, a mail saying so (the answer is the same).
    func invite(
        _ request: InvitationRequest, by caller: AuthenticatedStaff, serverURL: String, device: ClientDevice, now: Double
    ) async throws -> Invitation {
        let token = RandomToken.hex(byteCount: 32), id = OrderedID.next(), companyId = caller.company.id
        let mail = self.mail
        let row = try await database.transaction { db in
            try await Self.expireLapsed(companyId: companyId, email: request.email, now: now, on: db)
            let hasAccount = try await db.raw("SELECT id FROM users WHERE email = \(bind: request.email)").first() != nil
            let inserted = try await Self.insertPending(
                id: id, companyId: companyId, request, tokenHash: SecretHashing.tokenHash(token), acceptable: !hasAccount,
                invitedBy: caller.user.id, now: now, on: db)
            guard inserted else { throw APIError.invitationPending }
            let row = try await Self.row(id: id, companyId: companyId, on: db)
            try await mail.seal(Self.message(for: row, token: token, caller: caller, serverURL: serverURL, now: now), now: now)
                .enqueue(on: db)
            try await ActivityLog.record(
                .invitationSent, userId: caller.user.id, device: device, at: now, actor: caller, detail: ["email": request.email],
                on: db)
            return row
        }
        mail.deliverSoon()
        return row.wire(now: now)
    }

    /// Marks the address's lapsed invitations to the shop expired: an expired invitation no
    /// longer holds the address.
    static func expireLapsed(companyId: String, email: String, now: Double, on db: any SQLDatabase) async throws {
        try await db.raw(
            """
            UPDATE invitations SET status = 'expired', ended_at = \(bind: now)
            WHERE company_id = \(bind: companyId) AND email = \(bind: email) AND status = 'pending' AND expires_at <= \(bind: now)
            """
        ).run()
    }

    /// Inserts a pending invitation of `request` (its role as given: the operators' may be
    /// `master_admin`) living `lifetime` from `now`; false when the address has one pending in
    /// the shop already. `invitedBy` is nil for an operator's (`repairminder admin create`).
    static func insertPending(
        id: String, companyId: String, _ request: InvitationRequest, tokenHash: String, acceptable: Bool, invitedBy: String?,
        now: Double, on db: any SQLDatabase
    ) async throws -> Bool {
        try await db.raw(
            """
            INSERT INTO invitations (id, company_id, email, first_name, last_name, role, token_hash, acceptable, status,
                invited_by, created_at, expires_at, last_sent_at)
            VALUES (\(bind: id), \(bind: companyId), \(bind: request.email), \(bind: request.firstName), \(bind: request.lastName),
                \(bind: request.role), \(bind: tokenHash), \(bind: acceptable ? 1 : 0), 'pending',
                \(bind: invitedBy), \(bind: now), \(bind: now + lifetime), \(bind: now))
            ON CONFLICT DO NOTHING RETURNING id
            """
        ).first() != nil
    }

    /// The shop's pending invitations, newest first.
    func pending(companyId: String, now: Double) async throws -> [Invitation] {
        try await database.withConnection { db in
            try await db.raw(
                """
                SELECT \(Self.columns) FROM \(Self.joined)
                WHERE i.company_id = \(bind: companyId) AND i.status = 'pending' AND i.expires_at > \(bind: now)
                ORDER BY i.created_at DESC, i.id DESC
                """
            ).all(decoding: Row.self, with: AccountStore.rowDecoder).map { $0.wire(now: now) }
        }
    }

    /// A new link for a pending invitation (the old one dies) and 7 more days, at most one
    /// mail a minute: 429 with the wait otherwise.
    func resend(
        id: String, by caller: AuthenticatedStaff, serverURL: String, device: ClientDevice, now: Double
    ) async throws -> Invitation {
        let token = RandomToken.hex(byteCount: 32), companyId = caller.company.id, mail = self.mail
        let row = try await database.transaction { db in
            let renewed = try await db.raw(
                """
                UPDATE invitations SET token_hash = \(bind: SecretHashing.tokenHash(token)), last_sent_at = \(bind: now),
                    expires_at = \(bind: now + Self.lifetime)
                WHERE id = \(bind: id) AND company_id = \(bind: companyId) AND status = 'pending' AND expires_at > \(bind: now)
                    AND last_sent_at <= \(bind: now - Self.resendSpacing)
                RETURNING id
                """
            ).first()
            let row = try await Self.row(id: id, companyId: companyId, on: db)
            guard renewed != nil else {
                guard row.status == "pending", row.expiresAt > now else { throw APIError.invitationNotFound }
                throw APIError.rateLimited(retryAfter: row.lastSentAt + Self.resendSpacing - now)
            }
            try await mail.seal(Self.message(for: row, token: token, caller: caller, serverURL: serverURL, now: now), now: now)
                .enqueue(on: db)
            try await ActivityLog.record(
                .invitationSent, userId: caller.user.id, device: device, at: now, actor: caller, detail: ["email": row.email], on: db)
            return row
        }
        mail.deliverSoon()
        return row.wire(now: now)
    }

    /// Revokes a pending invitation: its link dies.
    func revoke(id: String, by caller: AuthenticatedStaff, device: ClientDevice, now: Double) async throws {
        let companyId = caller.company.id
        try await database.transaction { db in
            guard
                let email = try await db.raw(
                    """
                    UPDATE invitations SET status = 'revoked', ended_at = \(bind: now)
                    WHERE id = \(bind: id) AND company_id = \(bind: companyId) AND status = 'pending' AND expires_at > \(bind: now)
                    RETURNING email
                    """
                ).first(decodingColumn: "email", as: String.self)
            else { throw APIError.invitationNotFound }
            try await ActivityLog.record(
                .invitationRevoked, userId: caller.user.id, device: device, at: now, actor: caller, detail: ["email": email], on: db)
        }
    }

    /// Ends the pending invitations `userId` sent: an admin who is switched off or demoted
    /// cannot come back through an invitation they sent themselves.
    static func revokeSent(by userId: String, now: Double, on db: any SQLDatabase) async throws {
        try await db.raw(
            """
            UPDATE invitations SET status = 'revoked', ended_at = \(bind: now)
            WHERE invited_by = \(bind: userId) AND status = 'pending'
            """
        ).run()
    }

    /// What the link of `token` offers, if it can still be accepted; nothing is changed.
    func preview(token: String, serverURL: String, now: Double) async throws -> InvitationPreview {
        try await database.withConnection { db in
            guard
                let found = try await db.raw(
                    """
                    SELECT i.email, i.first_name, i.last_name, i.role, i.expires_at, c.*
                    FROM invitations i JOIN companies c ON c.id = i.company_id
                    WHERE i.token_hash = \(bind: SecretHashing.tokenHash(token)) AND i.status = 'pending' AND i.acceptable = 1
                        AND i.expires_at > \(bind: now) AND NOT EXISTS (SELECT 1 FROM users u WHERE u.email = i.email)
                    """
                ).first()
            else { throw APIError.invitationInvalid }
            let company = try found.decode(model: CompanyRecord.self, with: AccountStore.spelledOutColumns)
            return InvitationPreview(
                email: try found.decode(column: "email", as: String.self),
                firstName: try found.decode(column: "first_name", as: String.self),
                lastName: try found.decode(column: "last_name", as: String.self),
                role: UserRole(rawValue: try found.decode(column: "role", as: String.self)),
                company: company.customerWire(serverURL: serverURL),
                expiresAt: Timestamp.iso8601(try found.decode(column: "expires_at", as: Double.self)))
        }
    }

    /// Uses the invitation of `token` up and creates its member, in one transaction; the new
    /// user's id. A token that cannot be accepted (any more), or one to an address that has an
    /// account by now (another shop's invitation was accepted first), is 404 `INVITATION_INVALID`.
    static func accept(
        token: String, passwordHash: String?, firstName: String?, lastName: String?, device: ClientDevice, now: Double,
        on db: any SQLDatabase
    ) async throws -> String {
        guard
            let invitation = try await db.raw(
                """
                UPDATE invitations SET status = 'accepted', ended_at = \(bind: now)
                WHERE token_hash = \(bind: SecretHashing.tokenHash(token)) AND status = 'pending' AND acceptable = 1
                    AND expires_at > \(bind: now) AND NOT EXISTS (SELECT 1 FROM users u WHERE u.email = invitations.email)
                RETURNING id, company_id, email, first_name, last_name, role, invited_by
                """
            ).first()
        else { throw APIError.invitationInvalid }
        let userId = UUID().uuidString.lowercased()
        let created = try await db.raw(
            """
            INSERT INTO users (id, email, first_name, last_name, company_id, role, is_active, archived, magic_link_enabled,
                password_hash, created_at, updated_at)
            VALUES (\(bind: userId), \(bind: try invitation.decode(column: "email", as: String.self)),
                \(bind: firstName ?? (try invitation.decode(column: "first_name", as: String.self))),
                \(bind: lastName ?? (try invitation.decode(column: "last_name", as: String.self))),
                \(bind: try invitation.decode(column: "company_id", as: String.self)),
                \(bind: try invitation.decode(column: "role", as: String.self)), 1, 0, 1, \(bind: passwordHash), \(bind: now), \(bind: now))
            ON CONFLICT (email) DO NOTHING RETURNING id
            """
        ).first()
        // An account made for the address in the meantime (a race with the check above).
        guard created != nil else { throw APIError.invitationInvalid }
        try await ActivityLog.record(.invitationAccepted, userId: userId, device: device, at: now, on: db)
        return userId
    }

    private static func row(id: String, companyId: String, on db: any SQLDatabase) async throws -> Row {
        guard
            let row = try await db.raw(
                "SELECT \(columns) FROM \(joined) WHERE i.id = \(bind: id) AND i.company_id = \(bind: companyId)"
            ).first(decoding: Row.self, with: AccountStore.rowDecoder)
        else { throw APIError.invitationNotFound }
        return row
    }

    /// The invitation's mail: its link, or, when the address had an account, how to sign in.
    private static func message(
        for row: Row, token: String, caller: AuthenticatedStaff, serverURL: String, now: Double
    ) -> MailMessage {
        guard row.acceptable != 0 else {
            return TeamEmail.accountExists(to: row.email, shop: caller.company.name, signInURL: serverURL, now: now)
        }
        let inviter = [caller.user.firstName, caller.user.lastName].compactMap { $0 }.joined(separator: " ")
        return TeamEmail.invitation(
            to: row.email, shop: caller.company.name, invitedBy: inviter.isEmpty ? caller.user.email : inviter,
            role: UserRole(rawValue: row.role), link: link(token: token, serverURL: serverURL), validDays: Int(lifetime / 86_400),
            now: now)
    }
}
