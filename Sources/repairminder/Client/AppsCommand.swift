import ArgumentParser
import Foundation
import RepairMinderKit
import RepairMinderModels

/// `repairminder apps ...`: the connected apps (OAuth / OpenID Connect clients) of the signed-in
/// admin's shop, or with `--platform` the platform's (docs/API.md §16.1).
struct AppsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apps",
        abstract: "Register the apps that sign your staff in with Repair Minder (OpenID Connect clients).",
        discussion: """
            Needs an admin's session (repairminder login --staff). Without --platform, the apps of your \
            shop, which only its staff can use; with --platform (a platform administrator), the apps any \
            shop's staff can use. Apps are named by their id, as `apps list` shows it. A confidential \
            app's secret is printed once, when it is registered or rotated: store it then.

            EXAMPLES:
              repairminder apps list
              repairminder apps register --name "Acme bookings" --type confidential \\
                  --redirect-uri https://bookings.acme.test/callback \\
                  --scope openid --scope profile
              repairminder apps register --name "Bench app" --type public \\
                  --redirect-uri http://127.0.0.1/callback \\
                  --scope openid --scope offline_access
              repairminder apps rotate-secret 0193b2d4-5e6f-7a81-9b2c-3d4e5f6a7b8c \\
                  --keep-previous 3600
              repairminder apps delete 0193b2d4-5e6f-7a81-9b2c-3d4e5f6a7b8c --yes
            """,
        subcommands: [List.self, Show.self, Register.self, Update.self, RotateSecret.self, Delete.self])

    /// The options every subcommand takes: whose apps, and the server.
    struct Target: ParsableArguments {
        @Flag(help: "The platform's apps (a platform administrator) instead of your shop's.") var platform = false
        @OptionGroup var connection: ServerOptions
    }

    /// Runs `body` with the apps client of the signed-in session.
    static func withApps(_ target: Target, _ body: @escaping (ConnectedAppsClient) async throws -> Void) async throws {
        let context = try ClientContext(server: target.connection.server)
        let owner: ConnectedAppsClient.Owner = target.platform ? .platform : .shop
        try await context.run { try await body(ConnectedAppsClient(api: context.api, owner: owner)) }
    }

    static func summary(_ app: OAuthApp) -> String {
        "\(shown(app.id))  \(shown(app.name))  \(shown(app.type.rawValue))  client id \(shown(app.clientId))"
    }

    static func print(_ app: OAuthApp) {
        say(summary(app))
        say("  Redirect URIs:     \(app.redirectUris.map(shown).joined(separator: " "))")
        if !app.postLogoutRedirectUris.isEmpty {
            say("  After sign-out:    \(app.postLogoutRedirectUris.map(shown).joined(separator: " "))")
        }
        say("  Scopes:            \(app.scopes.map(shown).joined(separator: " "))")
        if app.firstParty { say("  First party:       yes (no consent page)") }
        say("  Registered:        \(shown(app.createdAt)), changed \(shown(app.updatedAt))")
        if let until = app.previousSecretExpiresAt { say("  Previous secret:   works until \(shown(until))") }
        if let secret = app.clientSecret {
            say("  Client secret:     \(secret)")
            Terminal.note("Store the client secret now: it is not shown again.")
        }
    }

    struct List: AsyncParsableCommand, SendsRoutes {
        static let sends: [any ErasableRoute] = [Routes.apps.shopApps, Routes.apps.platformApps]
        static let configuration = CommandConfiguration(
            abstract: "List the apps, newest first.",
            discussion: """
                EXAMPLES:
                  repairminder apps list
                  repairminder apps list --platform
                """)
        @OptionGroup var target: Target

        func run() async throws {
            try await AppsCommand.withApps(target) { apps in
                let found = try await apps.apps()
                for app in found { say(AppsCommand.summary(app)) }
                say(found.isEmpty ? "No apps yet: repairminder apps register --help" : "\(found.count) app\(found.count == 1 ? "" : "s")")
            }
        }
    }

    struct Show: AsyncParsableCommand, SendsRoutes {
        static let sends: [any ErasableRoute] = [Routes.apps.shopApp, Routes.apps.platformApp]
        static let configuration = CommandConfiguration(
            abstract: "Show one app: its URIs, scopes and secret's state.",
            discussion: """
                EXAMPLES:
                  repairminder apps show 0193b2d4-5e6f-7a81-9b2c-3d4e5f6a7b8c
                """)
        @Argument(help: "The app's id.") var id: String
        @OptionGroup var target: Target

        func run() async throws {
            let id = id
            try await AppsCommand.withApps(target) { apps in AppsCommand.print(try await apps.app(id)) }
        }
    }

    struct Register: AsyncParsableCommand, SendsRoutes {
        static let sends: [any ErasableRoute] = [Routes.apps.registerShopApp, Routes.apps.registerPlatformApp]
        static let configuration = CommandConfiguration(
            abstract: "Register an app; a confidential app's secret is printed once.",
            usage: """
                repairminder apps register --name <name> --type <type>
                  --redirect-uri <uri> ... [--post-logout-uri <uri> ...]
                  --scope <scope> ... [--first-party] [--platform] [--server <url>]
                """,
            discussion: """
                --type confidential is a server-side app that keeps a secret; public is a native or browser \
                app (PKCE alone protects its sign-ins). Redirect URIs are matched exactly: https:// URLs, or \
                http://127.0.0.1 or http://[::1] with any port for a native app. Scopes: \
                \(OAuthScope.all.joined(separator: ", ")).

                EXAMPLES:
                  repairminder apps register --name "Acme bookings" --type confidential \\
                      --redirect-uri https://bookings.acme.test/callback \\
                      --scope openid --scope profile --scope email
                  repairminder apps register --platform --name Dashboard \\
                      --type public --first-party \\
                      --redirect-uri https://dashboard.repairminder.test/callback \\
                      --scope openid
                """)
        @Option(help: "What staff see on the consent page.") var name: String
        @Option(help: "confidential or public.") var type: String
        @Option(name: .customLong("redirect-uri"), help: "Where sign-ins return (repeat for several).") var redirectUris: [String] = []
        @Option(name: .customLong("post-logout-uri"), help: "Where a sign-out may return (repeat for several).")
        var postLogoutUris: [String] = []
        @Option(name: .customLong("scope"), help: "A scope the app may ask for (repeat for several).") var scopes: [String] = []
        @Flag(name: .customLong("first-party"), help: "A platform app whose users see no consent page (--platform only).")
        var firstParty = false
        @OptionGroup var target: Target

        func validate() throws {
            guard OAuthAppType(known: type) != nil else {
                throw ValidationError("--type must be confidential or public")
            }
            if redirectUris.isEmpty { throw ValidationError("give at least one --redirect-uri") }
            if scopes.isEmpty { throw ValidationError("give at least one --scope (openid, to sign people in)") }
        }

        func run() async throws {
            let registration = OAuthAppRegistration(
                name: name, type: OAuthAppType(rawValue: type), redirectUris: redirectUris,
                postLogoutRedirectUris: postLogoutUris.isEmpty ? nil : postLogoutUris, scopes: scopes,
                firstParty: firstParty ? true : nil)
            try await AppsCommand.withApps(target) { apps in AppsCommand.print(try await apps.register(registration)) }
        }
    }

    struct Update: AsyncParsableCommand, SendsRoutes {
        static let sends: [any ErasableRoute] = [Routes.apps.updateShopApp, Routes.apps.updatePlatformApp]
        static let configuration = CommandConfiguration(
            commandName: "update",
            abstract: "Change an app's name, URIs or scopes; a list given replaces the old one whole.",
            usage: """
                repairminder apps update <id> [--name <name>] [--redirect-uri <uri> ...]
                  [--post-logout-uri <uri> ...] [--scope <scope> ...]
                  [--first-party <true|false>] [--platform] [--server <url>]
                """,
            discussion: """
                EXAMPLES:
                  repairminder apps update 0193b2d4-5e6f-7a81-9b2c-3d4e5f6a7b8c \\
                      --name "Acme bookings 2"
                  repairminder apps update 0193b2d4-5e6f-7a81-9b2c-3d4e5f6a7b8c \\
                      --redirect-uri https://bookings.acme.test/callback \\
                      --redirect-uri https://bookings.acme.test/oidc
                """)
        @Argument(help: "The app's id.") var id: String
        @Option(help: "A new name.") var name: String?
        @Option(name: .customLong("redirect-uri"), help: "The redirect URIs (repeat; replaces them all).") var redirectUris: [String] = []
        @Option(name: .customLong("post-logout-uri"), help: "The sign-out URIs (repeat; replaces them all).")
        var postLogoutUris: [String] = []
        @Option(name: .customLong("scope"), help: "The scopes (repeat; replaces them all).") var scopes: [String] = []
        @Option(name: .customLong("first-party"), help: ArgumentHelp("Whether consent is skipped (--platform only).", valueName: "true|false"))
        var firstParty: Bool?
        @OptionGroup var target: Target

        func run() async throws {
            let (id, change) = (
                id,
                OAuthAppUpdate(
                    name: name, redirectUris: redirectUris.isEmpty ? nil : redirectUris,
                    postLogoutRedirectUris: postLogoutUris.isEmpty ? nil : postLogoutUris, scopes: scopes.isEmpty ? nil : scopes,
                    firstParty: firstParty)
            )
            try await AppsCommand.withApps(target) { apps in AppsCommand.print(try await apps.update(id, change)) }
        }
    }

    struct RotateSecret: AsyncParsableCommand, SendsRoutes {
        static let sends: [any ErasableRoute] = [Routes.apps.rotateShopAppSecret, Routes.apps.rotatePlatformAppSecret]
        static let configuration = CommandConfiguration(
            commandName: "rotate-secret",
            abstract: "Give a confidential app a new secret (printed once).",
            usage: """
                repairminder apps rotate-secret <id> [--keep-previous <seconds>]
                  [--platform] [--server <url>]
                """,
            discussion: """
                The replaced secret keeps working for --keep-previous seconds (a day by default), so the \
                app can be given the new one without a gap; 0 ends it now, after a leak.

                EXAMPLES:
                  repairminder apps rotate-secret 0193b2d4-5e6f-7a81-9b2c-3d4e5f6a7b8c
                  repairminder apps rotate-secret 0193b2d4-5e6f-7a81-9b2c-3d4e5f6a7b8c \\
                      --keep-previous 0
                """)
        @Argument(help: "The app's id.") var id: String
        @Option(name: .customLong("keep-previous"), help: ArgumentHelp("Seconds the old secret still works, 0 to 604800.", valueName: "seconds"))
        var keepPrevious: Int?
        @OptionGroup var target: Target

        func run() async throws {
            let (id, keep) = (id, keepPrevious)
            try await AppsCommand.withApps(target) { apps in
                AppsCommand.print(try await apps.rotateSecret(id, previousSecretValidSeconds: keep))
            }
        }
    }

    struct Delete: AsyncParsableCommand, SendsRoutes {
        static let sends: [any ErasableRoute] = [Routes.apps.deleteShopApp, Routes.apps.deletePlatformApp]
        static let configuration = CommandConfiguration(
            abstract: "Delete an app: it signs nobody in from now on.",
            discussion: """
                On a terminal you type the app's name to confirm; from a script pass --yes.

                EXAMPLES:
                  repairminder apps delete 0193b2d4-5e6f-7a81-9b2c-3d4e5f6a7b8c
                  repairminder apps delete 0193b2d4-5e6f-7a81-9b2c-3d4e5f6a7b8c --yes
                """)
        @Argument(help: "The app's id.") var id: String
        @Flag(help: "Do not ask to confirm (for scripts).") var yes = false
        @OptionGroup var target: Target

        func run() async throws {
            let (id, yes) = (id, yes)
            try await AppsCommand.withApps(target) { apps in
                if !yes {
                    let app = try await apps.app(id)
                    guard Terminal.isInteractive else { throw ClientInputError("add --yes to delete an app from a script") }
                    guard Terminal.ask("Type the app's name (\(shown(app.name))) to delete it: ") == app.name else {
                        throw ClientInputError("nothing was deleted")
                    }
                }
                try await apps.delete(id)
                Terminal.note("The app is deleted.")
            }
        }
    }
}
