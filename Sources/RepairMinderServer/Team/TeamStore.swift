import Foundation
import RepairMinderModels
import SQLKit

/// A shop's members as its admins see and change them (docs/API.md §12). Every read and write
/// names the shop, so another shop's member is not found. Changes that must leave the shop an
/// active admin run one at a time per shop on every instance (`serializedOn`), so two admins
/// demoting each other at the same moment cannot both win.
struct TeamStore: Sendable {
    let database: Database
    let revocation: SessionRevocation

    /// Which members a list shows.
    enum StatusFilter: String, CaseIterable {
        case active, deactivated, archived, all

        var condition: SQLQueryString {
            switch self {
            case .active: "AND u.is_active = 1 AND u.archived = 0"
            case .deactivated: "AND u.is_active = 0 AND u.archived = 0"
            case .archived: "AND u.archived = 1"
            case .all: ""
            }
        }
    }

    /// A member's row and how they sign in.
    struct MemberRow: Sendable {
        let user: UserRecord
        let totpEnabled: Bool
        let passkeyCount: Int

        func wire(companyStatus: CompanyStatus) -> TeamMember {
            TeamMember(
                user: user.wire(companyStatus: companyStatus), hasPassword: user.passwordHash != nil, totpEnabled: totpEnabled,
                passkeyCount: passkeyCount, archived: user.archived != 0)
        }
    }

    private static let memberColumns: SQLQueryString = """
        u.*, (SELECT COUNT(*) FROM passkeys p WHERE p.user_id = u.id) AS passkey_count,
            (SELECT COUNT(*) FROM totp_credentials t WHERE t.user_id = u.id AND t.enabled_at IS NOT NULL) AS totp_count
        """

    private static func member(_ row: any SQLRow) throws -> MemberRow {
        MemberRow(
            user: try row.decode(model: UserRecord.self, with: AccountStore.spelledOutColumns),
            totpEnabled: try row.decode(column: "totp_count", as: Int.self) > 0,
            passkeyCount: try row.decode(column: "passkey_count", as: Int.self))
    }

    /// One page of the shop's members, newest first, and how many match in all. `query`
    /// matches the address and the names, case-insensitively, anywhere in them.
    func members(
        companyId: String, status: StatusFilter, query: String?, page: Int, limit: Int
    ) async throws -> ([MemberRow], total: Int) {
        let matching: SQLQueryString
        if let query, !query.isEmpty {
            let pattern = "%" + Self.likeEscaped(query.lowercased()) + "%"
            matching = """
                AND (LOWER(u.email) LIKE \(bind: pattern) ESCAPE '\\' OR LOWER(COALESCE(u.first_name, '')) LIKE \(bind: pattern) ESCAPE '\\'
                    OR LOWER(COALESCE(u.last_name, '')) LIKE \(bind: pattern) ESCAPE '\\'
                    OR LOWER(COALESCE(u.first_name, '') || ' ' || COALESCE(u.last_name, '')) LIKE \(bind: pattern) ESCAPE '\\')
                """
        } else {
            matching = ""
        }
        return try await database.withConnection { db in
            let total = try await db.raw(
                "SELECT COUNT(*) AS n FROM users u WHERE u.company_id = \(bind: companyId) AND u.deleted_at IS NULL \(status.condition) \(matching)"
            ).first(decodingColumn: "n", as: Int.self) ?? 0
            let rows = try await db.raw(
                """
                SELECT \(Self.memberColumns) FROM users u WHERE u.company_id = \(bind: companyId) AND u.deleted_at IS NULL \(status.condition) \(matching)
                ORDER BY u.created_at DESC, u.id DESC LIMIT \(literal: limit) OFFSET \(literal: (page - 1) * limit)
                """
            ).all()
            return (try rows.map(Self.member), total)
        }
    }

    /// The member `id` of the shop, or 404.
    func member(id: String, companyId: String) async throws -> MemberRow {
        try await database.withConnection { db in try await Self.member(id: id, companyId: companyId, on: db) }
    }

    static func member(id: String, companyId: String, on db: any SQLDatabase) async throws -> MemberRow {
        guard
            let row = try await db.raw(
                "SELECT \(memberColumns) FROM users u WHERE u.id = \(bind: id) AND u.company_id = \(bind: companyId) AND u.deleted_at IS NULL"
            ).first()
        else { throw APIError.memberNotFound }
        return try member(row)
    }

    /// `value` with LIKE's wildcards and the escape character taken literally.
    static func likeEscaped(_ value: String) -> String {
        var escaped = ""
        for character in value {
            if character == "\\" || character == "%" || character == "_" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    /// Runs `change` on member `id` of the caller's shop, one change per shop at a time, after
    /// the rules every change keeps: the caller may still manage the team as the database has
    /// it now (403: an admin demoted by a change that committed a moment ago loses the race),
    /// the member exists in the shop (404), is not a platform administrator (403), and, for
    /// `notOnYourself`, is not the caller (409). The caller cache forgets the member once it
    /// commits; the answer is the member as changed.
    func change(
        _ id: String, by caller: AuthenticatedStaff, notOnYourself: Bool, now: Double,
        _ change: @Sendable (MemberRow, Revocations) async throws -> Void
    ) async throws -> MemberRow {
        let companyId = caller.company.id
        return try await revocation.transaction(serializedOn: "team:" + companyId) { changing in
            try await Self.stillManages(caller, on: changing.db)
            let member = try await Self.member(id: id, companyId: companyId, on: changing.db)
            guard member.user.userRole != .masterAdmin else { throw APIError.platformAdminUntouchable }
            if notOnYourself, member.user.id == caller.user.id { throw APIError.cannotChangeSelf }
            try await change(member, changing)
            changing.changedUser(id)
            try await changing.db.raw("UPDATE users SET updated_at = \(bind: now) WHERE id = \(bind: id)").run()
            return try await Self.member(id: id, companyId: companyId, on: changing.db)
        }
    }

    /// Refuses (403) a caller who, as stored now, is no longer an active member of their shop
    /// with `users:manage`: read inside the shop's serialized transaction, after any change
    /// that was made before it.
    static func stillManages(_ caller: AuthenticatedStaff, on db: any SQLDatabase) async throws {
        let row = try await db.raw(
            "SELECT role, is_active, archived, company_id FROM users WHERE id = \(bind: caller.user.id)"
        ).first()
        guard let row, try row.decode(column: "company_id", as: String.self) == caller.company.id,
            try row.decode(column: "is_active", as: Int.self) == 1, try row.decode(column: "archived", as: Int.self) == 0,
            UserRole(rawValue: try row.decode(column: "role", as: String.self)).may(.usersManage, inCompany: caller.company.id)
        else { throw APIError.noPermission }
    }

    /// Refuses a change that would leave the shop without an active admin: `member` is one and
    /// no other active member is.
    static func keepsAnAdmin(besides member: MemberRow, on db: any SQLDatabase) async throws {
        guard member.user.canSignIn, [.admin, .masterAdmin].contains(member.user.userRole) else { return }
        let others = try await db.raw(
            """
            SELECT COUNT(*) AS n FROM users WHERE company_id = \(bind: member.user.companyId) AND id <> \(bind: member.user.id)
                AND role IN ('admin', 'master_admin') AND is_active = 1 AND archived = 0
            """
        ).first(decodingColumn: "n", as: Int.self) ?? 0
        if others == 0 { throw APIError.lastAdmin }
    }

    // MARK: Writes of a change (`change`'s closure runs them on its transaction)

    /// The member's fields a change may set; nil leaves one as it is.
    struct MemberFields: Sendable {
        var role: UserRole?
        var firstName: String?
        var lastName: String?
        var magicLinkEnabled: Bool?
    }

    static func write(_ fields: MemberFields, of userId: String, on db: any SQLDatabase) async throws {
        var update = db.update("users").where("id", .equal, userId)
        if let role = fields.role { update = update.set("role", to: role.rawValue) }
        if let firstName = fields.firstName { update = update.set("first_name", to: firstName) }
        if let lastName = fields.lastName { update = update.set("last_name", to: lastName) }
        if let enabled = fields.magicLinkEnabled { update = update.set("magic_link_enabled", to: enabled ? 1 : 0) }
        try await update.run()
    }

    /// Switches the member's sign-in off (`false`, a leaver) or on again.
    static func setActive(_ active: Bool, userId: String, on db: any SQLDatabase) async throws {
        try await db.update("users").set("is_active", to: active ? 1 : 0).where("id", .equal, userId).run()
    }

    /// For good: the member never signs in again and the address stays taken.
    static func archive(userId: String, on db: any SQLDatabase) async throws {
        try await db.update("users").set("archived", to: 1).where("id", .equal, userId).run()
    }

    /// Removes the member's authenticator app, recovery codes and passkeys; one without a
    /// password is then allowed emailed codes, which are all they have left.
    static func removeFactors(userId: String, on db: any SQLDatabase) async throws {
        for table in ["totp_credentials", "recovery_codes", "passkeys"] {
            try await db.delete(from: table).where("user_id", .equal, userId).run()
        }
        try await db.update("users").set("magic_link_enabled", to: 1).where("id", .equal, userId).where("password_hash", .is, SQLLiteral.null)
            .run()
    }
}
