import Foundation
import RepairMinderModels
import SQLKit

/// Who `repairminder admin create` invites, held to the API's invitation rules (docs/API.md
/// §12.3: `FieldRules.email`, `FieldRules.personName`) and normalised as they are.
public struct PlatformAdminInvitee: Sendable, Equatable {
    public let email: String
    public let firstName: String
    public let lastName: String

    /// The invitee as an invitation stores them (the address trimmed and lowercased, the names
    /// trimmed and composed), or the problem, naming the command's flag.
    public init(email: String, firstName: String, lastName: String) throws(FieldProblem) {
        self.email = try FieldRules.email.check(email, "--email")
        self.firstName = try FieldRules.personName.check(firstName, "--first-name")
        self.lastName = try FieldRules.personName.check(lastName, "--last-name")
    }
}

/// What `repairminder admin create` did.
public struct PlatformAdminInvitation: Sendable, Equatable {
    public let invitationId: String
    public let email: String
    public let companyId: String
    public let companyName: String
    /// Whether this invitation made the platform's own company.
    public let companyCreated: Bool
    /// The company's policy as it stands: what the invitee must enrol, and in how long.
    public let requiredFactor: String
    public let enrolmentGraceDays: Int
    /// ISO 8601 UTC: when the link stops working.
    public let expiresAt: String
    /// Whether a pending invitation to the same address was revoked for this one.
    public let reissued: Bool
}

/// Why `repairminder admin create` invited no one: nothing was changed.
public struct PlatformAdminInvitationError: Error, CustomStringConvertible {
    public let description: String
}

extension Database {
    /// Invites `invitee` to be a `master_admin` of the platform's own company (made now if there
    /// is none: `PlatformOwnCompany.ensure`), by the team's invitation flow (docs/API.md §12.4):
    /// the link is mailed through the durable queue, sealed with `encryptionKeys` (the server's,
    /// so that it can open and send it), and accepted like any invitation. One transaction holds
    /// the company, the invitation, its mail and the operator's events (`company_created`,
    /// `platform_admin_invited`, done by `actor`, the OS user), so a refusal leaves nothing.
    /// Refused: an address that has a staff account (of any shop: an address is one account),
    /// or a pending invitation to the platform, unless `reissuing` says to revoke that one
    /// (its link dies; `platform_admin_invitation_revoked`) and send a new one.
    public func invitePlatformAdmin(
        _ invitee: PlatformAdminInvitee, actor: String, serverURL: String, encryptionKeys: EncryptionKeys, reissuing: Bool = false,
        now: Double
    ) async throws -> PlatformAdminInvitation {
        let mail = MailQueue(database: self, encryptionKeys: encryptionKeys)
        let token = RandomToken.hex(byteCount: 32), invitationId = OrderedID.next(), companyId = PlatformOwnCompany.id
        let request = InvitationRequest(
            email: invitee.email, firstName: invitee.firstName, lastName: invitee.lastName, role: UserRole.masterAdmin.rawValue)
        // Serialized with the other commands that change shops (`setCompanyStatus`).
        return try await transaction(serializedOn: "company-administration") { db in
            if let account = try await db.raw(
                """
                SELECT u.role, c.name FROM users u JOIN companies c ON c.id = u.company_id WHERE u.email = \(bind: invitee.email)
                """
            ).first() {
                let role = UserRole(rawValue: try account.decode(column: "role", as: String.self))
                let shop = try account.decode(column: "name", as: String.self)
                throw PlatformAdminInvitationError(
                    description: "\(invitee.email) already has a staff account (\(role.spokenName) of \(shop)), and an address "
                        + "belongs to one account: invite another address")
            }
            let created = try await PlatformOwnCompany.ensure(enrolmentGraceDays: 0, actor: actor, now: now, on: db)
            try await InvitationStore.expireLapsed(companyId: companyId, email: invitee.email, now: now, on: db)
            let revoked = reissuing ? try await Self.revokePending(of: invitee.email, actor: actor, now: now, on: db) : false
            let inserted = try await InvitationStore.insertPending(
                id: invitationId, companyId: companyId, request, tokenHash: SecretHashing.tokenHash(token), acceptable: true,
                invitedBy: nil, now: now, on: db)
            guard inserted else { throw try await Self.pendingRefusal(of: invitee.email, on: db) }
            let company = try await Self.platformCompany(on: db)
            let link = InvitationStore.link(token: token, serverURL: serverURL)
            try await mail.seal(
                PlatformAdminEmail.invitation(
                    to: invitee.email, name: invitee.firstName, company: company.name, link: link,
                    validDays: Int(InvitationStore.lifetime / 86_400), policy: company.policy, now: now),
                now: now
            ).enqueue(on: db)
            try await ActivityLog.record(
                .platformAdminInvited, companyId: companyId, actor: actor, at: now, detail: ["email": invitee.email], on: db)
            return PlatformAdminInvitation(
                invitationId: invitationId, email: invitee.email, companyId: companyId, companyName: company.name,
                companyCreated: created, requiredFactor: company.policy.requiredFactor.rawValue,
                enrolmentGraceDays: company.policy.enrolmentGraceDays, expiresAt: Timestamp.iso8601(now + InvitationStore.lifetime),
                reissued: revoked)
        }
    }

    /// Revokes `email`'s pending invitation to the platform, recorded as done by `actor`; false
    /// when there was none.
    private static func revokePending(of email: String, actor: String, now: Double, on db: any SQLDatabase) async throws -> Bool {
        let revoked = try await db.raw(
            """
            UPDATE invitations SET status = 'revoked', ended_at = \(bind: now)
            WHERE company_id = \(bind: PlatformOwnCompany.id) AND email = \(bind: email) AND status = 'pending'
            RETURNING id
            """
        ).first() != nil
        if revoked {
            try await ActivityLog.record(
                .platformAdminInvitationRevoked, companyId: PlatformOwnCompany.id, actor: actor, at: now, detail: ["email": email], on: db)
        }
        return revoked
    }

    /// The refusal of an address with a pending invitation to the platform: until when, and what ends it.
    private static func pendingRefusal(of email: String, on db: any SQLDatabase) async throws -> PlatformAdminInvitationError {
        let expires = try await db.raw(
            """
            SELECT expires_at FROM invitations
            WHERE company_id = \(bind: PlatformOwnCompany.id) AND email = \(bind: email) AND status = 'pending'
            """
        ).first(decodingColumn: "expires_at", as: Double.self)
        return PlatformAdminInvitationError(
            description: "\(email) already has a pending invitation to the platform\(expires.map { ", until \(Timestamp.iso8601($0))" } ?? ""): "
                + "the invitee accepts it from the mail, or run this again with --reissue to send a new link (the earlier one stops working)")
    }

    /// The platform's own company's name and policy, as stored now.
    private static func platformCompany(on db: any SQLDatabase) async throws -> (name: String, policy: ShopPolicy) {
        guard
            let row = try await db.raw(
                """
                SELECT name, required_factor, allow_magic_link, enrolment_grace_days, session_max_web_days, session_max_mobile_days,
                    required_factor_since, passkey_required_since, policy_updated_at, policy_updated_by
                FROM companies WHERE id = \(bind: PlatformOwnCompany.id)
                """
            ).first()
        else { throw PlatformAdminInvitationError(description: "the platform's own company disappeared meanwhile") }
        return (try row.decode(column: "name", as: String.self), try row.decode(model: ShopPolicy.self, with: AccountStore.spelledOutColumns))
    }
}
