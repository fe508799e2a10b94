import ExtrasBase64
import Foundation
import RepairMinderKit
import RepairMinderModels
import TestSupport
import Testing


@testable import RepairMinderServer

/// `repairminder login / whoami / logout / totp`: the built binary against a real server
/// (also the built binary, `serve --demo`) on a free loopback port.
@Suite(.serialized) struct ClientCommandTests {
    /// A running `repairminder serve --demo` in a fresh data directory.
    final class Server: @unchecked Sendable {
        let process = Process()
        let dataDir = CommandLineTests.temporaryDirectory()
        let configHome = CommandLineTests.temporaryDirectory() + "-config"
        let url: String
        /// What the server's database and mail queue are found by.
        var settings: ServerSettings {
            var settings = ServerSettings()
            settings.dataDirectory = dataDir
            return settings
        }

        init(extra: [String] = []) throws {
            let port = try freeLoopbackPort()
            url = "http://127.0.0.1:\(port)"
            process.executableURL = CommandLineTests.binary
            process.arguments = [
                "serve", "--demo", "--data-dir", dataDir, "--port", String(port), "--bcrypt-cost", "4",
                "--code-resend-interval", "0", "--code-emails-per-hour", "0", "--ip-rate-limit", "0",
            ] + extra
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // With the PostgreSQL suite running beside it, a start can take a while.
            try waitUntilBlocking("serve --demo listening with its users", interval: .milliseconds(100)) {
                (try? CommandLineTests.sqlite(dataDir, "SELECT COUNT(*) FROM users").trimmingCharacters(in: .whitespacesAndNewlines)) == "8"
                    && Self.answers(port)
            }
        }

        static func answers(_ port: Int) -> Bool {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
        }

        /// Runs the client with this server's config home. Each `input` line is written to its
        /// standard input as soon as it is computed, in turn: the client reads a line per prompt
        /// (`readLine`), so one written early waits in the pipe; a line that depends on what the
        /// client did waits for that itself (`latestCode` for the mail, `currentCode` for the
        /// output, which a line may read as often as it needs: the client may still be writing it).
        func client(_ arguments: [String], input: [@Sendable (_ output: () -> String) throws -> String] = []) throws
            -> (status: Int32, output: String, error: String)
        {
            let process = Process()
            process.executableURL = CommandLineTests.binary
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(["XDG_CONFIG_HOME": configHome]) { $1 }
            mailBeforeClient.value = try OutboxTransport.read(path: OutboxTransport.path(dataDirectory: dataDir)).count
            let stdin = Pipe(), out = Pipe(), err = Pipe()
            process.standardInput = stdin
            process.standardOutput = out
            process.standardError = err
            let collected = OutputBuffer(), errors = OutputBuffer()
            try process.run()
            // Each pipe is read to its end on a thread of its own, not by a `readabilityHandler`:
            // clearing a handler while its dispatch source still fires, then reading the same
            // handle, crashed libdispatch's event loop in CI (twice in one day).
            let readers = [(out, collected), (err, errors)].map { pipe, buffer in OutputBuffer.readToEnd(pipe, into: buffer) }
            // A client that exits before reading all its input fails its test, not the whole run:
            // the write gets EPIPE (ignored from then on) instead of SIGPIPE killing the runner.
            signal(SIGPIPE, SIG_IGN)
            for line in input {
                try? stdin.fileHandleForWriting.write(contentsOf: Data((try line { collected.text } + "\n").utf8))
            }
            try? stdin.fileHandleForWriting.close()
            process.waitUntilExit()
            for reader in readers { reader.wait() }
            return (process.terminationStatus, collected.text, errors.text)
        }

        /// The code in the newest mail to `email` sent since the running client started, waiting
        /// up to 10 s for it (on a loaded machine the client may not have asked for it yet).
        func latestCode(to email: String) throws -> String {
            let outbox = OutboxTransport.path(dataDirectory: dataDir)
            var fresh: [MailMessage] = []
            try waitUntilBlocking("a fresh mail to \(email)", timeout: .seconds(10), interval: .milliseconds(100)) {
                fresh = try OutboxTransport.read(path: outbox).dropFirst(mailBeforeClient.value).filter { $0.to == email }
                return !fresh.isEmpty
            }
            let text = try #require(fresh.last?.text)
            return String(text[try #require(text.range(of: #"\d{6}"#, options: .regularExpression))])
        }

        /// How many mails the outbox held when the last client started.
        private let mailBeforeClient = Locked(0)

        func refreshTokenRows() throws -> Int {
            Int(try CommandLineTests.sqlite(dataDir, "SELECT COUNT(*) FROM refresh_tokens").trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        }

        deinit {
            process.terminate()
            process.waitUntilExit()
            try? FileManager.default.removeItem(atPath: dataDir)
            try? FileManager.default.removeItem(atPath: configHome)
        }
    }

    /// The server requires login step 1's challengeToken: the CLI sends it (through the SDK).
    @Test func scriptedStaffLoginWhoamiWithOneRefreshThenLogout() throws {
        let server = try Server(extra: ["--access-token-ttl", "61", "--require-challenge-token", "true"])
        let login = try server.client(
            ["login", "--staff", "--email", "admin@acme.test", "--server", server.url, "--password-stdin"],
            input: [{ _ in "correct horse battery" }, { _ in try server.latestCode(to: "admin@acme.test") }])
        #expect(login.status == 0, "\(login.error)")
        #expect(login.error.contains("Signed in as Ada Admin"))
        // Credentials are private.
        let file = server.configHome + "/repairminder/staff-credentials.json"
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int)
        #expect(mode & 0o777 == 0o600)
        #expect(try server.refreshTokenRows() == 1)
        // The code went through the queue: delivered once, and --status says so without the code.
        let status = try CommandLineTests.run(["outbox", "--status", "--data-dir", server.dataDir])
        #expect(status.status == 0, "\(status.error)")
        #expect(status.output.contains("attempts 1  admin@acme.test  Your Repair Minder verification code"), "\(status.output)")
        #expect(status.output.hasSuffix("0 queued, 0 sending, 1 sent, 0 failed\n"), "\(status.output)")
        let json = try CommandLineTests.run(["outbox", "--status", "--json", "--data-dir", server.dataDir])
        let entry = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect(entry["state"] as? String == "sent")
        #expect(!json.output.contains(try server.latestCode(to: "admin@acme.test")))
        // A 61 s token is within the SDK's 60 s margin once a second has passed since it was
        // issued (the outbox commands above often took that long): whoami then refreshes once.
        let stored = FileCredentialStore(directory: URL(fileURLWithPath: server.configHome).appendingPathComponent("repairminder"))
        let expiresAt = try #require(try stored.staffCredentials()).accessTokenExpiresAt
        try waitUntilBlocking("the access token within the SDK's refresh margin", interval: .milliseconds(50)) {
            expiresAt.timeIntervalSinceNow < 60
        }
        // Issue 50, item 8: a mistyped --server is unreachable (exit 3) and is not remembered.
        let typo = try server.client(["whoami", "--server", "http://127.0.0.1:9"])
        #expect(typo.status == 3, "\(typo.error)")
        let whoami = try server.client(["whoami"])
        #expect(whoami.status == 0, "\(whoami.error)")
        #expect(whoami.output == "Ada Admin <admin@acme.test>, admin at Acme Repairs (active)\n")
        #expect(try server.refreshTokenRows() == 2)
        let logout = try server.client(["logout"])
        #expect(logout.status == 0)
        let after = try server.client(["whoami"])
        #expect(after.status == 1)
        #expect(after.error.contains("not signed in"))
    }

    @Test func wrongPasswordAndWrongCodeExitOneWithTheServersMessage() throws {
        let server = try Server()
        let wrongPassword = try server.client(
            ["login", "--staff", "--email", "admin@acme.test", "--server", server.url, "--password-stdin"], input: [{ _ in "nope" }])
        #expect(wrongPassword.status == 1)
        #expect(wrongPassword.error.contains("error: Invalid credentials"))
        let wrongCode = try server.client(
            ["login", "--staff", "--email", "admin@acme.test", "--password-stdin", "--code", "000000"], input: [{ _ in "correct horse battery" }])
        #expect(wrongCode.status == 1)
        #expect(wrongCode.error.contains("error: Invalid verification code"))
    }

    @Test func magicLinkAndCustomerCompanySelection() throws {
        let server = try Server()
        let magic = try server.client(
            ["login", "--staff", "--magic-link", "--email", "nopassword@acme.test", "--server", server.url],
            input: [{ _ in try server.latestCode(to: "nopassword@acme.test") }])
        #expect(magic.status == 0, "\(magic.error)")
        #expect(try server.client(["whoami"]).output.contains("nopassword@acme.test"))
        // Without --company a script is told to choose.
        let unchosen = try server.client(
            ["login", "--customer", "--email", "multi@example.test"], input: [{ _ in try server.latestCode(to: "multi@example.test") }])
        #expect(unchosen.status == 2)
        #expect(unchosen.error.contains("--company"))
        let customer = try server.client(
            ["login", "--customer", "--email", "multi@example.test", "--company", "Beta Tech"],
            input: [{ _ in try server.latestCode(to: "multi@example.test") }])
        #expect(customer.status == 0, "\(customer.error)")
        #expect(try server.client(["whoami"]).output == "Max Multi <multi@example.test>, customer of Beta Tech\n")
    }

    @Test func authenticatorSetupStatusLoginAndDisable() async throws {
        let server = try Server()
        _ = try server.client(
            ["login", "--staff", "--email", "admin@acme.test", "--server", server.url, "--password-stdin"],
            input: [{ _ in "correct horse battery" }, { _ in try server.latestCode(to: "admin@acme.test") }])
        let setup = try server.client(["totp", "setup"], input: [{ output in try Self.currentCode(fromSetupOutput: output) }])
        #expect(setup.status == 0, "\(setup.error)")
        #expect(setup.output.contains("otpauth://totp/Repair%20Minder:admin@acme.test?secret="))
        let recovery = setup.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.count == 8 && $0.allSatisfy { RecoveryCodes.alphabet.contains($0) } }
        #expect(recovery.count == 10)
        #expect(try server.client(["totp", "status"]).output == "enabled, 10 recovery codes left\n")
        // Sign in with the app's next code (the setup used the current one; +30 s is accepted).
        let secretLine = try #require(setup.output.split(separator: "\n").first { $0.hasPrefix("Secret") })
        // Shown in groups of four for typing: the spaces are not part of it.
        let secret = try Base32.decode(string: String((secretLine.split(separator: ":", maxSplits: 1).last ?? "").filter { $0 != " " }))
        let generator = TOTPGenerator()
        let next = generator.code(secret: secret, step: generator.step(at: Date().timeIntervalSince1970) + 1)
        let withApp = try server.client(
            ["login", "--staff", "--email", "admin@acme.test", "--password-stdin", "--code", next], input: [{ _ in "correct horse battery" }])
        #expect(withApp.status == 0, "\(withApp.error)")
        // Sign in again with a recovery code: no email is sent.
        let mailBefore = try await Mailbox.messages(to: "admin@acme.test", settings: server.settings).count
        let login = try server.client(
            ["login", "--staff", "--email", "admin@acme.test", "--password-stdin", "--code", recovery[0]],
            input: [{ _ in "correct horse battery" }])
        #expect(login.status == 0, "\(login.error)")
        #expect(try await Mailbox.messages(to: "admin@acme.test", settings: server.settings).count == mailBefore)
        let disable = try server.client(["totp", "disable", "--code", recovery[1]])
        #expect(disable.status == 0, "\(disable.error)")
        #expect(try server.client(["totp", "status"]).output == "not enabled\n")
    }

    /// `repairminder passkeys` lists and removes; `login` explains that a passkey-only account
    /// cannot finish here (the passkey is made over HTTP by the software authenticator).
    @Test func passkeysListAndRemoveAndLoginExplains() async throws {
        let server = try Server()
        let login = try server.client(
            ["login", "--staff", "--email", "admin@acme.test", "--server", server.url, "--password-stdin"],
            input: [{ _ in "correct horse battery" }, { _ in try server.latestCode(to: "admin@acme.test") }])
        #expect(login.status == 0, "\(login.error)")
        #expect(try server.client(["passkeys"]).output.hasPrefix("No passkeys."))

        let http = HTTPSteps(base: server.url)
        let first = try http.post("/api/auth/login", ["email": "admin@acme.test", "password": "correct horse battery"])
        let userId = try #require(first["userId"] as? String)
        let outboxPath = OutboxTransport.path(dataDirectory: server.dataDir)
        let mailBefore = try OutboxTransport.read(path: outboxPath).count
        _ = try http.post("/api/auth/2fa/request", ["userId": userId, "email": "admin@acme.test"])
        // The delivery worker writes the outbox shortly after the request commits the mail.
        var outbox: [MailMessage] = []
        try await waitUntil("the code in the outbox", interval: .milliseconds(100)) {
            outbox = try OutboxTransport.read(path: outboxPath)
            return outbox.count > mailBefore
        }
        let text = try #require(outbox.dropFirst(mailBefore).last { $0.to == "admin@acme.test" }?.text)
        let code = String(text[try #require(text.range(of: #"\d{6}"#, options: .regularExpression))])
        let token = try #require(try http.post("/api/auth/2fa/verify", ["userId": userId, "code": code])["token"] as? String)
        let options = try http.post("/api/auth/passkeys/register/options", [:], bearer: token)
        let started = try JSONDecoder().decode(PasskeyRegistrationOptions.self, from: JSONSerialization.data(withJSONObject: options))
        // A development server's passkeys belong to localhost (browsers refuse 127.0.0.1 as an rp id).
        let origin = server.url.replacingOccurrences(of: "127.0.0.1", with: "localhost")
        let credential = try await SoftwarePasskeyAuthenticator(origin: origin).createPasskey(started.publicKey)
        let enrolled = try http.post(
            "/api/auth/passkeys/register/verify",
            try JSONSerialization.jsonObject(
                with: JSONEncoder().encode(PasskeyRegistrationRequest(challengeId: started.challengeId, name: "CLI test", credential: credential)))
                as? [String: Any] ?? [:],
            bearer: token)
        let id = try #require(enrolled["id"] as? String)

        let listed = try server.client(["passkeys"])
        #expect(listed.status == 0)
        #expect(listed.output.contains("\(id)  CLI test  added "))
        #expect(listed.output.contains("never used"))
        let refused = try server.client(
            ["login", "--staff", "--email", "admin@acme.test", "--password-stdin"], input: [{ _ in "correct horse battery" }])
        #expect(refused.status == 2)
        #expect(refused.error.contains("admin@acme.test signs in with a passkey, which this command cannot use"))
        let removed = try server.client(["passkeys", "--remove", id])
        #expect(removed.status == 0, "\(removed.error)")
        #expect(try server.client(["passkeys"]).output.hasPrefix("No passkeys."))
        #expect(try server.client(["passkeys", "--remove", id]).status == 1)
    }

    /// `register`, `sessions`, `password change` and `password reset`, scripted.
    @Test func rekiRegisterLoginMeAndLogout() async throws {
        let server = try Server()
        let email = "reki.cli@example.com"
        let register = try server.client(["reki", "register", "--email", email, "--server", server.url], input: [{ _ in "violet kettle 1987" }])
        #expect(register.status == 0, "\(register.error)")
        #expect(register.output.hasPrefix("\(email) (REKI user "))
        #expect(try server.client(["reki", "register", "--email", email], input: [{ _ in "violet kettle 1987" }]).error
            .contains("error: Email already exists"))
        let me = try server.client(["reki", "me"])
        #expect(me.status == 0, "\(me.error)")
        #expect(me.output == register.output)
        // The REKI session is its own: Repair Minder's client is still signed out.
        #expect(try server.client(["whoami"]).status == 1)
        #expect(try server.client(["reki", "logout"]).status == 0)
        let signedOut = try server.client(["reki", "me"])
        #expect(signedOut.status == 1)
        #expect(signedOut.error.contains("Sign in with: repairminder reki login"))
        let wrong = try server.client(["reki", "login", "--email", email], input: [{ _ in "not the password" }])
        #expect(wrong.status == 1)
        #expect(wrong.error.contains("error: Invalid credentials"))
        let login = try server.client(["reki", "login", "--email", email], input: [{ _ in "violet kettle 1987" }])
        #expect(login.status == 0, "\(login.error)")
        #expect(try server.client(["reki", "me"]).output == register.output)
    }

    /// `register` of Ada and her shop Fixit Phones, signing the tool in as her.
    private static func registerFixitPhones(_ server: Server, _ email: String) throws -> (status: Int32, output: String, error: String) {
        try server.client(
            ["register", "--company", "Fixit Phones", "--first-name", "Ada", "--last-name", "Lovelace", "--email", email, "--server", server.url],
            input: [{ _ in "violet kettle 1987 drum" }, { _ in try server.latestCode(to: email) }])
    }

    /// `account export` writes the JSON; `account delete` wants --yes from a script and, for the
    /// shop's only member, --close-shop; then the tool is signed out and the address is free.
    @Test func accountExportAndDelete() async throws {
        let server = try Server()
        let email = "ada@fixit.test"
        let register = try Self.registerFixitPhones(server, email)
        #expect(register.status == 0, "\(register.error)")
        let export = try server.client(["account", "export"])
        #expect(export.status == 0, "\(export.error)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(export.output.utf8)) as? [String: Any])
        #expect((json["user"] as? [String: Any])?["email"] as? String == email)

        let unconfirmed = try server.client(["account", "delete"], input: [{ _ in "violet kettle 1987 drum" }])
        #expect(unconfirmed.status == 2, "\(unconfirmed.error)")
        #expect(unconfirmed.error.contains("add --yes to delete the account from a script"))
        let alone = try server.client(["account", "delete", "--yes"], input: [{ _ in "violet kettle 1987 drum" }])
        #expect(alone.status == 1)
        #expect(alone.error.contains("You are the shop's only active member"))
        #expect(try server.client(["whoami"]).status == 0)
        let deleted = try server.client(["account", "delete", "--yes", "--close-shop"], input: [{ _ in "violet kettle 1987 drum" }])
        #expect(deleted.status == 0, "\(deleted.error)")
        #expect(deleted.error.contains("Your account has been deleted. You are signed out."))
        #expect(try server.client(["whoami"]).status == 1)
    }

    @Test func registerSessionsAndPasswords() async throws {
        let server = try Server()
        let email = "ada@fixit.test"
        let register = try Self.registerFixitPhones(server, email)
        #expect(register.status == 0, "\(register.error)")
        #expect(register.error.contains("Registered and signed in as Ada Lovelace <ada@fixit.test>, admin at Fixit Phones (pending_approval)"))
        let sessions = try server.client(["sessions"])
        #expect(sessions.status == 0, "\(sessions.error)")
        #expect(sessions.output.split(separator: "\n").count == 1)
        #expect(sessions.output.hasPrefix("* "))

        let weak = try server.client(["password", "change"], input: [{ _ in "violet kettle 1987 drum" }, { _ in "password1" }])
        #expect(weak.status == 1)
        #expect(weak.error.contains("This password is too common. Choose another."))
        let change = try server.client(["password", "change"], input: [{ _ in "violet kettle 1987 drum" }, { _ in "amber lantern 2044 oak" }])
        #expect(change.status == 0, "\(change.error)")
        #expect(change.error.contains("Password changed."))
        let others = try server.client(["sessions", "--others"])
        #expect(others.error.contains("Signed out 0 other devices."))

        let reset = try server.client(
            ["password", "reset", "--email", email], input: [{ _ in "quiet harbour 1999 fern" }, { _ in try server.latestCode(to: email) }])
        #expect(reset.status == 0, "\(reset.error)")
        // Every device was signed out, this one too.
        #expect(try server.client(["whoami"]).status == 1)
        let login = try server.client(
            ["login", "--staff", "--email", email, "--password-stdin"],
            input: [{ _ in "quiet harbour 1999 fern" }, { _ in try server.latestCode(to: email) }])
        #expect(login.status == 0, "\(login.error)")
        let revokeUnknown = try server.client(["sessions", "--revoke", "no-such-session"])
        #expect(revokeUnknown.status == 1)
        #expect(revokeUnknown.error.contains("Not found"))
    }

    /// The current TOTP code for the secret `totp setup` prints (in groups of four), waiting up
    /// to 10 s for the line: on a loaded machine the setup request may not have answered yet.
    static func currentCode(fromSetupOutput output: () -> String) throws -> String {
        var secretLine: Substring?
        try waitUntilBlocking("the Secret line of totp setup", timeout: .seconds(10), interval: .milliseconds(100)) {
            secretLine = output().split(separator: "\n").first { $0.hasPrefix("Secret") }
            return secretLine != nil
        }
        let line = try #require(secretLine, "no Secret line in: \(output())")
        let grouped = try #require(line.split(separator: ":", maxSplits: 1).last)
        let secret = try Base32.decode(string: String(grouped.filter { $0 != " " }))
        let generator = TOTPGenerator()
        return generator.code(secret: secret, step: generator.step(at: Date().timeIntervalSince1970))
    }

    @Test func anUnreachableServerExitsThree() throws {
        let configHome = CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: configHome) }
        let process = Process()
        process.executableURL = CommandLineTests.binary
        process.arguments = ["login", "--customer", "--email", "jane@example.test", "--server", "http://127.0.0.1:9", "--code", "123456"]
        process.environment = ["XDG_CONFIG_HOME": configHome, "PATH": "/usr/bin:/bin"]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let error = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 3)
        #expect(error.contains("Cannot reach the server"))
    }
}

/// Bytes a pipe produced so far, collected from its handler thread.
final class OutputBuffer: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func append(_ more: Data) { lock.withLock { data.append(more) } }
    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }

    /// Starts a thread that appends what `pipe` delivers to `buffer` as it comes, until the end
    /// of the pipe (every writer gone); wait on the semaphore for that end.
    static func readToEnd(_ pipe: Pipe, into buffer: OutputBuffer) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        let handle = pipe.fileHandleForReading
        Thread {
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
            }
            done.signal()
        }.start()
        return done
    }
}

extension ClientCommandTests {
    static let hasPexpect: Bool = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import pexpect"]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    @Test(.enabled(if: hasPexpect, "python3's pexpect is not installed: the pseudo-terminal test is skipped"))
    func interactivePromptsOnAPseudoTerminal() throws {
        let server = try Server()
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("interactive_login.py").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, CommandLineTests.binary.path, server.url, server.dataDir, server.configHome]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(output)")
        #expect(output.contains("interactive logins ok"))
    }
}

/// JSON requests to the server under test, for steps the CLI does not take (making a passkey),
/// through `curl`: no URLSession in this process, whose dispatch sources beside the client
/// processes' pipe handlers are one more thing that can go wrong in corelibs-Foundation.
struct HTTPSteps {
    let base: String

    /// POSTs `body`; the `data` of the envelope.
    func post(_ path: String, _ body: [String: Any], bearer: String? = nil) throws -> [String: Any] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        var arguments = ["curl", "-s", "-X", "POST", "-H", "Content-Type: application/json", "--data-binary", "@-"]
        if let bearer { arguments += ["-H", "Authorization: Bearer \(bearer)"] }
        process.arguments = arguments + [base + path]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: body))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let envelope = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(envelope["data"] as? [String: Any], "\(envelope)")
    }
}
