import Foundation
import RepairMinderModels
import SQLKit

/// The platform's own company: where its administrators (`master_admin`, docs/API.md §15) are
/// members, made on first use by `repairminder admin create` (or `serve --demo`), active, and
/// requiring a passkey of its staff from the start (§13's `requiredFactor: "passkey"`).
///
/// It is known by a fixed id, not by a column: every row and token that names a company
/// (`users.company_id`, an access token's `companyId`, the caller cache's company) then says
/// whether it is the platform's with no join and no migration, and the primary key makes
/// sure there is one. The id is shaped like every other company id (a UUID) for services that
/// parse them. Its name is only what people read, and a shop may have taken it first.
public enum PlatformOwnCompany {
    /// The company's id, the same in every deployment.
    public static let id = "00000000-0000-4000-8000-000000000001"

    /// The names it takes, the first free one: a registered shop may hold the first already.
    static let names = ["Repair Minder platform", "Repair Minder platform (operators)"]

    /// Whether `companyId` is the platform's own company.
    public static func contains(_ companyId: String) -> Bool { companyId == id }

    /// Makes the company unless it exists, and says whether it did: active, a passkey required
    /// of its staff with `enrolmentGraceDays` to enrol one (0 for real: a platform administrator
    /// is restricted to enrolment until they have one), magic links off (§13.3's advice: whoever
    /// holds a mailbox must not be able to enrol their own passkey). Its creation is recorded as
    /// `actor`'s `company_created` (with an `actor`: the tests' demo set has none). An existing
    /// company is left as it is: its policy is its administrators' from then on. Call it in the
    /// transaction that needs the company.
    static func ensure(enrolmentGraceDays: Int, actor: String?, now: Double, on db: any SQLDatabase) async throws -> Bool {
        for name in names {
            if try await exists(on: db) { return false }
            let inserted = try await db.raw(
                """
                INSERT INTO companies (id, name, status, required_factor, allow_magic_link, enrolment_grace_days,
                    required_factor_since, passkey_required_since, created_at, updated_at)
                VALUES (\(bind: id), \(bind: name), 'active', \(bind: RequiredFactor.passkey.rawValue), 0, \(bind: enrolmentGraceDays),
                    \(bind: now), \(bind: now), \(bind: now), \(bind: now))
                ON CONFLICT DO NOTHING RETURNING id
                """
            ).first()
            guard inserted != nil else { continue }
            guard let actor else { return true }
            try await ActivityLog.record(
                .companyCreated, companyId: id, actor: actor, at: now,
                detail: [
                    "name": name, "requiredFactor": RequiredFactor.passkey.rawValue, "allowMagicLink": "false",
                    "enrolmentGraceDays": String(enrolmentGraceDays),
                ], on: db)
            return true
        }
        if try await exists(on: db) { return false }
        throw CompanyAdministrationError(
            description: "shops hold every name of the platform's own company (\(names.joined(separator: ", "))): rename one first")
    }

    private static func exists(on db: any SQLDatabase) async throws -> Bool {
        try await db.raw("SELECT id FROM companies WHERE id = \(bind: id)").first() != nil
    }
}
