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
        usage: "repairminder serve [--demo] [--verbose] [--config <file>] [<setting> ...]",
        discussion: """
            Stops gracefully on SIGINT (Ctrl-C) or SIGTERM, finishing requests in flight. \
            `repairminder config` shows the settings these flags, the environment and the config \
            file give, and where each came from.

            EXAMPLES:
              repairminder serve --demo
              repairminder serve --port 9000 --log-format json
              repairminder serve --config /etc/repairminder/repairminder.yaml

            \(SettingsArguments.help(for: "serve"))
            """
    )

    @Flag(help: "Load the built-in demo accounts first and print how to sign in.")
    var demo = false

    @Flag(help: "The same as --log-level debug.")
    var verbose = false

    @OptionGroup var settingsArguments: SettingsArguments

    func run() async throws {
        var loaded = try settingsArguments.load(for: "serve").settings
        // --verbose wins over everything but --log-level itself on the command line.
        if verbose, !settingsArguments.namesOnTheCommandLine.contains("log-level") { loaded.logLevel = .debug }
        do {
            try await serve(loaded)
        } catch where loaded.logFormat == .json && !(error is CancellationError) {
            // With --log-format json every line the process writes is JSON: a refusal too.
            let logger = Logger(label: "repairminder") { LineLogHandler(label: $0, format: .json) }
            logger.critical("\(FailureMessage.text(for: error))")
            throw ExitCode(1)
        }
    }

    private func serve(_ loaded: ServerSettings) async throws {
        // Before anything is read or written: a binary copied without its resources says so.
        try ResourceBundles.requireBesideExecutable()
        let settings = try SettingsArguments.validated(loaded)
        if demo, settings.environment == .production {
            throw ValidationError("--demo loads accounts whose passwords are published; --env production refuses it")
        }
        // Before the database is touched: a port in use is one line, not a half-started server.
        try await ListenCheck.ensureAvailable(for: settings)
        let logger = makeLogger(settings)
        // Held while serving, so `repairminder restore` refuses to replace the database under
        // it; taken before the keys are read, so a rotation of the generated encryption key
        // (which holds it alone) is over before this server reads them.
        let dataDirectoryLock = try DataDirectoryLock.holdShared(in: settings.dataDirectory)
        defer { close(dataDirectoryLock) }
        if demo {
            announce("Loading demo accounts (hashing passwords at bcrypt cost \(settings.bcryptCost))...", settings: settings, logger: logger)
            let database = try await Database.openMigrated(settings: settings, logger: logger)
            try await DemoFixtures.load(
                into: database, dataDirectory: settings.dataDirectory, bcryptCost: settings.bcryptCost, actor: OperatorIdentity.current)
            await database.close()
        }
        let draining = Draining()
        let app = try await buildApplication(settings: settings, logger: logger, draining: draining)
        RecordedServerURL.record(settings)
        if demo { announce(demoHelp(settings: settings), settings: settings, logger: logger) }
        logger.info("\(settings.startupSummary())")
        try await draining.run(app, delay: .seconds(settings.drainDelay), logger: logger)
        logger.info("Repair Minder stopped")
    }

    /// The process's logging, as `--log-format` and `--log-level` say; every logger made after
    /// this writes that way.
    private func makeLogger(_ settings: ServerSettings) -> Logger {
        let format = settings.logFormat
        LoggingSystem.bootstrap { label in LineLogHandler(label: label, format: format) }
        var logger = Logger(label: "repairminder")
        logger.logLevel = settings.logLevel
        return logger
    }

    /// Where the demo's codes can be read.
    private func readMail(_ settings: ServerSettings) -> String {
        switch settings.effectiveMailTransport {
        case .outbox: "read it with:\n  swift run repairminder outbox --data-dir \(settings.dataDirectory) --last 1"
        case .smtp: "find it at the SMTP server; the queue's state:\n  swift run repairminder outbox --status --data-dir \(settings.dataDirectory)"
        }
    }

    /// Says `text` to the person at the terminal; with `--log-format json` as a log line, so
    /// that every line the process writes is JSON.
    private func announce(_ text: String, settings: ServerSettings, logger: Logger) {
        switch settings.logFormat {
        case .json: logger.notice("\(text.trimmingCharacters(in: .whitespacesAndNewlines))")
        case .text: say(text)
        }
    }

    private func demoHelp(settings: ServerSettings) -> String {
        let base = "http://\(settings.host):\(settings.port)"
        return """

            Demo accounts loaded. Sign in as the admin:
              curl -s \(base)\(Routes.staffAuth.login.path) -H 'Content-Type: application/json' \\
                -d '{"email":"\(DemoFixtures.adminEmail)","password":"\(DemoFixtures.adminPassword)"}'
            then ask for the emailed code with \(Routes.staffAuth.requestTwoFactorCode.path) and \(readMail(settings))
            Other demo staff: \(DemoFixtures.engineerEmail) / "\(DemoFixtures.engineerPassword)", nopassword@acme.test (magic link only),
            deactivated@acme.test, archived@acme.test, owner@pending.test / "pending password",
            owner@suspended.test / "suspended password" (quarantined companies).
            The platform's administrator (every shop, /api/admin/*): \(DemoFixtures.platformAdminEmail) /
            "\(DemoFixtures.platformAdminPassword)"; its company requires a passkey within \(DemoFixtures.platformGraceDays) days.
            Customers (passwordless): jane@example.test (one shop), multi@example.test (two shops):
              curl -s \(base)\(Routes.customerAuth.requestMagicLink.path) -H 'Content-Type: application/json' -d '{"email":"jane@example.test"}'
            docs/walkthrough.md walks through every flow.

            """
    }
}
