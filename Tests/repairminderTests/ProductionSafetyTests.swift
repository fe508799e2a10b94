import Foundation
import TestSupport
@testable import RepairMinderServer
import Testing

@testable import repairminder

/// Issue 36, item 5: production refuses what is not safe to run, one line each naming the fix.
/// Before the fix, each of these started without a word.
@Suite struct ProductionSafetyTests {
    static let key = String(repeating: "k", count: 32)
    static let production = [
        "--env", "production", "--jwt-algorithm", "HS256", "--encryption-key", key, "--mail-transport", "outbox",
        "--public-url", "https://api.example.com",
    ]

    /// The message production refuses `arguments` with (serve's settings), or nil.
    static func refusal(_ arguments: [String], environment: [String: String] = [:]) -> String? {
        do {
            _ = try SettingsArguments.parse(arguments).settings(for: "serve", environment: environment)
            return nil
        } catch { return "\(error)" }
    }

    static func file(_ contents: String, mode: Int, suffix: String = "") throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("secret-\(UUID().uuidString)\(suffix)").path
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    @Test(arguments: [0o644, 0o640, 0o604, 0o660])
    func aSecretFileOpenToOthersIsRefused(mode: Int) throws {
        let secret = try Self.file(Self.key + "\n", mode: mode)
        defer { try? FileManager.default.removeItem(atPath: secret) }
        let message = try #require(Self.refusal(Self.production + ["--jwt-secret-file", secret]))
        #expect(message.contains("\(secret) holds secrets and is open to group or others (mode \(String(mode, radix: 8)))"), "\(message)")
        #expect(message.contains("chmod 600 \(secret)"))
        #expect(!message.contains("\n"))
        // Development reads it as before.
        #expect(Self.refusal(["--jwt-secret-file", secret]) == nil)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: secret)
        #expect(Self.refusal(Self.production + ["--jwt-secret-file", secret]) == nil)
        try FileManager.default.setAttributes([.posixPermissions: 0o400], ofItemAtPath: secret)
        #expect(Self.refusal(Self.production + ["--jwt-secret-file", secret]) == nil)
    }

    @Test func anEncryptionKeyFileAndASigningKeySetOpenToOthersAreRefused() throws {
        let encryption = try Self.file(Self.key, mode: 0o644)
        defer { try? FileManager.default.removeItem(atPath: encryption) }
        let withoutKey = Self.production.filter { $0 != "--encryption-key" && $0 != Self.key }
        #expect(Self.refusal(withoutKey + ["--jwt-secret", Self.key, "--encryption-key-file", encryption])?.contains(encryption) == true)

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let keys = directory + "/signing-keys.json"
        _ = try SigningKeyFile.loadOrCreate(keys, algorithm: .es256, retiring: nil, now: 0)
        let es256 = Self.production.filter { $0 != "--jwt-algorithm" && $0 != "HS256" } + ["--signing-keys", keys]
        #expect(Self.refusal(es256) == nil, "created 0600")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: keys)
        #expect(Self.refusal(es256)?.contains("\(keys) holds secrets and is open to group or others (mode 644)") == true)
    }

    /// A config file holding a secret is a secret file; one that only names secret files is not.
    @Test func aConfigFileHoldingASecretMustBeClosed() throws {
        let holding = try Self.file("env: production\njwt-algorithm: HS256\njwt-secret: \(Self.key)\n", mode: 0o644, suffix: ".yaml")
        let secret = try Self.file(Self.key, mode: 0o600)
        let naming = try Self.file("env: production\njwt-algorithm: HS256\njwt-secret-file: \(secret)\n", mode: 0o644, suffix: ".yaml")
        defer { for path in [holding, secret, naming] { try? FileManager.default.removeItem(atPath: path) } }
        let rest = ["--encryption-key", Self.key, "--mail-transport", "outbox", "--public-url", "https://api.example.com"]
        #expect(Self.refusal(rest + ["--config", holding])?.contains("\(holding) holds secrets") == true)
        #expect(Self.refusal(rest + ["--config", naming]) == nil)
    }

    @Test func clearTextOnTheNetworkIsRefused() throws {
        let hs256 = Self.production.filter { $0 != "--public-url" && $0 != "https://api.example.com" } + ["--jwt-secret", Self.key]
        #expect(
            Self.refusal(hs256 + ["--public-url", "http://api.example.com"])
                == "--public-url must be https:// with --env production, not http://api.example.com (behind a TLS proxy, give the address clients use)")
        let origins = hs256 + ["--public-url", "https://api.example.com", "--webauthn-rp-id", "example.com"]
        #expect(
            Self.refusal(origins + ["--webauthn-origins", "http://app.example.com"])
                == "--webauthn-origins: http://app.example.com must be https:// with --env production (http:// is for this machine only)")
        #expect(Self.refusal(origins + ["--webauthn-origins", "https://app.example.com"]) == nil)
        let mail = hs256.filter { $0 != "--mail-transport" && $0 != "outbox" } + ["--public-url", "https://api.example.com", "--mail-from", "no-reply@example.com"]
        #expect(
            Self.refusal(mail + ["--smtp-url", "smtp://mail.example.com:25?tls=none"])
                == "--smtp-url: tls=none to mail.example.com, not this machine; --env production refuses mail in clear text: use smtps:// or STARTTLS (the default)")
        #expect(Self.refusal(mail + ["--smtp-url", "smtp://127.0.0.1:25?tls=none"]) == nil, "a relay on this machine")
        #expect(Self.refusal(mail + ["--smtp-url", "smtp://localhost:25?tls=none"]) == nil)
        #expect(Self.refusal(mail + ["--smtp-url", "smtp://relay.localhost:25?tls=none"]) != nil, "a name a resolver may send elsewhere")
        #expect(Self.refusal(mail + ["--smtp-url", "smtp://mail.example.com:587"]) == nil)
        // Development keeps taking them.
        #expect(Self.refusal(["--smtp-url", "smtp://mail.example.com:25?tls=none", "--mail-from", "no-reply@example.com"]) == nil)
    }

    /// `serve --demo --log-format json` writes nothing but JSON lines (its banner included), and
    /// marks the database: the same data directory under `--env production` is refused.
    @Test func aDemoDatabaseIsRefusedInProductionAndJSONLogsAreAllJSON() async throws {
        let dataDir = CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let output = dataDir + "-out.txt", errors = dataDir + "-err.txt"
        defer { for path in [output, errors] { try? FileManager.default.removeItem(atPath: path) } }
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        _ = FileManager.default.createFile(atPath: errors, contents: nil)
        let port = try freeLoopbackPort()
        let process = Process()
        process.executableURL = CommandLineTests.binary
        process.arguments = ["serve", "--demo", "--log-format", "json", "--bcrypt-cost", "4", "--data-dir", dataDir, "--port", String(port)]
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        try await waitUntil("serve healthy", timeout: .seconds(120), interval: .milliseconds(100)) {
            (try? await InstanceCrashTests.HTTP.send("GET", "http://127.0.0.1:\(port)/api/health"))?.status == 200
        }
        process.terminate()
        process.waitUntilExit()
        let lines = [output, errors].flatMap { path in
            ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
        #expect(lines.contains { $0.contains("Demo accounts loaded") }, "the banner is logged")
        for line in lines {
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object != nil, "not a JSON line: \(line)")
        }

        let refused = try CommandLineTests.run(
            ["serve", "--data-dir", dataDir, "--port", String(port)] + Self.production + ["--jwt-secret", Self.key], environment: [:])
        #expect(refused.status == 1)
        #expect(refused.error.contains("this database holds the demo accounts of serve --demo"), "\(refused.error)")
    }

    /// With `--log-format json`, a refusal to start is a JSON line too.
    @Test func aRefusalIsAJSONLineWithJSONLogs() throws {
        let secret = try Self.file(Self.key, mode: 0o644)
        defer { try? FileManager.default.removeItem(atPath: secret) }
        let refused = try CommandLineTests.run(
            ["serve", "--log-format", "json"] + Self.production + ["--jwt-secret-file", secret], environment: [:])
        #expect(refused.status == 1)
        #expect(refused.output.isEmpty)
        let lines = refused.error.split(separator: "\n")
        #expect(lines.count == 1, "\(refused.error)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data((lines.first ?? "").utf8)) as? [String: Any])
        #expect(object["level"] as? String == "critical")
        #expect((object["message"] as? String)?.contains("holds secrets and is open to group or others") == true)
    }
}
