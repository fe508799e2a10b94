import Foundation
import RepairMinderServer
import TestSupport
import Testing

/// `repairminder login` and the emailed code: the two-step sign-in a script uses (`--send-code`,
/// then `--code`, as the README shows it), and the server's spacing between two codes waited
/// out, against the real binary and a real `serve --demo`.
@Suite(.serialized) struct LoginCodeTests {
    typealias Server = ClientCommandTests.Server

    /// The README's recipe, step by step: ask for the code, read it with `outbox` (the
    /// development server's mail), sign in with it choosing one of the customer's two shops.
    @Test func aCustomerSignsInInTwoStepsAsTheREADMEShows() throws {
        let server = try Server()
        let email = "multi@example.test"
        let sent = try server.client(["login", "--customer", "--email", email, "--send-code", "--server", server.url])
        #expect(sent.status == 0, "\(sent.error)")
        #expect(sent.error.contains("repairminder login --customer --email \(email) --code CODE"), "\(sent.error)")
        #expect(try server.client(["whoami"]).status == 1)

        let code = try Self.codeFromOutbox(to: email, dataDir: server.dataDir)
        let login = try server.client(["login", "--customer", "--email", email, "--company", "Beta Tech", "--code", code])
        #expect(login.status == 0, "\(login.error)")
        #expect(try server.client(["whoami"]).output == "Max Multi <multi@example.test>, customer of Beta Tech\n")
        // The second step sent no code of its own (it would have replaced the one used).
        #expect(try Mailbox.outbox(to: email, dataDirectory: server.dataDir, timeout: 0).count == 1)
    }

    /// The same two steps for a staff member's magic link.
    @Test func aMagicLinkSignsInInTwoSteps() throws {
        let server = try Server()
        let email = "nopassword@acme.test"
        let sent = try server.client(["login", "--staff", "--magic-link", "--email", email, "--send-code", "--server", server.url])
        #expect(sent.status == 0, "\(sent.error)")
        let code = try Self.codeFromOutbox(to: email, dataDir: server.dataDir)
        let login = try server.client(["login", "--staff", "--magic-link", "--email", email, "--code", code])
        #expect(login.status == 0, "\(login.error)")
        #expect(try server.client(["whoami"]).output.contains("<nopassword@acme.test>"))
        #expect(try Mailbox.outbox(to: email, dataDirectory: server.dataDir, timeout: 0).count == 1)
    }

    @Test func sendCodeIsOnlyForEmailedSignIns() throws {
        let staff = try CommandLineTests.run(["login", "--staff", "--email", "admin@acme.test", "--send-code"])
        #expect(staff.status == 2)
        #expect(staff.error.contains("--send-code is for --customer or --magic-link"), "\(staff.error)")
    }

    /// Asked for again within the spacing (here 4 s), login waits and then signs in.
    @Test func loginWaitsOutTheSpacingBetweenTwoCodes() throws {
        let server = try Server(extra: ["--code-resend-interval", "4"])
        let email = "jane@example.test"
        let first = try server.client(["login", "--customer", "--email", email, "--send-code", "--server", server.url])
        #expect(first.status == 0, "\(first.error)")
        // The first mail delivered before the second login starts: its code is not the one to use.
        _ = try Self.codeFromOutbox(to: email, dataDir: server.dataDir)
        let login = try server.client(["login", "--customer", "--email", email], input: [{ _ in try server.latestCode(to: email) }])
        #expect(login.status == 0, "\(login.error)")
        #expect(login.error.range(of: #"Waiting [1-4] s before the next code can be sent\.\.\."#, options: .regularExpression) != nil, "\(login.error)")
        // It waited the spacing out: the server mails no second code inside it, and the second
        // code is the one that signed in.
        #expect(try Mailbox.outbox(to: email, dataDirectory: server.dataDir, moreThan: 1).count == 2)
        #expect(login.error.contains("Signed in as Jane Customer"), "\(login.error)")
    }

    /// `password reset` run again soon after a first one waits out the spacing too.
    @Test func passwordResetWaitsOutTheSpacingBetweenTwoCodes() throws {
        let server = try Server(extra: ["--code-resend-interval", "4"])
        let email = "admin@acme.test"
        for (round, password) in ["quiet harbour 1999 fern", "amber lantern 2024 moss"].enumerated() {
            let reset = try server.client(
                ["password", "reset", "--email", email, "--server", server.url], input: [{ _ in password }, { _ in try server.latestCode(to: email) }])
            #expect(reset.status == 0, "\(reset.error)")
            #expect(reset.error.contains("Waiting") == (round == 1), "\(reset.error)")
            // The second reset waited the spacing out: its code (mailed only after it) reset the password.
            #expect(try Mailbox.outbox(to: email, dataDirectory: server.dataDir, moreThan: round).count == round + 1)
        }
    }

    /// The hourly number of codes used up: nobody waits an hour; login says when, and exits 1.
    @Test func loginExitsWhenTheHourlyCodesAreUsedUp() throws {
        let server = try Server(extra: ["--code-emails-per-hour", "1"])
        let email = "jane@example.test"
        let first = try server.client(["login", "--customer", "--email", email, "--send-code", "--server", server.url])
        #expect(first.status == 0, "\(first.error)")
        let second = try server.client(["login", "--customer", "--email", email, "--send-code"])
        // Told at once, not after a wait: no "Waiting" line (the test's time limit catches a hang).
        #expect(second.status == 1)
        #expect(second.error.contains("error: no more codes can be sent to \(email) for now: try again in about 60 minutes"), "\(second.error)")
        #expect(!second.error.contains("Waiting"))
    }

    /// What the README does by hand: `repairminder outbox --to EMAIL --last 1`, and the code in
    /// it (waiting up to 10 s: the delivery worker writes the outbox just after the request).
    static func codeFromOutbox(to email: String, dataDir: String) throws -> String {
        var code: String?
        try waitUntilBlocking("a code in the outbox for \(email)", timeout: .seconds(10), interval: .milliseconds(100)) {
            let outbox = try CommandLineTests.run(["outbox", "--to", email, "--last", "1", "--data-dir", dataDir])
            code = outbox.output.range(of: #"code is \d{6}"#, options: .regularExpression).map { String(outbox.output[$0].suffix(6)) }
            return code != nil
        }
        return try #require(code)
    }
}
