import ArgumentParser
import Foundation
import RepairMinderKit
import RepairMinderModels

/// `repairminder account delete|export`: one's own account (docs/API.md §9.5).
struct AccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account",
        abstract: "Delete your account, or export what the server keeps about it.",
        discussion: """
            Your own account, whoever you are signed in as (docs/API.md §9.5).

            EXAMPLES:
              repairminder account export --output my-account.json
              repairminder account apps
              repairminder account delete
            """,
        subcommands: [Delete.self, Export.self, Apps.self])

    struct Apps: AsyncParsableCommand, SendsRoutes {
        static let sends: [any ErasableRoute] = [Routes.apps.authorizedApps, Routes.apps.withdrawApp]
        static let configuration = CommandConfiguration(
            abstract: "List the apps you allowed to sign you in, or take one back.",
            discussion: """
                Taking an app back ends its sessions at once; it asks you again the next time you sign in to it.

                EXAMPLES:
                  repairminder account apps
                  repairminder account apps --withdraw rmapp_Vb7NcY1mKs8HdP3fJg6RtE
                """)
        @Option(help: ArgumentHelp("Take back this app (its client id, as the list shows it).", valueName: "client-id"))
        var withdraw: String?
        @OptionGroup var connection: ServerOptions

        func run() async throws {
            let withdraw = withdraw
            let context = try ClientContext(server: connection.server)
            try await context.run {
                let apps = ConnectedAppsClient(api: context.api)
                if let withdraw {
                    let ended = try await apps.withdraw(withdraw)
                    Terminal.note("Taken back: \(ended) session\(ended == 1 ? "" : "s") ended.")
                    return
                }
                let found = try await apps.authorized()
                for app in found {
                    say("\(shown(app.clientId))  \(shown(app.name)) (\(shown(app.owner)))  \(app.scopes.map(shown).joined(separator: " "))  since \(shown(app.grantedAt))")
                }
                if found.isEmpty { say("You have not allowed any app.") }
            }
        }
    }

    struct Delete: MainActorClientCommand, SendsRoutes {
        static let sends: [any ErasableRoute] = [
            Routes.staffAuth.me, Routes.accountLifecycle.deleteAccount, Routes.customerAuth.deleteAccount,
        ]
        static let configuration = CommandConfiguration(
            abstract: "Delete the signed-in account for good (staff or customer); every device is signed out.",
            discussion: """
                Staff: your password is asked for (without one, sign in again first: the sign-in \
                must be less than 10 minutes old). A shop's last active admin must make another \
                member an admin first; the shop's only active member must add --close-shop, which \
                closes the shop too. Customers: the sign-in must be less than 10 minutes old; \
                your record in every shop becomes anonymous.

                On a terminal you type DELETE to confirm; from a script pass --yes, with the \
                password on the first line of standard input. Exit codes as for login.

                EXAMPLES:
                  repairminder account delete
                  printf '%s\\n' 'my password' | repairminder account delete --yes
                """)
        @Flag(help: "Also close the shop, when you are its only active member.") var closeShop = false
        @Flag(help: "Do not ask to type DELETE (for scripts).") var yes = false
        @OptionGroup var connection: ServerOptions

        @MainActor
        func perform(_ context: ClientContext) async throws {
            switch try context.store.role() {
            case .customer:
                try confirm("Your record in every shop becomes anonymous")
                try await CustomerAuth(api: context.api).deleteAccount()
            case .staff:
                let me = try await context.api.send(Routes.staffAuth.me)
                try confirm(closeShop ? "Your account and your shop \(me.company.name) are closed" : "Your account is erased")
                var password: String?
                if me.hasPassword {
                    guard let typed = Terminal.askSecret("Password: "), !typed.isEmpty else {
                        throw ClientInputError("your password is required (the first line of standard input in scripts)")
                    }
                    password = typed
                }
                try await StaffAuth(api: context.api).deleteAccount(password: password, closeShop: closeShop)
            case nil:
                throw APIError.notSignedIn
            }
            Terminal.note("Your account has been deleted. You are signed out.")
        }

        private func confirm(_ consequence: String) throws {
            guard !yes else { return }
            guard Terminal.isInteractive else { throw ClientInputError("add --yes to delete the account from a script") }
            guard Terminal.ask("\(consequence), and every device is signed out. Type DELETE to go on: ") == "DELETE" else {
                throw ClientInputError("nothing was deleted")
            }
        }
    }

    struct Export: MainActorClientCommand, SendsRoutes {
        static let sends: [any ErasableRoute] = [Routes.accountLifecycle.exportAccount]
        static let configuration = CommandConfiguration(
            abstract: "Write everything the server keeps about your staff account, as JSON.",
            discussion: """
                Your profile, shop, sign-in methods (never a secret), devices and every security \
                event, as GET /api/auth/me/export answers them.

                EXAMPLES:
                  repairminder account export > my-account.json
                  repairminder account export --output my-account.json
                """)
        @Option(help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file")) var output: String?
        @OptionGroup var connection: ServerOptions

        @MainActor
        func perform(_ context: ClientContext) async throws {
            let export = try await StaffAuth(api: context.api).exportAccount()
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let data = try encoder.encode(export) + Data("\n".utf8)
            if let output {
                try data.write(to: URL(fileURLWithPath: output), options: .atomic)
                Terminal.note("Wrote \(export.activity.count) events and \(export.sessions.count) sessions to \(output).")
            } else {
                FileHandle.standardOutput.write(data)
            }
        }
    }
}
