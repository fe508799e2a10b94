import ExtrasBase64
import Crypto
import Foundation
import TestSupport
import Testing

@testable import RepairMinderServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `serve --verbose` writes everything it knows about its services and requests, and none of
/// their secrets (issue "Security hardening II", item 3): a sign-in with the emailed code,
/// delivered over real SMTP, a refresh and an authenticator-app enrolment, then the whole
/// output is searched for every secret the run used, as text and as bytes.
@Suite struct VerboseLogTests {
    static let jwtSecret = "verbose-test-jwt-secret-0123456789abcdef"
    static let encryptionKey = "verbose-test-encryption-key-fedcba9876543210"

    /// JSON over URLSession, keeping every value of the answer's `data`.
    static func send(_ method: String, _ url: String, json: [String: String]? = nil, bearer: String? = nil) async throws
        -> (status: Int, data: [String: Any])
    {
        var request = URLRequest(url: try #require(URL(string: url)), timeoutInterval: 10)
        request.httpMethod = method
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        if let json {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try JSONSerialization.data(withJSONObject: json)
        }
        let (body, response) = try await URLSession.shared.data(for: request)
        let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, object?["data"] as? [String: Any] ?? [:])
    }

    /// The ways a secret's bytes could be printed: as text, hex, base64, and Swift's rendering
    /// of a byte array (its first eight bytes are enough to find it).
    static func renderings(of bytes: [UInt8]) -> [String] {
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        return [
            hex, hex.uppercased(), Data(bytes).base64EncodedString(),
            bytes.prefix(8).map(String.init).joined(separator: ", "),
        ]
    }

    @Test(.enabled(if: SMTPCatcher.isAvailable, Comment(rawValue: SMTPCatcher.howToEnable)))
    func verboseOutputHoldsNoKeySecretCodeTokenOrPassword() async throws {
        let catcher = try SMTPCatcher()
        defer { catcher.stop() }
        let dataDir = CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let logPath = dataDir + ".log"
        defer { try? FileManager.default.removeItem(atPath: logPath) }
        #expect(FileManager.default.createFile(atPath: logPath, contents: nil))
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))

        let port = try freeLoopbackPort()
        let base = "http://127.0.0.1:\(port)"
        let server = Process()
        server.executableURL = CommandLineTests.binary
        server.arguments = [
            "serve", "--verbose", "--demo", "--bcrypt-cost", "4", "--data-dir", dataDir, "--port", String(port),
            "--jwt-secret", Self.jwtSecret, "--encryption-key", Self.encryptionKey,
            "--smtp-url", "smtp://127.0.0.1:\(catcher.port)?tls=none", "--mail-from", "Repair Minder <no-reply@example.test>",
        ]
        server.standardOutput = log
        server.standardError = log
        try server.run()
        defer { if server.isRunning { kill(server.processIdentifier, SIGKILL) } }
        try await waitUntil("serve --verbose healthy", timeout: .seconds(120), interval: .milliseconds(100)) {
            (try? await Self.send("GET", base + "/api/health"))?.status == 200
        }

        // Sign in: the password, the code by SMTP, the tokens.
        let admin = DemoFixtures.adminEmail, password = DemoFixtures.adminPassword
        let login = try await Self.send("POST", base + "/api/auth/login", json: ["email": admin, "password": password])
        let userId = try #require(login.data["userId"] as? String)
        let challengeToken = try #require(login.data["challengeToken"] as? String)
        let request = try await Self.send(
            "POST", base + "/api/auth/2fa/request", json: ["userId": userId, "email": admin, "challengeToken": challengeToken])
        #expect(request.status == 200)
        var mail: SMTPCatcher.Received?
        try await waitUntil("the code at the mail server", interval: .milliseconds(100)) {
            mail = try catcher.received().last
            return mail != nil
        }
        let emailedCode = try #require(mail?.code, "no code arrived at the mail server")
        let verified = try await Self.send(
            "POST", base + "/api/auth/2fa/verify", json: ["userId": userId, "code": emailedCode, "challengeToken": challengeToken])
        let accessToken = try #require(verified.data["token"] as? String)
        let refreshToken = try #require(verified.data["refreshToken"] as? String)
        let refreshed = try await Self.send("POST", base + "/api/auth/refresh", json: ["refreshToken": refreshToken])
        let secondAccessToken = try #require(refreshed.data["token"] as? String)
        let secondRefreshToken = try #require(refreshed.data["refreshToken"] as? String)

        // Enrol the authenticator app.
        let setup = try await Self.send("POST", base + "/api/auth/totp/setup", bearer: secondAccessToken)
        let totpSecret = try #require(setup.data["secret"] as? String)
        let totpBytes = try Base32.decode(string: totpSecret)
        let generator = TOTPGenerator()
        let totpCode = generator.code(secret: totpBytes, step: generator.step(at: Date().timeIntervalSince1970))
        let enabled = try await Self.send("POST", base + "/api/auth/totp/verify-setup", json: ["code": totpCode], bearer: secondAccessToken)
        #expect(enabled.status == 200)
        let recoveryCodes = try #require(enabled.data["recoveryCodes"] as? [String])

        // A password of this run's own (the demo banner prints the demo's published one on
        // purpose), set and then signed in with.
        let newPassword = "verbose test password \(UUID().uuidString.prefix(8))"
        let changed = try await Self.send(
            "PUT", base + "/api/users/me/password", json: ["currentPassword": password, "newPassword": newPassword],
            bearer: secondAccessToken)
        #expect(changed.status == 200)
        let again = try await Self.send("POST", base + "/api/auth/login", json: ["email": admin, "password": newPassword])
        #expect(again.status == 200)

        server.terminate()
        server.waitUntilExit()
        try log.close()
        let output = try String(contentsOfFile: logPath, encoding: .utf8)
        // The run was logged: otherwise finding nothing would prove nothing.
        #expect(output.contains("Mail queue") || output.contains("mail"), "no mail delivery in the output")
        #expect(output.split(separator: "\n").count > 5, "the verbose output is too short to mean anything:\n\(output)")

        let jwtKey = Array(Self.jwtSecret.utf8), encryptionKey = Array(Self.encryptionKey.utf8)
        // SecretBox's AES key, derived from the encryption key, is what printed before.
        let boxKey = Array(SHA256.hash(data: Data("repairminder.secret-box|\(Self.encryptionKey)".utf8)))
        var secrets: [(String, String)] = [
            ("JWT secret", Self.jwtSecret), ("encryption key", Self.encryptionKey), ("password", newPassword),
            ("emailed code", emailedCode), ("challenge token", challengeToken), ("access token", accessToken),
            ("refresh token", refreshToken), ("second access token", secondAccessToken),
            ("second refresh token", secondRefreshToken), ("TOTP secret", totpSecret), ("TOTP code", totpCode),
        ]
        secrets += recoveryCodes.map { ("recovery code", $0) }
        for (name, bytes) in [("JWT secret", jwtKey), ("encryption key", encryptionKey), ("secret box key", boxKey), ("TOTP secret", totpBytes)] {
            secrets += Self.renderings(of: bytes).map { ("\(name) bytes", $0) }
        }
        for (name, secret) in secrets {
            #expect(!output.contains(secret), "the verbose output holds the \(name)")
        }
    }
}
