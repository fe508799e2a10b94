import Foundation
import RepairMinderServer
import TestSupport
import Testing

/// `repairminder policy show|set` against a live `serve --demo`, and what a signed-in CLI does
/// when the policy it set restricts its own session (docs/API.md §13.3).
@Suite struct PolicyCommandTests {
    typealias Server = ClientCommandTests.Server

    static func login(_ server: Server, _ email: String, _ password: String) throws {
        let login = try server.client(
            ["login", "--staff", "--email", email, "--server", server.url, "--password-stdin"],
            input: [{ _ in password }, { _ in try server.latestCode(to: email) }])
        #expect(login.status == 0, "\(login.error)")
    }

    @Test func anAdminShowsAndSetsThePolicyAndEnrolsWhenItRestrictsThem() throws {
        let server = try Server()
        try Self.login(server, "admin@acme.test", "correct horse battery")

        let shown = try server.client(["policy", "show"])
        #expect(shown.status == 0, "\(shown.error)")
        #expect(shown.output.contains("Required factor:   none (nothing beyond a password and an emailed code)\n"), "\(shown.output)")
        #expect(shown.output.contains("Grace period:      7 days to set it up\n"))
        #expect(shown.output.contains("Magic links:       allowed\n"))
        #expect(shown.output.contains("Last changed:      never (the defaults)\n"))

        // Mistakes in the command line are usage errors; nothing is sent.
        let nothing = try server.client(["policy", "set"])
        #expect(nothing.status == 2)
        #expect(nothing.error.contains("name at least one setting to change"), "\(nothing.error)")
        #expect(try server.client(["policy", "set", "--required-factor", "sometimes"]).error.contains("--required-factor must be none, app_or_passkey or passkey"))
        #expect(try server.client(["policy", "set", "--enrolment-grace-days", "31"]).status == 2)
        #expect(try server.client(["policy", "set", "--allow-magic-link", "maybe"]).status == 2)
        // Beyond the server's own lifetime (30 days on the web): the server's words.
        let tooLong = try server.client(["policy", "set", "--session-max-web-days", "400"])
        #expect(tooLong.status == 1)
        #expect(tooLong.error.contains("sessionMaxLifetimeDays.web"), "\(tooLong.error)")

        let relaxed = try server.client(["policy", "set", "--allow-magic-link", "false", "--session-max-web-days", "10"])
        #expect(relaxed.status == 0, "\(relaxed.error)")
        #expect(relaxed.output.contains("Magic links:       not allowed\n"), "\(relaxed.output)")
        #expect(relaxed.output.contains("Sessions last:     at most 10 days on the web, 365 days in the app\n"), "\(relaxed.output)")
        #expect(relaxed.output.contains(" by admin@acme.test\n"), "\(relaxed.output)")

        // Another role reads it, and may not change it.
        try Self.login(server, "engineer@acme.test", "engineer password")
        #expect(try server.client(["policy", "show"]).output.contains("Magic links:       not allowed\n"))
        let refused = try server.client(["policy", "set", "--allow-magic-link", "true"])
        #expect(refused.status == 1)
        #expect(refused.error.contains("You do not have permission to do this"), "\(refused.error)")

        // The admin requires the app or a passkey at once, and has neither: their own session is
        // restricted at its next request, until they set one up (no second sign-in).
        try Self.login(server, "admin@acme.test", "correct horse battery")
        let tightened = try server.client(["policy", "set", "--required-factor", "app_or_passkey", "--enrolment-grace-days", "0", "--json"])
        #expect(tightened.status == 0, "\(tightened.error)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(tightened.output.utf8)) as? [String: Any])
        #expect(json["requiredFactor"] as? String == "app_or_passkey")
        #expect(json["enrolmentGraceDays"] as? Int == 0)
        #expect((json["sessionMaxLifetimeDays"] as? [String: Any])?["web"] as? Int == 10)
        let restricted = try server.client(["policy", "show"])
        #expect(restricted.status == 1)
        #expect(restricted.error.contains("error: Your shop requires an authenticator app or a passkey. Set one up to continue."), "\(restricted.error)")
        #expect(restricted.error.contains("run: repairminder totp setup"), "\(restricted.error)")
        let setup = try server.client(["totp", "setup"], input: [{ output in try ClientCommandTests.currentCode(fromSetupOutput: output) }])
        #expect(setup.status == 0, "\(setup.error)")
        let full = try server.client(["policy", "show", "--json"])
        #expect(full.status == 0, "\(full.error)")
        #expect(full.output.contains(#""requiredFactor":"app_or_passkey""#), "\(full.output)")
    }
}
