import Foundation
import RepairMinderModels
import SQLKit

/// Loads a fixtures file: inserts what is new and updates what exists (companies by name,
/// users by email, clients by email and company), so loading the same file twice changes nothing
/// and loading a changed file updates those rows. Works beside a running server on the same file.
public struct FixtureLoader: Sendable {
    let database: Database
    let bcryptCost: Int
    let clock: ServerClock

    public init(database: Database, bcryptCost: Int, clock: ServerClock = .system) {
        self.database = database
        self.bcryptCost = bcryptCost
        self.clock = clock
    }

    /// Loads `file`. With an `actor` (the OS user running `repairminder seed`), every company
    /// and user the file creates or changes is recorded in the activity log as that actor's
    /// (`company_created`, `user_updated`, ...), in the loading transaction; a reload that
    /// changes nothing records nothing.
    public func load(_ file: FixtureFile, actor: String? = nil) async throws -> FixtureIDs {
        try Self.validate(file)
        // bcrypt is slow: hash outside the write transaction, keeping a user's existing hash
        // when it already matches, so a reload does not change the row.
        var passwordHashes: [String: String?] = [:]
        for user in file.users ?? [] {
            let email = user.email.trimmingCharacters(in: .whitespaces).lowercased()
            guard let password = user.password else {
                passwordHashes[email] = .some(nil)
                continue
            }
            let existing = try await database.withConnection { db in
                try await db.raw("SELECT password_hash FROM users WHERE email = \(bind: email)")
                    .first(decodingColumn: "password_hash", as: String?.self)
            }
            if let existing = existing ?? nil, PasswordDigest.verify(password, against: existing) == .match(outdated: false) {
                passwordHashes[email] = existing
            } else {
                passwordHashes[email] = PasswordDigest.hash(password, cost: UInt8(clamping: bcryptCost))
            }
        }
        let now = clock.now()
        let hashes = passwordHashes
        // Serialised: two seeds at once (two instances starting with --demo) must not both insert.
        return try await database.transaction(serializedOn: "fixtures") { db in
            var ids = FixtureIDs()
            for company in file.companies ?? [] {
                let (id, change) = try await Self.upsert(company, now: now, on: db)
                ids.companies[company.name] = id
                if let actor, let change {
                    try await ActivityLog.record(change == .created ? .companyCreated : .companyUpdated, companyId: id, actor: actor, at: now, on: db)
                }
            }
            for user in file.users ?? [] {
                let companyId = try await Self.companyId(user.company, known: ids.companies, on: db)
                let email = user.email.trimmingCharacters(in: .whitespaces).lowercased()
                let (id, change) = try await Self.upsert(
                    user, email: email, companyId: companyId, passwordHash: hashes[email] ?? nil, now: now, on: db)
                ids.users[email] = id
                if let actor, let change {
                    try await ActivityLog.record(
                        change == .created ? .userCreated : .userUpdated, companyId: companyId, userId: id, actor: actor, at: now, on: db)
                }
            }
            for client in file.clients ?? [] {
                let companyId = try await Self.companyId(client.company, known: ids.companies, on: db)
                let email = client.email.trimmingCharacters(in: .whitespaces).lowercased()
                ids.clients["\(email)@\(client.company)"] = try await Self.upsert(
                    client, email: email, companyId: companyId, now: now, on: db)
            }
            return ids
        }
    }

    /// Refuses a file `load` would refuse, without a database: `seed` checks before it creates
    /// one or copies a logo. Statuses, roles and email addresses must be valid, and passwords
    /// must pass the server's password policy.
    public static func validate(_ file: FixtureFile) throws {
        try checkValues(file)
        try checkPasswords(file)
    }

    private static func checkValues(_ file: FixtureFile) throws {
        for company in file.companies ?? [] {
            guard let status = company.status else { continue }
            guard CompanyStatus(known: status) != nil else {
                throw SettingsError("company \(company.name): status must be one of \(CompanyStatus.allCases.map(\.rawValue).joined(separator: ", "))")
            }
        }
        for user in file.users ?? [] {
            guard EmailAddress.isValid(user.email.trimmingCharacters(in: .whitespaces)) else {
                throw SettingsError("user \(user.email): not a valid email address")
            }
            if let role = user.role, UserRole(known: role) == nil {
                throw SettingsError("user \(user.email): role must be one of \(UserRole.allCases.map(\.rawValue).joined(separator: ", "))")
            }
        }
        for client in file.clients ?? [] where !EmailAddress.isValid(client.email.trimmingCharacters(in: .whitespaces)) {
            throw SettingsError("client \(client.email): not a valid email address")
        }
    }

    /// The rules the server applies at registration and reset (`PasswordPolicy`): a fixtures
    /// file is no way around them, or `seed` would put "password" on a real account.
    private static func checkPasswords(_ file: FixtureFile) throws {
        let users = (file.users ?? []).filter { $0.password != nil }
        guard !users.isEmpty else { return }
        let policy = try PasswordPolicy.bundled()
        for user in users {
            let email = user.email.trimmingCharacters(in: .whitespaces).lowercased()
            do {
                try policy.check(user.password ?? "", email: email)
            } catch {
                throw SettingsError("user \(email): password refused: \(error.message)")
            }
        }
    }

    private static func companyId(_ reference: String, known: [String: String], on db: any SQLDatabase) async throws -> String {
        if let id = known[reference] { return id }
        if let id = try await db.raw("SELECT id FROM companies WHERE name = \(bind: reference) OR id = \(bind: reference)")
            .first(decodingColumn: "id", as: String.self)
        {
            return id
        }
        throw SettingsError("no company named \"\(reference)\" in this file or the database")
    }

    /// What an upsert did to its row: nothing, when the file says what the row already holds.
    private enum Change { case created, updated }

    private static func upsert(_ company: FixtureFile.Company, now: Double, on db: any SQLDatabase) async throws -> (String, Change?) {
        let existing = try await db.raw("SELECT id FROM companies WHERE name = \(bind: company.name)")
            .first(decodingColumn: "id", as: String.self)
        let id = existing ?? UUID().uuidString.lowercased()
        let status = company.status ?? CompanyStatus.active.rawValue
        let currency = company.currencyCode ?? "GBP"
        let repair = company.vatRateRepair ?? "20.00", sale = company.vatRateDeviceSale ?? "20.00"
        let accessory = company.vatRateAccessory ?? "20.00", purchase = company.vatRateDevicePurchase ?? "0.00"
        if existing == nil {
            try await db.raw(
                """
                INSERT INTO companies (id, name, status, currency_code, vat_number, logo_url, vat_rate_repair,
                    vat_rate_device_sale, vat_rate_accessory, vat_rate_device_purchase, created_at, updated_at)
                VALUES (\(bind: id), \(bind: company.name), \(bind: status), \(bind: currency), \(bind: company.vatNumber),
                    \(bind: company.logoUrl), \(bind: repair), \(bind: sale), \(bind: accessory), \(bind: purchase), \(bind: now), \(bind: now))
                """
            ).run()
        } else {
            // `updated_at` moves only when something else changed, so a reload changes nothing.
            let changed = try await db.raw(
                """
                UPDATE companies SET status = \(bind: status), currency_code = \(bind: currency), vat_number = \(bind: company.vatNumber),
                    logo_url = \(bind: company.logoUrl), vat_rate_repair = \(bind: repair), vat_rate_device_sale = \(bind: sale),
                    vat_rate_accessory = \(bind: accessory), vat_rate_device_purchase = \(bind: purchase), updated_at = \(bind: now)
                WHERE id = \(bind: id) AND (status IS DISTINCT FROM \(bind: status) OR currency_code IS DISTINCT FROM \(bind: currency)
                    OR vat_number IS DISTINCT FROM \(bind: company.vatNumber) OR logo_url IS DISTINCT FROM \(bind: company.logoUrl)
                    OR vat_rate_repair IS DISTINCT FROM \(bind: repair) OR vat_rate_device_sale IS DISTINCT FROM \(bind: sale)
                    OR vat_rate_accessory IS DISTINCT FROM \(bind: accessory) OR vat_rate_device_purchase IS DISTINCT FROM \(bind: purchase))
                RETURNING id
                """
            ).first()
            return (id, changed == nil ? nil : .updated)
        }
        return (id, .created)
    }

    private static func upsert(
        _ user: FixtureFile.User, email: String, companyId: String, passwordHash: String?, now: Double, on db: any SQLDatabase
    ) async throws -> (String, Change?) {
        let existing = try await db.raw("SELECT id FROM users WHERE email = \(bind: email)")
            .first(decodingColumn: "id", as: String.self)
        let id = existing ?? UUID().uuidString.lowercased()
        let role = user.role ?? UserRole.engineer.rawValue
        let active = (user.isActive ?? true) ? 1 : 0, archived = (user.archived ?? false) ? 1 : 0
        let magic = (user.magicLinkEnabled ?? true) ? 1 : 0
        let phi = user.phiAccessLevel ?? "none", classification = user.dataClassification ?? "internal"
        if existing == nil {
            try await db.raw(
                """
                INSERT INTO users (id, email, first_name, last_name, company_id, role, phi_access_level, data_classification,
                    is_active, archived, magic_link_enabled, password_hash, created_at, updated_at)
                VALUES (\(bind: id), \(bind: email), \(bind: user.firstName), \(bind: user.lastName), \(bind: companyId), \(bind: role),
                    \(bind: phi), \(bind: classification), \(bind: active), \(bind: archived), \(bind: magic), \(bind: passwordHash),
                    \(bind: now), \(bind: now))
                """
            ).run()
        } else {
            let changed = try await db.raw(
                """
                UPDATE users SET first_name = \(bind: user.firstName), last_name = \(bind: user.lastName), company_id = \(bind: companyId),
                    role = \(bind: role), phi_access_level = \(bind: phi), data_classification = \(bind: classification),
                    is_active = \(bind: active), archived = \(bind: archived), magic_link_enabled = \(bind: magic),
                    password_hash = \(bind: passwordHash), updated_at = \(bind: now)
                WHERE id = \(bind: id) AND (first_name IS DISTINCT FROM \(bind: user.firstName) OR last_name IS DISTINCT FROM \(bind: user.lastName)
                    OR company_id IS DISTINCT FROM \(bind: companyId) OR role IS DISTINCT FROM \(bind: role) OR phi_access_level IS DISTINCT FROM \(bind: phi)
                    OR data_classification IS DISTINCT FROM \(bind: classification) OR is_active IS DISTINCT FROM \(bind: active)
                    OR archived IS DISTINCT FROM \(bind: archived) OR magic_link_enabled IS DISTINCT FROM \(bind: magic)
                    OR password_hash IS DISTINCT FROM \(bind: passwordHash))
                RETURNING id
                """
            ).first()
            return (id, changed == nil ? nil : .updated)
        }
        return (id, .created)
    }

    private static func upsert(
        _ client: FixtureFile.Client, email: String, companyId: String, now: Double, on db: any SQLDatabase
    ) async throws -> String {
        if let id = try await db.raw(
            "SELECT id FROM clients WHERE email = \(bind: email) AND company_id = \(bind: companyId)"
        ).first(decodingColumn: "id", as: String.self) {
            try await db.raw(
                """
                UPDATE clients SET first_name = \(bind: client.firstName), first_name_key = \(bind: ClientKeys.key(client.firstName)),
                    last_name = \(bind: client.lastName), last_name_key = \(bind: ClientKeys.key(client.lastName))
                WHERE id = \(bind: id)
                """
            ).run()
            return id
        }
        let id = UUID().uuidString.lowercased()
        try await ClientStore.insert(
            [.init(id: id, email: email, firstName: client.firstName, lastName: client.lastName)], companyId: companyId, now: now, on: db)
        return id
    }
}
