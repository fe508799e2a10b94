import Foundation

/// The fixture set `repairminder serve --demo` loads: one of everything sign-in can meet.
public enum DemoFixtures {
    public static let adminEmail = "admin@acme.test"
    public static let adminPassword = "correct horse battery"
    public static let engineerEmail = "engineer@acme.test"
    public static let engineerPassword = "engineer password"
    /// The platform's administrator (`master_admin` of `PlatformOwnCompany`), whose company
    /// requires a passkey as a real one does, but with `platformGraceDays` to enrol it: the demo
    /// admin signs in fully (the token response says by when to enrol) where a real one, made by
    /// `repairminder admin create`, is restricted to enrolment until they have a passkey.
    public static let platformAdminEmail = "platform@repairminder.test"
    public static let platformAdminPassword = "platform password"
    /// The enrolment grace period of the demo's platform company (§13's most): from when the
    /// demo was first loaded, after which the demo admin too can only enrol a passkey.
    public static let platformGraceDays = 30

    public static let file = FixtureFile(
        companies: [
            .init(name: "Acme Repairs", status: "active", currencyCode: "GBP", vatNumber: "GB123456789"),
            .init(name: "Beta Tech", status: "active", currencyCode: "GBP"),
            .init(name: "Pending Phones", status: "pending_approval", currencyCode: "GBP"),
            .init(name: "Suspended Screens", status: "suspended", currencyCode: "GBP"),
        ],
        users: [
            .init(email: adminEmail, password: adminPassword, firstName: "Ada", lastName: "Admin", company: "Acme Repairs",
                  role: "admin", phiAccessLevel: "full"),
            .init(email: engineerEmail, password: engineerPassword, firstName: "Eli", lastName: "Engineer",
                  company: "Acme Repairs", role: "engineer", phiAccessLevel: "limited"),
            .init(email: "nopassword@acme.test", firstName: "Nina", lastName: "NoPassword", company: "Acme Repairs", role: "office"),
            .init(email: "deactivated@acme.test", password: "deactivated password", firstName: "Dee", lastName: "Activated",
                  company: "Acme Repairs", role: "engineer", isActive: false),
            .init(email: "archived@acme.test", password: "archived password", firstName: "Archie", lastName: "Ved",
                  company: "Acme Repairs", role: "engineer", archived: true),
            .init(email: "owner@pending.test", password: "pending password", firstName: "Penny", lastName: "Pending",
                  company: "Pending Phones", role: "admin"),
            .init(email: "owner@suspended.test", password: "suspended password", firstName: "Sam", lastName: "Suspended",
                  company: "Suspended Screens", role: "admin"),
        ],
        clients: [
            .init(email: "jane@example.test", firstName: "Jane", lastName: "Customer", company: "Acme Repairs"),
            .init(email: "multi@example.test", firstName: "Max", lastName: "Multi", company: "Acme Repairs"),
            .init(email: "multi@example.test", firstName: "Max", lastName: "Multi", company: "Beta Tech"),
        ])

    /// The platform's administrator, loaded once `PlatformOwnCompany` exists (a fixtures file
    /// names a company by its name or its id).
    public static let platformFile = FixtureFile(
        users: [
            .init(email: platformAdminEmail, password: platformAdminPassword, firstName: "Pat", lastName: "Platform",
                  company: PlatformOwnCompany.id, role: "master_admin"),
        ])
}

extension DemoFixtures {
    /// A 16×16 PNG, so the demo shows a served company logo.
    static let logoPNG = Data(
        base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAFklEQVR42mOQqzhBEmIY1TCqYfhqAABoaV4QiY2AzgAAAABJRU5ErkJggg==") ?? Data()

    /// Loads the demo set (with its logo) into `database` and marks the database as holding
    /// it, so that `--env production` refuses to serve it (`areLoaded`).
    public static func load(into database: Database, dataDirectory: String, bcryptCost: Int, actor: String?) async throws {
        // The mark first: a load that stops halfway has left the mark, never accounts without it.
        try await database.withConnection { db in
            try await db.raw("INSERT INTO demo_fixtures (loaded_at) VALUES (\(bind: Date().timeIntervalSince1970))").run()
        }
        _ = try await loadAccounts(withLogo(in: dataDirectory), into: database, bcryptCost: bcryptCost, actor: actor)
    }

    /// Loads the demo's shops, staff and customers (`fixtures`: `file` unless given), and the
    /// platform's own company with its administrator (`platformFile`), with no logo file and no
    /// mark: `load` for `serve --demo`, and the tests' demo database as it is.
    @discardableResult
    public static func loadAccounts(
        _ fixtures: FixtureFile = file, into database: Database, bcryptCost: Int, actor: String? = nil
    ) async throws -> FixtureIDs {
        let loader = FixtureLoader(database: database, bcryptCost: bcryptCost)
        var ids = try await loader.load(fixtures, actor: actor)
        let now = Date().timeIntervalSince1970
        try await database.transaction(serializedOn: "company-administration") { db in
            _ = try await PlatformOwnCompany.ensure(enrolmentGraceDays: platformGraceDays, actor: actor, now: now, on: db)
        }
        ids.users.merge(try await loader.load(platformFile, actor: actor).users) { _, platform in platform }
        return ids
    }

    /// Whether `serve --demo` ever loaded the demo set into `database`.
    public static func areLoaded(in database: Database) async throws -> Bool {
        try await database.withConnection { db in
            try await db.raw("SELECT 1 AS found FROM demo_fixtures LIMIT 1").first() != nil
        }
    }

    /// The demo set with a logo for Beta Tech, written into `dataDirectory` and served at
    /// `/api/branding/<id>/logo`; Acme Repairs keeps none, so both cases show.
    public static func withLogo(in dataDirectory: String) throws -> FixtureFile {
        try DataDirectory.create(dataDirectory)
        let path = URL(fileURLWithPath: dataDirectory).appendingPathComponent("demo-logo.png").standardizedFileURL.path
        try logoPNG.write(to: URL(fileURLWithPath: path))
        var fixtures = file
        if let index = fixtures.companies?.firstIndex(where: { $0.name == "Beta Tech" }) {
            fixtures.companies?[index].logoUrl = path
        }
        return fixtures
    }
}

extension FixtureFile.Company {
    init(name: String, status: String, currencyCode: String, vatNumber: String? = nil) {
        self.init(
            name: name, status: status, currencyCode: currencyCode, vatNumber: vatNumber, logoUrl: nil,
            vatRateRepair: nil, vatRateDeviceSale: nil, vatRateAccessory: nil, vatRateDevicePurchase: nil)
    }
}

extension FixtureFile.User {
    init(
        email: String, password: String? = nil, firstName: String, lastName: String, company: String, role: String,
        isActive: Bool = true, archived: Bool = false, phiAccessLevel: String = "none"
    ) {
        self.init(
            email: email, password: password, firstName: firstName, lastName: lastName, company: company, role: role,
            isActive: isActive, archived: archived, magicLinkEnabled: true, phiAccessLevel: phiAccessLevel,
            dataClassification: "internal")
    }
}
