import Foundation
import RepairMinderServer
import TestSupport
import Testing

/// `repairminder admin create` (issue 42): the platform's own company made on first use with a
/// passkey required, reused after; the invitation queued for `serve` to send; refusals that
/// change nothing; every change in the audit trail with the OS user.
@Suite(.serialized) struct AdminCommandTests {
    static let key = "an-encryption-key-of-at-least-32-bytes"

    /// `admin create` for `email` on `dataDir`, with the server's encryption key in the environment
    /// and its public URL on the command line (nil: none).
    static func create(
        _ dataDir: String, _ email: String, first: String = "Ann", last: String = "Smith", publicURL: String? = "https://rm.example.com/",
        extra: [String] = [], key: String? = key, environment extraEnvironment: [String: String] = [:]
    ) throws -> (status: Int32, output: String, error: String) {
        var environment = ProcessInfo.processInfo.environment.merging(extraEnvironment) { $1 }
        environment["REPAIRMINDER_ENCRYPTION_KEY"] = key
        return try CommandLineTests.run(
            ["admin", "create", "--email", email, "--first-name", first, "--last-name", last, "--data-dir", dataDir]
                + (publicURL.map { ["--public-url", $0] } ?? []) + extra,
            environment: environment)
    }

    /// What a refusal must leave as it was.
    static func counts(_ dataDir: String) throws -> String {
        try ["companies", "users", "invitations", "mail_queue", "activity_log"].map {
            try CommandLineTests.sqlite(dataDir, "SELECT COUNT(*) FROM \($0)")
        }.joined()
    }

    @Test func firstUseMakesThePlatformCompanyAndLaterOnesReuseIt() throws {
        let dataDir = CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        #expect(try CommandLineTests.run(["migrate", "--data-dir", dataDir]).status == 0)
        // Without the server's key nothing is sealed, nor made.
        let keyless = try Self.create(dataDir, "ann@operators.test", key: nil)
        MissingDatabaseTests.expectOneErrorLine(keyless, containing: ["no encryption key"])
        #expect(try CommandLineTests.sqlite(dataDir, "SELECT COUNT(*) FROM companies") == "0\n")

        let first = try Self.create(dataDir, " Ann@Operators.test ")
        #expect(first.status == 0, "\(first.error)")
        #expect(first.output.hasPrefix(
            "Created the platform's own company \"Repair Minder platform\" (\(PlatformOwnCompany.id)): active, passkey required of its staff.\n"
                + "Invited Ann Smith <ann@operators.test> as a platform administrator (master_admin) of Repair Minder platform.\n"),
            "\(first.output)")
        #expect(first.output.contains("Next: they open https://rm.example.com/invite?token=... from the mail, set a password, sign in, and add a passkey before anything else."))
        #expect(first.output.contains("repairminder outbox --to ann@operators.test --last 1"))
        let company = try CommandLineTests.sqlite(
            dataDir,
            "SELECT id || ' ' || name || ' ' || status || ' ' || required_factor || ' ' || allow_magic_link || ' ' || enrolment_grace_days FROM companies")
        #expect(company == "\(PlatformOwnCompany.id) Repair Minder platform active passkey 0 0\n")

        // The operator cannot suspend it: no one would administer the shops then.
        let suspend = try CommandLineTests.run(["company", "suspend", PlatformOwnCompany.id, "--data-dir", dataDir])
        MissingDatabaseTests.expectOneErrorLine(suspend, containing: ["platform's own company", "cannot be suspended"])
        #expect(try CommandLineTests.sqlite(dataDir, "SELECT status FROM companies") == "active\n")
        #expect(try CommandLineTests.sqlite(dataDir, "SELECT COUNT(*) FROM activity_log WHERE type = 'company_suspended'") == "0\n")

        let second = try Self.create(dataDir, "bo@operators.test", first: "Bo", last: "Li")
        #expect(second.status == 0, "\(second.error)")
        #expect(second.output.hasPrefix("Invited Bo Li <bo@operators.test> as a platform administrator"), "\(second.output)")
        #expect(try CommandLineTests.sqlite(dataDir, "SELECT COUNT(*) FROM companies") == "1\n")
        let invitations = try CommandLineTests.sqlite(
            dataDir, "SELECT email || ' ' || role || ' ' || status || ' ' || company_id || ' ' || COALESCE(invited_by, '-') FROM invitations ORDER BY id")
        #expect(invitations == ["ann", "bo"].map { "\($0)@operators.test master_admin pending \(PlatformOwnCompany.id) -\n" }.joined())
        // Queued for serve, sealed (the body holds the link).
        let queued = try CommandLineTests.sqlite(dataDir, "SELECT recipient || ' ' || subject || ' ' || status FROM mail_queue ORDER BY created_at")
        #expect(queued == ["ann", "bo"].map { "\($0)@operators.test You are invited to administer Repair Minder queued\n" }.joined())

        // The operator's events, with the OS user.
        let audit = try CommandLineTests.run(["audit", "--json", "--data-dir", dataDir])
        let events = audit.output.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
        #expect(events.map { ($0["event"] as? [String: Any])?["type"] as? String } == ["company_created", "platform_admin_invited", "platform_admin_invited"])
        #expect(events.allSatisfy { $0["actor"] as? String == CompanyAdministrationCommandTests.osUser && $0["company"] as? String == "Repair Minder platform" })
        #expect(events.compactMap { (($0["event"] as? [String: Any])?["detail"] as? [String: String])?["email"] } == ["ann@operators.test", "bo@operators.test"])
        let text = try CommandLineTests.run(["audit", "--data-dir", dataDir])
        #expect(text.output.contains("  shop \"Repair Minder platform\"  platform_admin_invited  by \(CompanyAdministrationCommandTests.osUser)\n"))
    }

    /// Issue 50, item 6: a pending invitation whose mail went astray is re-issued: the earlier
    /// link dies, a new one is mailed, and the audit says so; in production the command does not
    /// speak of development.
    @Test func aPendingInvitationIsReissued() throws {
        let dataDir = CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        #expect(try CommandLineTests.run(["migrate", "--data-dir", dataDir]).status == 0)
        #expect(try Self.create(dataDir, "ann@operators.test").status == 0)
        let first = try CommandLineTests.sqlite(dataDir, "SELECT id FROM invitations")

        let again = try Self.create(dataDir, "ann@operators.test", extra: ["--reissue"], environment: ["REPAIRMINDER_ENV": "production"])
        #expect(again.status == 0, "\(again.error)")
        #expect(again.output.hasPrefix("Revoked the pending invitation of ann@operators.test: its link no longer works.\nInvited Ann Smith"), "\(again.output)")
        #expect(!again.output.contains("In development"), "\(again.output)")
        let invitations = try CommandLineTests.sqlite(dataDir, "SELECT id || ' ' || status FROM invitations ORDER BY id")
        #expect(invitations.hasPrefix(first.trimmingCharacters(in: .newlines) + " revoked\n") && invitations.hasSuffix(" pending\n"), "\(invitations)")
        #expect(try CommandLineTests.sqlite(dataDir, "SELECT COUNT(*) FROM mail_queue WHERE recipient = 'ann@operators.test'") == "2\n")
        #expect(
            try CommandLineTests.sqlite(dataDir, "SELECT type FROM activity_log ORDER BY id")
                == "company_created\nplatform_admin_invited\nplatform_admin_invitation_revoked\nplatform_admin_invited\n")
    }

    @Test func refusalsChangeNothing() throws {
        let dataDir = CommandLineTests.temporaryDirectory()
        let file = dataDir + "-staff.json"
        defer {
            try? FileManager.default.removeItem(atPath: dataDir)
            try? FileManager.default.removeItem(atPath: file)
        }
        try Data(
            #"""
            { "companies": [ { "name": "Acme Repairs" } ],
              "users": [ { "email": "eli@acme.test", "password": "violet kettle 1987 drum", "company": "Acme Repairs", "role": "engineer" } ] }
            """#.utf8
        ).write(to: URL(fileURLWithPath: file))
        #expect(try CommandLineTests.run(["seed", file, "--data-dir", dataDir, "--bcrypt-cost", "4"]).status == 0)
        #expect(try Self.create(dataDir, "ann@operators.test").status == 0)
        let before = try Self.counts(dataDir)

        let pending = try Self.create(dataDir, "ANN@operators.test")
        MissingDatabaseTests.expectOneErrorLine(
            pending, containing: ["ann@operators.test already has a pending invitation to the platform, until ", "run this again with --reissue"])
        // Issue 50, item 6: no public URL, and no serve ever ran here to say where it listens.
        let nowhereToLink = try Self.create(dataDir, "cy@operators.test", publicURL: nil)
        MissingDatabaseTests.expectOneErrorLine(nowhereToLink, containing: ["no public URL: give --public-url"])
        let staff = try Self.create(dataDir, "eli@acme.test")
        MissingDatabaseTests.expectOneErrorLine(
            staff, containing: ["eli@acme.test already has a staff account (an engineer of Acme Repairs), and an address belongs to one account"])
        for (arguments, message) in [
            (["not-an-address", "Ann", "Smith"], "--email must be a valid email address"),
            (["ann2@operators.test", " ", "Smith"], "--first-name is required"),
            (["ann2@operators.test", "Ann", String(repeating: "x", count: 101)], "--last-name is too long"),
        ] {
            let refused = try Self.create(dataDir, arguments[0], first: arguments[1], last: arguments[2])
            #expect(refused.status == 2, "\(refused.error)")
            #expect(refused.error.hasPrefix("Error: \(message)\n"), "\(refused.error)")
        }
        #expect(try Self.counts(dataDir) == before)
        // Where there is no database: refused, none created.
        let nowhere = CommandLineTests.temporaryDirectory()
        MissingDatabaseTests.expectOneErrorLine(try Self.create(nowhere, "ann@operators.test"), containing: [nowhere])
        #expect(!FileManager.default.fileExists(atPath: nowhere + "/repairminder.sqlite"))
    }

    /// The mail goes out through a running server, and its link makes a platform administrator
    /// (here the demo's platform company, which gives 30 days to enrol the passkey).
    @Test func serveSendsTheInvitationAndItsLinkMakesAPlatformAdmin() async throws {
        let server = try ClientCommandTests.Server()
        let email = "ann@operators.test"
        // Issue 50, item 6: no --public-url: the link names the running server, its port included.
        let created = try Self.create(server.dataDir, email, publicURL: nil, key: nil)
        #expect(created.status == 0, "\(created.error)")
        #expect(!created.output.contains("Created the platform's own company"), "\(created.output)")
        #expect(created.output.contains("add a passkey within 30 days"), "\(created.output)")
        var link = ""
        try waitUntilBlocking("the invitation mailed to \(email)", timeout: .seconds(10), interval: .milliseconds(100)) {
            let mail = try OutboxTransport.read(path: OutboxTransport.path(dataDirectory: server.dataDir)).last { $0.to == email }
            guard let text = mail?.text, let range = text.range(of: server.url + #"/invite\?token=[0-9a-f]{64}"#, options: .regularExpression)
            else { return false }
            link = String(text[range])
            return true
        }
        let token = String(link.suffix(64))
        let accepted = try await OperatorCommandTests.call(
            server.url + "/api/auth/invitations/accept", body: ["token": token, "password": "violet kettle 1987 drum"])
        #expect(accepted.status == 200)
        let data = try #require(accepted.json["data"] as? [String: Any])
        #expect((data["user"] as? [String: Any])?["role"] as? String == "master_admin")
        #expect((data["enrolmentRequired"] as? [String: Any])?["methods"] as? [String] == ["passkey"])
        let shops = try await OperatorCommandTests.call(
            server.url + "/api/admin/companies?limit=100", "GET", bearer: try #require(data["token"] as? String))
        #expect(shops.status == 200)
        #expect((shops.json["data"] as? [[String: Any]])?.contains { $0["name"] as? String == "Acme Repairs" } == true)
    }
}
