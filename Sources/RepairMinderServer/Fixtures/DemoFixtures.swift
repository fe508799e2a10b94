import Foundation

/// The fixture set `repairminder serve --demo` loads: one of everything sign-in can meet.
public enum DemoFixtures {
    public static let adminEmail = "admin@acme.test"
    public static let adminPassword = "correct horse battery"
    public static let engineerEmail = "engineer@acme.test"
    public static let engineerPassword = "engineer password"

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
        _ = try await FixtureLoader(database: database, bcryptCost: bcryptCost).load(withLogo(in: dataDirectory), actor: actor)
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
