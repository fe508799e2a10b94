import ArgumentParser
import Foundation
import Hummingbird
import Logging
import RepairMinderModels
import RepairMinderServer

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the API server (SQLite in the data directory by default).",
        discussion: "Stops gracefully on SIGINT (Ctrl-C) or SIGTERM, finishing requests in flight."
    )

    @Flag(help: "Load the built-in demo accounts first and print how to sign in.")
    var demo = false

    @Flag(help: "Log every request and debug details.")
    var verbose = false

    @OptionGroup var options: SettingsOptions

    func run() async throws {
        let settings = try options.settings()
        if demo, settings.environment == .production {
            throw ValidationError("--demo loads accounts whose passwords are published; --env production refuses it")
        }
        var logger = Logger(label: "repairminder")
        logger.logLevel = verbose ? .debug : .info
        if demo {
            say("Loading demo accounts (hashing passwords at bcrypt cost \(settings.bcryptCost))...")
            let database = try await Database.openMigrated(settings: settings, logger: logger)
            _ = try await FixtureLoader(database: database, bcryptCost: settings.bcryptCost)
                .load(DemoFixtures.withLogo(in: settings.dataDirectory), actor: OperatorIdentity.current)
            await database.close()
        }
        let app = try await buildApplication(settings: settings, logger: logger)
        if demo { printDemoHelp(settings: settings) }
        try await app.runService()
    }

    /// Where the demo's codes can be read.
    private func readMail(_ settings: ServerSettings) -> String {
        switch settings.effectiveMailTransport {
        case .outbox: "read it with:\n  swift run repairminder outbox --data-dir \(settings.dataDirectory) --last 1"
        case .smtp: "find it at the SMTP server; the queue's state:\n  swift run repairminder outbox --status --data-dir \(settings.dataDirectory)"
        }
    }

    private func printDemoHelp(settings: ServerSettings) {
        let base = "http://\(settings.host):\(settings.port)"
        say("""

            Demo accounts loaded. Sign in as the admin:
              curl -s \(base)\(Routes.StaffAuth.login.path) -H 'Content-Type: application/json' \\
                -d '{"email":"\(DemoFixtures.adminEmail)","password":"\(DemoFixtures.adminPassword)"}'
            then ask for the emailed code with \(Routes.StaffAuth.requestTwoFactorCode.path) and \(readMail(settings))
            Other demo staff: \(DemoFixtures.engineerEmail) / "\(DemoFixtures.engineerPassword)", nopassword@acme.test (magic link only),
            deactivated@acme.test, archived@acme.test, owner@pending.test / "pending password",
            owner@suspended.test / "suspended password" (quarantined companies).
            Customers (passwordless): jane@example.test (one shop), multi@example.test (two shops):
              curl -s \(base)\(Routes.CustomerAuth.requestMagicLink.path) -H 'Content-Type: application/json' -d '{"email":"jane@example.test"}'
            The README walks through every flow.

            """)
    }
}
