import Foundation
import RepairMinderModels
import SQLKit

/// Reads and changes shops' security policies (docs/API.md §13.1), which live on their
/// `companies` rows. Every change is audited (`policy_changed`, naming the admin and what
/// changed) in its transaction, and this instance's `cache` forgets the shop at once.
///
/// Sign-ins read the policy as stored (`current`); the bearer check and refresh, the hot paths,
/// read it through `cache` (`cached`), at most its lifetime old on any instance.
struct SecurityPolicyStore: Sendable {
    let database: Database
    let cache: ShopPolicyCache

    /// The policy of `companyId` as stored now (the defaults for a shop that is gone).
    func current(companyId: String) async throws -> ShopPolicy {
        try await database.withConnection { db in try await Self.policy(companyId: companyId, on: db)?.0 } ?? .defaults
    }

    /// The policy of `companyId` as stored now, with the admin who changed it last.
    func policy(companyId: String) async throws -> (ShopPolicy, updatedBy: ActorSummary?) {
        guard let found = try await database.withConnection({ db in try await Self.policy(companyId: companyId, on: db) }) else {
            throw APIError.notFound
        }
        return found
    }

    private static func policy(companyId: String, on db: any SQLDatabase) async throws -> (ShopPolicy, updatedBy: ActorSummary?)? {
        guard
            let row = try await db.raw(
                """
                SELECT c.required_factor, c.allow_magic_link, c.enrolment_grace_days, c.session_max_web_days,
                    c.session_max_mobile_days, c.required_factor_since, c.passkey_required_since, c.policy_updated_at,
                    c.policy_updated_by,
                    u.email AS updated_by_email
                FROM companies c LEFT JOIN users u ON u.id = c.policy_updated_by
                WHERE c.id = \(bind: companyId)
                """
            ).first()
        else { return nil }
        let policy = try row.decode(model: ShopPolicy.self, with: AccountStore.spelledOutColumns)
        let email = try row.decode(column: "updated_by_email", as: String?.self)
        return (policy, policy.updatedBy.flatMap { id in email.map { ActorSummary(id: id, email: $0) } })
    }

    /// The policy of `companyId` read at most `ShopPolicyCache.lifetime` ago.
    func cached(companyId: String) async throws -> ShopPolicy {
        if let known = cache.value(for: companyId) { return known }
        let generation = cache.currentGeneration, readAt = cache.now()
        let policy = try await current(companyId: companyId)
        cache.remember(policy, for: companyId, readAt: readAt, generation: generation)
        return policy
    }

    /// Applies `update` (already checked against the server's lifetimes) for `admin`: one
    /// transaction, serialized per shop, so two admins' changes are audited against what each
    /// really replaced. Returns the policy now, and whether anything changed.
    func change(_ update: SecurityPolicyUpdate, by admin: AuthenticatedStaff, device: ClientDevice, now: Double) async throws
        -> (ShopPolicy, updatedBy: ActorSummary?)
    {
        let companyId = admin.company.id
        defer { cache.forget(companyId) }
        return try await database.transaction(serializedOn: "policy:" + companyId) { db in
            guard let (before, updatedBy) = try await Self.policy(companyId: companyId, on: db) else { throw APIError.notFound }
            var after = before
            after.requiredFactor = update.requiredFactor ?? before.requiredFactor
            after.allowMagicLink = update.allowMagicLink ?? before.allowMagicLink
            after.enrolmentGraceDays = update.enrolmentGraceDays ?? before.enrolmentGraceDays
            after.sessionMaxWebDays = update.sessionMaxLifetimeDays?.web ?? before.sessionMaxWebDays
            after.sessionMaxMobileDays = update.sessionMaxLifetimeDays?.mobile ?? before.sessionMaxMobileDays
            let changes = before.changes(to: after)
            guard !changes.isEmpty else { return (before, updatedBy) }
            // A requirement starts its grace period from now for whom it is new (`enrolmentDeadline`).
            if before.requiredFactor == .notRequired, after.requiredFactor != .notRequired { after.requiredFactorSince = now }
            if before.requiredFactor != .passkey, after.requiredFactor == .passkey { after.passkeyRequiredSince = now }
            after.updatedAt = now
            after.updatedBy = admin.user.id
            try await db.raw(
                """
                UPDATE companies SET required_factor = \(bind: after.requiredFactor.rawValue),
                    allow_magic_link = \(bind: after.allowMagicLink ? 1 : 0), enrolment_grace_days = \(bind: after.enrolmentGraceDays),
                    session_max_web_days = \(bind: after.sessionMaxWebDays), session_max_mobile_days = \(bind: after.sessionMaxMobileDays),
                    required_factor_since = \(bind: after.requiredFactorSince),
                    passkey_required_since = \(bind: after.passkeyRequiredSince), policy_updated_at = \(bind: now),
                    policy_updated_by = \(bind: admin.user.id)
                WHERE id = \(bind: companyId)
                """
            ).run()
            try await ActivityLog.record(
                .policyChanged, userId: admin.user.id, device: device, at: now, actor: admin, detail: changes, on: db)
            return (after, ActorSummary(id: admin.user.id, email: admin.user.email))
        }
    }
}

extension ShopPolicy {
    /// What differs in `other`, for the audit: `<field>.from` and `<field>.to` of each changed
    /// field, as the wire spells them (a lifetime the shop never set is `server`).
    func changes(to other: ShopPolicy) -> [String: String] {
        func days(_ value: Int?) -> String { value.map(String.init) ?? "server" }
        let fields: [(String, String, String)] = [
            ("requiredFactor", requiredFactor.rawValue, other.requiredFactor.rawValue),
            ("allowMagicLink", String(allowMagicLink), String(other.allowMagicLink)),
            ("enrolmentGraceDays", String(enrolmentGraceDays), String(other.enrolmentGraceDays)),
            ("sessionMaxLifetimeDays.web", days(sessionMaxWebDays), days(other.sessionMaxWebDays)),
            ("sessionMaxLifetimeDays.mobile", days(sessionMaxMobileDays), days(other.sessionMaxMobileDays)),
        ]
        var changes: [String: String] = [:]
        for (name, from, to) in fields where from != to {
            changes[name + ".from"] = from
            changes[name + ".to"] = to
        }
        return changes
    }
}
