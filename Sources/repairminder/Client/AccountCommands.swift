import ArgumentParser
import Foundation
import RepairMinderKit
import RepairMinderModels

/// Input the account commands share.
enum AccountInput {
    /// A value from its flag, else asked for on a terminal; required.
    static func value(_ given: String?, prompt: String, name: String) throws -> String {
        if let given, !given.trimmingCharacters(in: .whitespaces).isEmpty { return given }
        guard let answer = Terminal.ask(prompt)?.trimmingCharacters(in: .whitespaces), !answer.isEmpty else {
            throw ClientInputError("\(name) is required")
        }
        return answer
    }

    /// A new password: on a terminal typed twice without echo; from a pipe, the next line.
    static func newPassword(_ prompt: String = "New password (8 characters or more): ") throws -> String {
        guard let password = Terminal.askSecret(prompt), !password.isEmpty else {
            throw ClientInputError("a password is required (the next line of standard input in scripts)")
        }
        if Terminal.isInteractive, Terminal.askSecret("Repeat it: ") != password {
            throw ClientInputError("the two passwords differ")
        }
        return password
    }

    /// An emailed code: `--code`, else the next line (asked for on a terminal).
    static func code(_ given: String?, prompt: String) throws -> String {
        if let given { return given }
        guard let answer = Terminal.ask(prompt)?.trimmingCharacters(in: .whitespaces), !answer.isEmpty else {
            throw ClientInputError("a code is required (use --code)")
        }
        return answer
    }
}

struct RegisterCommand: MainActorClientCommand, SendsRoutes {
    static let sends: [any ErasableRoute] = [Routes.accountLifecycle.register, Routes.accountLifecycle.verifyRegistration]
    static let configuration = CommandConfiguration(
        commandName: "register",
        abstract: "Register a new shop and its first admin, then sign in (the shop waits for approval).",
        usage: """
            repairminder register [--company <name>] [--first-name <name>]
              [--last-name <name>] [--email <email>] [--code <code>] [--server <url>]
            """,
        discussion: """
            A code is emailed to you; with it the shop is created, pending approval, and you are \
            signed in. Until an operator approves the shop (repairminder company approve NAME) you \
            see only your own account.

            On a terminal missing values are asked for. From a script: the flags, then the password \
            on the first line of standard input and the code on the next (or --code).

            Exit codes: 0 registered and signed in, 1 refused by the server (its message is printed), \
            2 usage error or missing input, 3 cannot reach the server.

            EXAMPLES:
              repairminder register
              repairminder register --company "Fixit Phones" --first-name Ada \\
                --last-name Lovelace --email ada@fixit.example
            """)

    @Option(help: ArgumentHelp("The shop's name.", valueName: "name")) var company: String?
    @Option(help: ArgumentHelp("Your first name.", valueName: "name")) var firstName: String?
    @Option(help: ArgumentHelp("Your last name.", valueName: "name")) var lastName: String?
    @Option(help: "Your email address (the code is sent there).") var email: String?
    @Option(help: "The emailed code instead of asking for it.") var code: String?
    @OptionGroup var connection: ServerOptions

    @MainActor
    func perform(_ context: ClientContext) async throws {
        let company = try AccountInput.value(company, prompt: "Shop name: ", name: "--company")
        let first = try AccountInput.value(firstName, prompt: "First name: ", name: "--first-name")
        let last = try AccountInput.value(lastName, prompt: "Last name: ", name: "--last-name")
        let email = try AccountInput.value(email, prompt: "Email: ", name: "--email")
        let password = try AccountInput.newPassword()
        let auth = StaffAuth(api: context.api)
        let sentTo = try await auth.register(companyName: company, firstName: first, lastName: last, email: email, password: password)
        Terminal.note("If \(sentTo) can register, a code was emailed to it.")
        try await auth.verifyRegistration(email: sentTo, code: try AccountInput.code(code, prompt: "Code from the email: "))
        if case .signedIn(let me) = auth.state {
            Terminal.note("Registered and signed in as \(Describe.staff(me)).")
            Terminal.note("The shop waits for an operator: repairminder company approve \"\(me.company.name)\"")
        }
    }
}

struct PasswordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "password",
        abstract: "Reset a forgotten password, or set or change yours.",
        discussion: """
            EXAMPLES:
              repairminder password reset --email admin@acme.test
              repairminder password change
            """,
        subcommands: [Reset.self, Change.self])

    struct Reset: MainActorClientCommand, SendsRoutes {
        static let sends: [any ErasableRoute] = [Routes.accountLifecycle.forgotPassword, Routes.accountLifecycle.resetPassword]
        static let configuration = CommandConfiguration(
            abstract: "Reset a forgotten staff password with a code emailed to you (signs out every device).",
            usage: """
                repairminder password reset [--email <email>] [--code <code>]
                  [--server <url>]
                """,
            discussion: """
                From a script: the new password on the first line of standard input, the code on the \
                next (or --code). Exit codes as for login.

                EXAMPLES:
                  repairminder password reset --email admin@acme.test
                """)
        @Option(help: "Your email address.") var email: String?
        @Option(help: "The emailed code instead of asking for it.") var code: String?
        @OptionGroup var connection: ServerOptions

        @MainActor
        func perform(_ context: ClientContext) async throws {
            let email = try AccountInput.value(email, prompt: "Email: ", name: "--email")
            let auth = StaffAuth(api: context.api)
            // Run again soon after a first try, it waits out the spacing between two codes.
            try await CodeRequest.send(to: email) { try await auth.requestPasswordReset(email: email) }
            Terminal.note("If \(email) has an account, a reset code was emailed to it.")
            let password = try AccountInput.newPassword()
            try await auth.resetPassword(email: email, code: try AccountInput.code(code, prompt: "Code from the email: "), newPassword: password)
            Terminal.note("Password reset. Every device was signed out: sign in with repairminder login.")
        }
    }

    struct Change: MainActorClientCommand, SendsRoutes {
        static let sends: [any ErasableRoute] = [Routes.staffAuth.me, Routes.accountLifecycle.changePassword]
        static let configuration = CommandConfiguration(
            abstract: "Set or change the signed-in staff member's password (signs out your other devices).",
            discussion: """
                From a script: the current password on the first line of standard input (none when \
                the account has no password yet), the new one on the next. Exit codes as for login.

                EXAMPLES:
                  repairminder password change
                  printf '%s\\n' 'old password' 'new long password' |
                    repairminder password change
                """)
        @OptionGroup var connection: ServerOptions

        @MainActor
        func perform(_ context: ClientContext) async throws {
            let auth = StaffAuth(api: context.api)
            let me = try await context.api.send(Routes.staffAuth.me)
            var current: String?
            if me.hasPassword {
                guard let typed = Terminal.askSecret("Current password: "), !typed.isEmpty else {
                    throw ClientInputError("the current password is required")
                }
                current = typed
            }
            try await auth.changePassword(current: current, new: try AccountInput.newPassword())
            Terminal.note(me.hasPassword ? "Password changed. Your other devices were signed out." : "Password set.")
        }
    }
}

struct SessionsCommand: MainActorClientCommand, SendsRoutes {
    static let sends: [any ErasableRoute] = [Routes.accountLifecycle.sessions, Routes.accountLifecycle.revokeSession, Routes.accountLifecycle.logoutOthers]
    static let configuration = CommandConfiguration(
        commandName: "sessions",
        abstract: "List the devices signed in to your staff account; sign one or all the others out.",
        discussion: """
            The current device is marked with *. Exit codes as for login.

            EXAMPLES:
              repairminder sessions
              repairminder sessions --others
              repairminder sessions --revoke 5d8e3f1a-7c2b-4e9d-a6f4-1b0c9e2d7a53
            """)

    @Option(help: ArgumentHelp("Sign out the session with this id.", valueName: "id")) var revoke: String?
    @Flag(help: "Sign out every session but this one.") var others = false
    @OptionGroup var connection: ServerOptions

    func validate() throws {
        if revoke != nil && others { throw ValidationError("choose one of --revoke and --others") }
    }

    @MainActor
    func perform(_ context: ClientContext) async throws {
        let auth = StaffAuth(api: context.api)
        if let revoke {
            try await auth.revokeSession(revoke)
            Terminal.note("Signed out \(revoke).")
        } else if others {
            let count = try await auth.signOutOtherDevices()
            Terminal.note(count == 1 ? "Signed out 1 other device." : "Signed out \(count) other devices.")
        } else {
            for session in try await auth.sessions() { say(session.line) }
        }
    }
}

extension SessionInfo {
    /// One line of `sessions` and `team sessions`: `*` marks the caller's own.
    var line: String {
        let device = userAgent.map(shown) ?? (isMobile ? "a phone" : "a browser")
        let place = ipAddress.map { " from \(shown($0))" } ?? ""
        let used = lastUsedAt.map { ", last used \($0)" } ?? ""
        return "\(current ? "*" : " ") \(shown(id))  \(device)\(place), signed in \(createdAt)\(used)"
    }
}
