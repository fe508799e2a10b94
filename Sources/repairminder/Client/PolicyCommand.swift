import ArgumentParser
import Foundation
import RepairMinderKit
import RepairMinderModels

/// `repairminder policy show|set`: the shop's security policy (docs/API.md §13), how its staff
/// must sign in, through `SecurityPolicyClient`.
struct PolicyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "policy",
        abstract: "Show or change how your shop's staff must sign in (its security policy).",
        discussion: """
            Sign in first (repairminder login --staff). Any member of the shop may show the policy; only an \
            admin may set it. A tightening reaches every signed-in device at its next refresh.

            EXAMPLES:
              repairminder policy show
              repairminder policy set --required-factor app_or_passkey \\
                  --enrolment-grace-days 7
              repairminder policy set --allow-magic-link false --session-max-web-days 7
            """,
        subcommands: [Show.self, Change.self])

    /// Runs `body` with the policy client of the signed-in session.
    static func withPolicy(_ connection: ServerOptions, _ body: @escaping (SecurityPolicyClient) async throws -> Void) async throws {
        let context = try ClientContext(server: connection.server)
        try await context.run { try await body(SecurityPolicyClient(api: context.api)) }
    }

    /// The policy as `show` and `set` print it: one line per setting.
    static func print(_ policy: SecurityPolicy, json: Bool) throws {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            sayJSON(String(decoding: try encoder.encode(policy), as: UTF8.self))
            return
        }
        say("Required factor:   \(shown(policy.requiredFactor.rawValue)) (\(meaning(of: policy.requiredFactor)))")
        say("Grace period:      \(days(policy.enrolmentGraceDays)) to set it up")
        say("Magic links:       \(policy.allowMagicLink ? "allowed" : "not allowed")")
        say("Sessions last:     at most \(days(policy.sessionMaxLifetimeDays.web)) on the web, \(days(policy.sessionMaxLifetimeDays.mobile)) in the app")
        if let at = policy.updatedAt {
            say("Last changed:      \(shown(at))\(policy.updatedBy.map { " by \(shown($0.email))" } ?? "")")
        } else {
            say("Last changed:      never (the defaults)")
        }
    }

    static func meaning(of factor: RequiredFactor) -> String {
        switch factor {
        case .notRequired: "nothing beyond a password and an emailed code"
        case .appOrPasskey: "an authenticator app or a passkey"
        case .passkey: "a passkey"
        case .unknown: "a requirement this version does not know"
        }
    }

    static func days(_ count: Int) -> String { count == 1 ? "1 day" : "\(count) days" }

    struct Show: AsyncParsableCommand, SendsRoutes {
        static let sends: [any ErasableRoute] = [Routes.securityPolicy.policy]
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show how the shop's staff must sign in.",
            usage: """
                repairminder policy show [--json] [--server <url>]
                """,
            discussion: """
                EXAMPLES:
                  repairminder policy show
                  repairminder policy show --json
                """)
        @Flag(help: "The policy as one JSON object instead of text.") var json = false
        @OptionGroup var connection: ServerOptions

        func run() async throws {
            let json = json
            try await PolicyCommand.withPolicy(connection) { client in try PolicyCommand.print(try await client.policy(), json: json) }
        }
    }

    struct Change: AsyncParsableCommand, SendsRoutes {
        static let sends: [any ErasableRoute] = [Routes.securityPolicy.update]
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Change how the shop's staff must sign in (admins); options left out keep their value.",
            usage: """
                repairminder policy set [--required-factor <factor>]
                  [--allow-magic-link <true|false>] [--enrolment-grace-days <days>]
                  [--session-max-web-days <days>] [--session-max-mobile-days <days>]
                  [--json] [--server <url>]
                """,
            discussion: """
                --required-factor is none (the default: a password and an emailed code, or a magic link, are \
                enough), app_or_passkey (an authenticator app or a passkey) or passkey (a passkey only). Staff \
                without it keep full access for the grace period, counted from this change (or from when \
                they joined, if later); after it they can do nothing but set it up. Session lifetimes can only \
                be shortened below the server's own; a shorter one ends older sessions at their next refresh.

                EXAMPLES:
                  repairminder policy set --required-factor app_or_passkey \\
                      --enrolment-grace-days 7
                  repairminder policy set --required-factor passkey --enrolment-grace-days 0
                  repairminder policy set --allow-magic-link false --session-max-web-days 7
                """)
        @Option(name: .customLong("required-factor"), help: ArgumentHelp("none, app_or_passkey or passkey.", valueName: "factor"))
        var requiredFactor: String?
        @Option(name: .customLong("allow-magic-link"), help: ArgumentHelp("Whether an emailed magic link signs staff in.", valueName: "true|false"))
        var allowMagicLink: Bool?
        @Option(name: .customLong("enrolment-grace-days"), help: ArgumentHelp("Days staff have to set up the required factor, 0 to 30.", valueName: "days"))
        var enrolmentGraceDays: Int?
        @Option(name: .customLong("session-max-web-days"), help: ArgumentHelp("Days a browser's session lasts at most, from its sign-in.", valueName: "days"))
        var sessionMaxWebDays: Int?
        @Option(name: .customLong("session-max-mobile-days"), help: ArgumentHelp("Days an app's session lasts at most, from its sign-in.", valueName: "days"))
        var sessionMaxMobileDays: Int?
        @Flag(help: "The policy as one JSON object instead of text.") var json = false
        @OptionGroup var connection: ServerOptions

        func validate() throws {
            if let requiredFactor, !RequiredFactor.allCases.map(\.rawValue).contains(requiredFactor) {
                throw ValidationError("--required-factor must be none, app_or_passkey or passkey")
            }
            if let enrolmentGraceDays, !SecurityPolicyUpdate.graceDays.contains(enrolmentGraceDays) {
                throw ValidationError("--enrolment-grace-days must be 0 to 30")
            }
            for (name, value) in [("--session-max-web-days", sessionMaxWebDays), ("--session-max-mobile-days", sessionMaxMobileDays)] {
                if let value, value < 1 { throw ValidationError("\(name) must be at least 1") }
            }
            if change == SecurityPolicyUpdate() { throw ValidationError("name at least one setting to change (see --help)") }
        }

        /// The options given, as the update to send.
        var change: SecurityPolicyUpdate {
            let lifetimes = SessionLifetimeUpdate(web: sessionMaxWebDays, mobile: sessionMaxMobileDays)
            return SecurityPolicyUpdate(
                requiredFactor: requiredFactor.map { RequiredFactor(rawValue: $0) }, allowMagicLink: allowMagicLink,
                enrolmentGraceDays: enrolmentGraceDays, sessionMaxLifetimeDays: lifetimes == SessionLifetimeUpdate() ? nil : lifetimes)
        }

        func run() async throws {
            let (change, json) = (change, json)
            try await PolicyCommand.withPolicy(connection) { client in try PolicyCommand.print(try await client.update(change), json: json) }
        }
    }
}
