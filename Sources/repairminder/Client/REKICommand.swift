import ArgumentParser
import Foundation
import RepairMinderKit
import RepairMinderModels

/// `repairminder reki ...`: REKI's account from a terminal, through the SDK's `REKIClient`
/// (docs/API.md §10). Its session is kept beside the Repair Minder one, under its own key.
struct REKICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reki",
        abstract: "Use a REKI account (the second app this server serves under /auth/*).",
        discussion: """
            REKI accounts are separate from Repair Minder's staff and customers. On a terminal the \
            email and password are asked for (the password without echo); from a script give \
            --email and the password on the first line of standard input.

            Exit codes: 0 done, 1 refused by the server (its message is printed), 2 usage error or \
            missing input, 3 cannot reach the server.

            EXAMPLES:
              repairminder reki register --email you@example.com
              repairminder reki login --email you@example.com
              repairminder reki me
              repairminder reki logout
              repairminder reki delete-account
            """,
        subcommands: [Register.self, Login.self, Me.self, Logout.self, DeleteAccount.self])

    struct Register: AsyncParsableCommand, SendsRoutes {
        static let sends: [any ErasableRoute] = [Routes.reki.register]
        static let configuration = CommandConfiguration(
            abstract: "Create a REKI account and sign in (8 characters or more, not a common password).",
            discussion: """
                EXAMPLES:
                  repairminder reki register --email you@example.com
                  echo 'violet kettle 1987' | repairminder reki register --email you@example.com
                """)
        @Option(help: "Your email address.") var email: String?
        @OptionGroup var connection: ServerOptions

        func run() async throws {
            let context = try ClientContext(server: connection.server)
            try await context.run(signInHint: REKICommand.signInHint) {
                let email = try AccountInput.value(email, prompt: "Email: ", name: "--email")
                let user = try await context.reki.register(email: email, password: try AccountInput.newPassword())
                Terminal.note("Registered and signed in to REKI.")
                say(REKICommand.describe(user))
            }
        }
    }

    struct Login: AsyncParsableCommand, SendsRoutes {
        static let sends: [any ErasableRoute] = [Routes.reki.login]
        static let configuration = CommandConfiguration(
            abstract: "Sign in to a REKI account.",
            discussion: """
                EXAMPLES:
                  repairminder reki login --email you@example.com
                  echo 'violet kettle 1987' | repairminder reki login --email you@example.com
                """)
        @Option(help: "Your email address.") var email: String?
        @OptionGroup var connection: ServerOptions

        func run() async throws {
            let context = try ClientContext(server: connection.server)
            try await context.run(signInHint: REKICommand.signInHint) {
                let email = try AccountInput.value(email, prompt: "Email: ", name: "--email")
                guard let password = Terminal.askSecret("Password: "), !password.isEmpty else {
                    throw ClientInputError("a password is required (the first line of standard input in scripts)")
                }
                let user = try await context.reki.login(email: email, password: password)
                Terminal.note("Signed in to REKI.")
                say(REKICommand.describe(user))
            }
        }
    }

    struct Me: AsyncParsableCommand, SendsRoutes {
        static let sends: [any ErasableRoute] = [Routes.reki.me]
        static let configuration = CommandConfiguration(
            abstract: "Show the signed-in REKI user (refreshing the session if needed).",
            discussion: """
                EXAMPLES:
                  repairminder reki me
                """)
        @OptionGroup var connection: ServerOptions

        func run() async throws {
            let context = try ClientContext(server: connection.server)
            try await context.run(signInHint: REKICommand.signInHint) {
                say(REKICommand.describe(try await context.reki.me()))
            }
        }
    }

    struct DeleteAccount: AsyncParsableCommand, SendsRoutes {
        static let sends: [any ErasableRoute] = [Routes.reki.deleteAccount]
        static let configuration = CommandConfiguration(
            commandName: "delete-account",
            abstract: "Delete the signed-in REKI account for good (its password is asked again).",
            discussion: """
                Every session of the account ends and nothing of it is kept; the address can \
                register again.

                EXAMPLES:
                  repairminder reki delete-account
                  echo 'violet kettle 1987' | repairminder reki delete-account
                """)
        @OptionGroup var connection: ServerOptions

        func run() async throws {
            let context = try ClientContext(server: connection.server)
            try await context.run(signInHint: REKICommand.signInHint) {
                guard let password = Terminal.askSecret("Password: "), !password.isEmpty else {
                    throw ClientInputError("a password is required (the first line of standard input in scripts)")
                }
                try await context.reki.deleteAccount(password: password)
                Terminal.note("Your REKI account has been deleted.")
            }
        }
    }

    struct Logout: AsyncParsableCommand, SendsRoutes {
        static let sends: [any ErasableRoute] = [Routes.reki.logout]
        static let configuration = CommandConfiguration(
            abstract: "Sign out of REKI: ends the session on the server and forgets it here.",
            discussion: """
                The local session is removed even when the server cannot be reached.

                EXAMPLES:
                  repairminder reki logout
                """)
        @OptionGroup var connection: ServerOptions

        func run() async throws {
            let context = try ClientContext(server: connection.server)
            try await context.run(signInHint: REKICommand.signInHint) {
                try await context.reki.logout()
                Terminal.note("Signed out of REKI.")
            }
        }
    }

    static let signInHint = "repairminder reki login"

    static func describe(_ user: REKIUser) -> String {
        "\(user.email) (REKI user \(user.id), since \(user.createdAt))"
    }
}
