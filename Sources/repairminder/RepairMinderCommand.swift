import ArgumentParser
import Foundation
import RepairMinderServer

@main
struct RepairMinderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repairminder",
        abstract: "The Repair Minder auth server, its tools, and a client to sign in from a terminal.",
        discussion: """
            The client commands (login, whoami, logout, register, password, sessions, activity, \
            totp, passkeys, team, invitation, policy, clients, reki) talk to a running server through the SDK, as an app does; the \
            operator commands run where the server runs.

            Every server setting is a flag, a REPAIRMINDER_* environment variable and a key of \
            a --config file (see `repairminder serve --help`; `repairminder config` shows where \
            each came from). Usage errors exit with status 2; a command that \
            cannot do its work prints one error line and exits with status 1.

            EXAMPLES:
              repairminder serve --demo        # a development server, demo accounts
              repairminder outbox              # the sign-in codes it emailed
              repairminder login --staff --email admin@acme.test
              repairminder openapi > openapi.json
              repairminder keys rotate         # a new signing key, no restart
              repairminder reki register --email you@example.com
            """,
        version: repairMinderVersion,
        subcommands: [
            ServeCommand.self, ConfigCommand.self, MigrateCommand.self, SeedCommand.self, OutboxCommand.self,
            OpenAPICommand.self, MailCommand.self, AuditCommand.self, CompanyCommand.self, AdminCommand.self, LoginCommand.self, WhoamiCommand.self, LogoutCommand.self, TOTPCommand.self, PasskeysCommand.self, RegisterCommand.self, AccountCommand.self,
            PasswordCommand.self, SessionsCommand.self, ActivityCommand.self, TeamCommand.self, InvitationCommand.self, PolicyCommand.self, AppsCommand.self, ClientsCommand.self, REKICommand.self, KeysCommand.self, BackupCommand.self, RestoreCommand.self,
        ]
    )

    /// ArgumentParser's own entry point, except that usage errors exit with 2 (not 64), as the
    /// client commands document, and a runtime failure is one `error: ...` line and status 1
    /// (`CommandFailure`), never followed by the usage text.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                sayError(fullMessage(for: error))
                Foundation.exit(2)
            }
            // ArgumentParser's own errors (--help, an ExitCode) keep its handling; anything else
            // a command threw is a runtime failure.
            if code == .failure, !(error is ExitCode) {
                sayError("error: \(FailureMessage.text(for: error))")
                Foundation.exit(1)
            }
            exit(withError: error)
        }
    }
}
