import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `repairminder company approve|suspend|activate`: names in any case, refusals in one line,
/// and every change in the audit trail with the OS user who made it (issue 29 item 4).
@Suite(.serialized) struct CompanyAdministrationCommandTests {
    /// What the command should record as the actor: the effective user's account name.
    static var osUser: String {
        guard let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name else {
            return ProcessInfo.processInfo.environment["USER"] ?? ""
        }
        return String(cString: name)
    }

    /// A data directory seeded with a pending shop and two shops whose names differ only in case.
    static func seeded() throws -> String {
        let dataDir = CommandLineTests.temporaryDirectory()
        let file = dataDir + "-shops.json"
        defer { try? FileManager.default.removeItem(atPath: file) }
        try Data(
            #"""
            { "companies": [ { "name": "Fixit Phones", "status": "pending_approval" },
                             { "name": "Twin Screens" }, { "name": "TWIN SCREENS" } ] }
            """#.utf8
        ).write(to: URL(fileURLWithPath: file))
        let seed = try CommandLineTests.run(["seed", file, "--data-dir", dataDir])
        try #require(seed.status == 0, "\(seed.error)")
        return dataDir
    }

    @Test func namesMatchInAnyCaseAndEveryChangeIsAuditedWithTheOSUser() throws {
        let dataDir = try Self.seeded()
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let approve = try CommandLineTests.run(["company", "approve", "fixit phones", "--data-dir", dataDir])
        #expect(approve.status == 0, "\(approve.error)")
        #expect(approve.output == "Fixit Phones: pending_approval → active\n")
        let id = try #require(
            try CommandLineTests.sqlite(dataDir, "SELECT id FROM companies WHERE name = 'Fixit Phones'").split(separator: "\n").first
        ).description
        #expect(try CommandLineTests.run(["company", "suspend", id, "--data-dir", dataDir]).output == "Fixit Phones: active → suspended\n")
        #expect(try CommandLineTests.run(["company", "activate", "  FIXIT PHONES ", "--data-dir", dataDir]).output == "Fixit Phones: suspended → active\n")
        // No change, no event.
        let again = try CommandLineTests.run(["company", "activate", "Fixit phones", "--data-dir", dataDir])
        #expect(again.output == "Fixit Phones is already active.\n")

        let audit = try CommandLineTests.run(["audit", "--json", "--data-dir", dataDir])
        #expect(audit.status == 0, "\(audit.error)")
        // After the seed's own three company_created events.
        let entries = audit.output.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }.filter { ($0["event"] as? [String: Any])?["type"] as? String != "company_created" }
        #expect(entries.map { ($0["event"] as? [String: Any])?["type"] as? String } == ["company_approved", "company_suspended", "company_reactivated"])
        #expect(entries.allSatisfy { $0["company"] as? String == "Fixit Phones" && $0["actor"] as? String == Self.osUser }, "\(audit.output)")
        #expect(!Self.osUser.isEmpty)
        let text = try CommandLineTests.run(["audit", "--data-dir", dataDir])
        #expect(text.output.contains("  shop \"Fixit Phones\"  company_approved  by \(Self.osUser)\n"), "\(text.output)")
        // Recorded in the table the server's own events use.
        let stored = try CommandLineTests.sqlite(dataDir, "SELECT type || ' ' || company_id || ' ' || actor FROM activity_log WHERE type <> 'company_created' ORDER BY id")
        #expect(stored == ["company_approved", "company_suspended", "company_reactivated"].map { "\($0) \(id) \(Self.osUser)\n" }.joined())
    }

    @Test func anUnknownOrAmbiguousNameIsOneRefusalWithoutUsage() throws {
        let dataDir = try Self.seeded()
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let unknown = try CommandLineTests.run(["company", "approve", "No Such Shop", "--data-dir", dataDir])
        MissingDatabaseTests.expectOneErrorLine(unknown, containing: [])
        #expect(unknown.error == "error: no shop has the id or name \"No Such Shop\" (see repairminder company list)\n")

        let ambiguous = try CommandLineTests.run(["company", "suspend", "twin screens", "--data-dir", dataDir])
        #expect(ambiguous.status == 1)
        #expect(ambiguous.output.isEmpty)
        let ids = try CommandLineTests.sqlite(dataDir, "SELECT id || '  ' || name FROM companies WHERE name LIKE 'twin screens' ORDER BY created_at, name")
        #expect(ambiguous.error == "error: \"twin screens\" names 2 shops; give the id of one:\n" + ids.split(separator: "\n").map { "  \($0)\n" }.joined())
        #expect(!ambiguous.error.contains("Usage:"))
        // Nothing changed, nothing recorded.
        #expect(try CommandLineTests.sqlite(dataDir, "SELECT COUNT(*) FROM activity_log WHERE type <> 'company_created'") == "0\n")
        #expect(try CommandLineTests.sqlite(dataDir, "SELECT COUNT(*) FROM companies WHERE status = 'suspended'") == "0\n")
    }

    /// `seed` is an operator's change too: what it creates or changes is recorded with the OS
    /// user, and a reload that changes nothing records nothing.
    @Test func seedRecordsWhatItCreatesAndChanges() throws {
        let dataDir = CommandLineTests.temporaryDirectory()
        let file = dataDir + "-staff.json"
        defer {
            try? FileManager.default.removeItem(atPath: dataDir)
            try? FileManager.default.removeItem(atPath: file)
        }
        func seed(active: Bool) throws {
            try Data(
                #"""
                { "companies": [ { "name": "Acme Repairs" } ],
                  "users": [ { "email": "eli@acme.test", "password": "violet kettle 1987 drum", "company": "Acme Repairs", "isActive": \#(active) } ] }
                """#.utf8
            ).write(to: URL(fileURLWithPath: file))
            let result = try CommandLineTests.run(["seed", file, "--data-dir", dataDir, "--bcrypt-cost", "4"])
            try #require(result.status == 0, "\(result.error)")
        }
        try seed(active: true)
        try seed(active: true)
        try seed(active: false)
        let rows = try CommandLineTests.sqlite(
            dataDir,
            "SELECT a.type || ' ' || COALESCE(u.email, '-') || ' ' || a.actor FROM activity_log a LEFT JOIN users u ON u.id = a.user_id ORDER BY a.id")
        #expect(rows == "company_created - \(Self.osUser)\nuser_created eli@acme.test \(Self.osUser)\nuser_updated eli@acme.test \(Self.osUser)\n")
        let audit = try CommandLineTests.run(["audit", "--email", "eli@acme.test", "--data-dir", dataDir])
        #expect(audit.output.hasSuffix("  eli@acme.test  user_updated  by \(Self.osUser)\n"), "\(audit.output)")
    }
}
