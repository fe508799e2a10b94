import Foundation
import RepairMinderServer
import TestSupport
import Testing

/// The built `repairminder` binary, run as a person or script would.
@Suite struct CommandLineTests {
    /// `.build/<config>/repairminder`, next to the test bundle.
    static var binary: URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("repairminder").path),
            directory.path != "/"
        {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("repairminder")
    }

    static func run(
        _ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> (status: Int32, output: String, error: String) {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let error = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: error, as: UTF8.self))
    }

    @Test func versionPrintsTheServersVersion() throws {
        let version = try Self.run(["--version"])
        #expect(version.status == 0)
        #expect(version.output == repairMinderVersion + "\n")
    }

    static func temporaryDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("repairminder-cli-\(UUID().uuidString)").path
    }

    @Test func seedIsIdempotentAndPrintsIds() throws {
        let dataDir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let file = dataDir + "-fixtures.json"
        defer { try? FileManager.default.removeItem(atPath: file) }
        try Data(
            #"""
            { "companies": [ { "name": "Acme Repairs" } ],
              "users": [ { "email": "Admin@Acme.test", "password": "violet kettle 1987 drum", "firstName": "Ada", "company": "Acme Repairs", "role": "admin" } ],
              "clients": [ { "email": "jane@example.test", "company": "Acme Repairs" } ] }
            """#.utf8
        ).write(to: URL(fileURLWithPath: file))
        let first = try Self.run(["seed", file, "--data-dir", dataDir, "--bcrypt-cost", "4"])
        #expect(first.status == 0, "\(first.error)")
        let ids = try JSONDecoder().decode(FixtureIDs.self, from: Data(first.output.utf8))
        #expect(ids.users["admin@acme.test"] != nil)
        #expect(ids.companies["Acme Repairs"] != nil)
        let second = try Self.run(["seed", file, "--data-dir", dataDir, "--bcrypt-cost", "4"])
        #expect(second.status == 0)
        #expect(try JSONDecoder().decode(FixtureIDs.self, from: Data(second.output.utf8)) == ids)
    }

    @Test func badInputGivesAClearMessageAndAFailingStatus() throws {
        let dataDir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let missing = try Self.run(["seed", "/no/such/file.json", "--data-dir", dataDir])
        #expect(missing.status != 0)
        #expect(missing.error.contains("cannot read /no/such/file.json"))
        // migrate takes only the database's settings: production's secrets are serve's.
        let production = try Self.run(["migrate", "--data-dir", dataDir, "--env", "production"])
        #expect(production.status == 1)
        #expect(production.error == "error: unknown option --env (repairminder migrate --help lists its settings)\n")
        // Issue 25, item 7: the demo's published passwords never reach a production server.
        let key = String(repeating: "k", count: 32)
        let demo = try Self.run([
            "serve", "--demo", "--data-dir", dataDir, "--env", "production", "--jwt-algorithm", "HS256", "--jwt-secret", key,
            "--encryption-key", key,
            "--mail-transport", "outbox", "--public-url", "https://api.example.com", "--port", "1",
        ])
        #expect(demo.status != 0)
        #expect(demo.error.contains("--demo"))
        #expect(!FileManager.default.fileExists(atPath: dataDir + "/repairminder.sqlite") || !demo.output.contains("Loading demo"))
    }

    /// `keys rotate` creates the key set (0600) with a key that signs at once, then adds one that
    /// signs after the delay; `keys list` shows each key's state.
    @Test func keysRotateAndList() throws {
        let dataDir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let path = dataDir + "/keys/signing-keys.json"
        let missing = try Self.run(["keys", "list", "--signing-keys", path])
        // A runtime failure: one line, status 1, no usage text.
        #expect(missing.status == 1)
        #expect(missing.error == "error: no key set at \(path); create one with: repairminder keys rotate --signing-keys \(path)\n")
        let first = try Self.run(["keys", "rotate", "--signing-keys", path])
        #expect(first.status == 0)
        #expect(first.output.contains("Added ES256 key") && first.output.contains("and an RS256 key for ID tokens") && first.output.contains("sign now"))
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let second = try Self.run(["keys", "rotate", "--signing-keys", path, "--jwt-algorithm", "EdDSA"])
        #expect(second.status == 0)
        #expect(second.output.contains("Added EdDSA key") && second.output.contains("sign from"))
        let list = try Self.run(["keys", "list", "--signing-keys", path])
        let lines = list.output.split(separator: "\n")
        // Each rotation added an access tokens' key and an ID tokens' one.
        #expect(lines.count == 4)
        #expect(lines[0].contains("ES256  signing") && lines[1].contains("RS256  signing"))
        #expect(lines[2].contains("EdDSA  published, signs from") && lines[3].contains("RS256  published, signs from"))
        // A switch from HS256: the old secret goes in when the set is made, verifying only.
        let switched = dataDir + "/switched.json"
        let secret = String(repeating: "s", count: 40)
        #expect(try Self.run(["keys", "rotate", "--signing-keys", switched, "--jwt-secret", secret]).status == 0)
        let switchedList = try Self.run(["keys", "list", "--signing-keys", switched]).output
        #expect(switchedList.contains("HS256  retired, verifies until") && switchedList.contains("ES256  signing"))
        let symmetric = try Self.run(["keys", "rotate", "--signing-keys", path, "--jwt-algorithm", "HS256"])
        #expect(symmetric.status == 2)
        #expect(symmetric.error.contains("ES256 or EdDSA"))
    }

    @Test func migrateThenOutboxOnAFreshDirectory() throws {
        let dataDir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let migrate = try Self.run(["migrate", "--data-dir", dataDir])
        #expect(migrate.status == 0, "\(migrate.error)")
        #expect(migrate.output.contains("up to date"))
        let outbox = try Self.run(["outbox", "--data-dir", dataDir])
        #expect(outbox.status == 0)
        #expect(outbox.output.contains("No mail yet"))
        let status = try Self.run(["outbox", "--status", "--data-dir", dataDir])
        #expect(status.status == 0, "\(status.error)")
        #expect(status.output.contains("The mail queue of sqlite"), "\(status.output)")
        #expect(status.output.contains("is empty"))
    }
}

extension CommandLineTests {
    @Test func seedCopiesLogoFilesIntoTheDataDirectory() throws {
        let dataDir = Self.temporaryDirectory()
        let fixturesDir = dataDir + "-fixtures"
        defer {
            try? FileManager.default.removeItem(atPath: dataDir)
            try? FileManager.default.removeItem(atPath: fixturesDir)
        }
        try FileManager.default.createDirectory(atPath: fixturesDir + "/logos", withIntermediateDirectories: true)
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: URL(fileURLWithPath: fixturesDir + "/logos/acme.png"))
        try Data(#"{"companies":[{"name":"Acme Repairs","logoUrl":"logos/acme.png"}]}"#.utf8)
            .write(to: URL(fileURLWithPath: fixturesDir + "/fixtures.json"))
        let result = try Self.run(["seed", fixturesDir + "/fixtures.json", "--data-dir", dataDir])
        #expect(result.status == 0, "\(result.error)")
        let again = try Self.run(["seed", fixturesDir + "/fixtures.json", "--data-dir", dataDir])
        #expect(again.output == result.output)
        // The file is copied into the data directory (the server serves logos only from there),
        // named by its content, so loading again changes nothing.
        let stored = try Self.sqlite(dataDir, "SELECT logo_url FROM companies").trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(stored.hasPrefix(URL(fileURLWithPath: dataDir).standardizedFileURL.path + "/logos/"), "\(stored)")
        #expect(stored.hasSuffix(".png"))
        #expect(FileManager.default.contents(atPath: stored) == Data([0x89, 0x50, 0x4E, 0x47]))
        // A logo that cannot be read is refused with its path.
        try Data(#"{"companies":[{"name":"Acme Repairs","logoUrl":"logos/missing.png"}]}"#.utf8)
            .write(to: URL(fileURLWithPath: fixturesDir + "/fixtures.json"))
        let missing = try Self.run(["seed", fixturesDir + "/fixtures.json", "--data-dir", dataDir])
        #expect(missing.status != 0)
        #expect(missing.error.contains("cannot read logo"), "\(missing.error)")
    }

    /// Runs one query with Python's sqlite3 (always on the machine with python3), waiting up to
    /// 30 s for a lock the server holds; a failure throws with Python's message.
    static func sqlite(_ dataDir: String, _ query: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            // Committed: a statement that changes something (a test's setup) stays done.
            "import sqlite3,sys; c = sqlite3.connect(sys.argv[1], timeout=30); rows = c.execute(sys.argv[2]).fetchall(); c.commit(); print('\\n'.join(str(r[0]) for r in rows))",
            dataDir + "/repairminder.sqlite", query,
        ]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let problem = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "sqlite3 \(query): " + String(decoding: problem, as: UTF8.self)])
        }
        return String(decoding: data, as: UTF8.self)
    }
}

/// `repairminder mail test` against a real SMTP server on loopback.
@Suite(.serialized, .enabled(if: SMTPCatcher.isAvailable, Comment(rawValue: SMTPCatcher.howToEnable)))
struct MailTestCommandTests {
    @Test func sendsOneMessageAndPrintsTheReplies() throws {
        let catcher = try SMTPCatcher(["--user", "ops", "--password", "pw"])
        defer { catcher.stop() }
        let result = try CommandLineTests.run([
            "mail", "test", "--to", "ops@example.test", "--smtp-url", "smtp://ops:pw@127.0.0.1:\(catcher.port)?tls=none",
            "--mail-from", "Repair Minder <no-reply@repairminder.test>",
        ])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("235"))
        #expect(result.output.contains("250 OK: queued"))
        #expect(!result.output.contains("pw@"))
        let received = try catcher.received()
        #expect(received.map(\.to) == [["ops@example.test"]])
        #expect(received.first?.text.contains("Subject: Repair Minder mail test\r\n") == true)
    }

    @Test func aRefusalExitsOneAndAnUnreachableServerThree() throws {
        let catcher = try SMTPCatcher(["--reject", "nobody"])
        let url = "smtp://127.0.0.1:\(catcher.port)?tls=none"
        let refused = try CommandLineTests.run(["mail", "test", "--to", "nobody@example.test", "--smtp-url", url, "--mail-from", "a@b.test"])
        #expect(refused.status == 1)
        #expect(refused.error.contains("550"))
        catcher.stop()
        let down = try CommandLineTests.run(["mail", "test", "--to", "x@example.test", "--smtp-url", url, "--mail-from", "a@b.test"])
        #expect(down.status == 3)
    }
}
