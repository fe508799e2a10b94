import ArgumentParser
import Foundation
import RepairMinderKit
import RepairMinderModels

/// `repairminder clients ...`: a signed-in staff member manages the shop's customers
/// (docs/API.md §14) through `ClientsClient`. The CSV import and export are in
/// `ClientsCommand+CSV.swift`.
struct ClientsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clients",
        abstract: "Manage your shop's customers: records, portal access, CSV import and export.",
        discussion: """
            Every subcommand needs a staff session (repairminder login --staff) of a role that may read the \
            shop's clients (office, admin); changing them takes the same. Clients are named by their id, as \
            `clients list` and `clients search` show it.

            EXAMPLES:
              repairminder clients list --sort name
              repairminder clients search ada
              repairminder clients add --email jane@example.com --first-name Jane
              repairminder clients edit 3f6c2a9e-1b7d-4c58-9e2a-6d1f0b8c4a27 --portal off
              repairminder clients import customers.csv --dry-run
              repairminder clients export customers.csv
            """,
        subcommands: [
            List.self, Search.self, Add.self, Show.self, Edit.self, Delete.self, Invite.self, Sessions.self, SignOut.self,
            Import.self, Export.self,
        ])

    /// Runs `body` with the clients client of the signed-in session. A refusal that has a next
    /// step (the existing client of a taken address, when to try again) is printed with it.
    static func withClients(_ connection: ServerOptions, _ body: @escaping (ClientsClient) async throws -> Void) async throws {
        let context = try ClientContext(server: connection.server)
        try await context.run {
            do {
                try await body(ClientsClient(api: context.api))
            } catch let error as APIError {
                guard let hint = hint(for: error) else { throw error }
                Terminal.note("error: \(error.message)")
                Terminal.note(hint)
                throw ClientContext.Exit.refused
            }
        }
    }

    /// What to do after `error`, when there is something.
    static func hint(for error: APIError) -> String? {
        switch error {
        case .clientExists(let id?, _): "It is client \(shown(id)): repairminder clients show \(shown(id))"
        case .rateLimited(let seconds?, _): "Try again in \(seconds) s."
        case .server(409, _, .clientPortalDisabled): "Switch the portal on first: repairminder clients edit <id> --portal on"
        default: nil
        }
    }

    /// One client on one line: id, name, address, phone, and the portal when it is off.
    static func describe(_ client: ShopClient) -> String {
        let who = client.name == client.email ? "<\(shown(client.email))>" : "\(shown(client.name)) <\(shown(client.email))>"
        return "\(shown(client.id))  \(who)" + (client.phone.map { "  \(shown($0))" } ?? "")
            + (client.portalEnabled ? "" : "  (portal off)")
    }

    /// One client in full, a field a line; the notes' own lines indented under theirs.
    static func printDetail(_ client: ShopClient) {
        say("Id:          \(shown(client.id))")
        say("Name:        \(shown(client.name))")
        say("Email:       \(shown(client.email))")
        say("Phone:       \(client.phone.map(shown) ?? "none")")
        let notes = (client.notes ?? "").split(separator: "\n", omittingEmptySubsequences: false).map { shown(String($0)) }
        say("Notes:       \(notes.first.flatMap { $0.isEmpty ? nil : $0 } ?? "none")")
        for line in notes.dropFirst() { say("             \(line)") }
        let lastSignIn = client.lastPortalLogin.map { "last signed in \(shown($0))" } ?? "never signed in"
        say("Portal:      \(client.portalEnabled ? "on" : "off"), \(lastSignIn)")
        say("Added:       \(shown(client.createdAt))")
        say("Changed:     \(shown(client.updatedAt))")
    }

    struct List: AsyncParsableCommand, SendsRoutes {
        static let sends: [any ErasableRoute] = [Routes.clients.list]
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the shop's clients, newest first or by name.",
            usage: """
                repairminder clients list [--page <page>] [--limit <limit>]
                  [--query <text>] [--sort name|-created_at] [--server <url>]
                """,
            discussion: """
                --query keeps the clients whose address, first or last name starts with the text, in any case.

                EXAMPLES:
                  repairminder clients list
                  repairminder clients list --sort name --limit 100 --page 2
                  repairminder clients list --query ada
                """)
        @Option(help: "Page number, from 1.") var page: Int = 1
        @Option(help: "Clients per page, 1 to 100 (the server's 20 when left out).") var limit: Int?
        @Option(help: ArgumentHelp("Only clients whose address or name starts with this.", valueName: "text")) var query: String?
        @Option(parsing: .unconditional, help: ArgumentHelp("name, or -created_at (newest first).", valueName: "order"))
        var sort: String = ClientsClient.Order.newest.rawValue
        @OptionGroup var connection: ServerOptions

        func validate() throws {
            guard ClientsClient.Order(rawValue: sort) != nil else { throw ValidationError("--sort must be name or -created_at") }
            guard page >= 1 else { throw ValidationError("--page must be at least 1") }
            if let limit, !(1...100).contains(limit) { throw ValidationError("--limit must be 1 to 100") }
        }

        func run() async throws {
            let (page, limit, query, sort) = (page, limit, query, ClientsClient.Order(rawValue: sort) ?? .newest)
            try await ClientsCommand.withClients(connection) { clients in
                let found = try await clients.list(page: page, limit: limit, query: query, sort: sort)
                for client in found.items { say(ClientsCommand.describe(client)) }
                say(found.footer)
            }
        }
    }

    struct Search: AsyncParsableCommand, SendsRoutes {
        static let sends: [any ErasableRoute] = [Routes.clients.search]
        static let configuration = CommandConfiguration(
            commandName: "search",
            abstract: "Find clients by the start of their address, a name or their phone number.",
            usage: """
                repairminder clients search <text> [--limit <limit>] [--server <url>]
                """,
            discussion: """
                Up to 10 best matches, as a booking form's type-ahead finds them: a phone number matches by its \
                digits, whatever its spaces and +.

                EXAMPLES:
                  repairminder clients search ada
                  repairminder clients search "07700 900" --limit 5
                """)
        @Argument(help: "The start of an address, a first or last name, or phone digits.") var text: String
        @Option(help: "At most this many, 1 to 10.") var limit: Int?
        @OptionGroup var connection: ServerOptions

        func validate() throws {
            if let limit, !(1...10).contains(limit) { throw ValidationError("--limit must be 1 to 10") }
        }

        func run() async throws {
            let (text, limit) = (text, limit)
            try await ClientsCommand.withClients(connection) { clients in
                let found = try await clients.search(text, limit: limit)
                if found.isEmpty { say("No client matches.") }
                for client in found { say(ClientsCommand.describe(client)) }
            }
        }
    }

    struct Add: AsyncParsableCommand, SendsRoutes {
        static let sends: [any ErasableRoute] = [Routes.clients.create]
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a client to the shop.",
            usage: """
                repairminder clients add --email <email> [--first-name <first-name>]
                  [--last-name <last-name>] [--phone <phone>] [--notes <notes>]
                  [--server <url>]
                """,
            discussion: """
                An address that is already a client of the shop, in any case, is refused with the existing \
                client's id. The client can then sign in to the shop's portal with an emailed code; \
                `clients invite` tells them so.

                EXAMPLES:
                  repairminder clients add --email jane@example.com --first-name Jane \\
                      --last-name Customer --phone "+44 7700 900123"
                """)
        @Option(help: "Their email address.") var email: String
        @Option(name: .customLong("first-name"), help: "Their first name.") var firstName: String?
        @Option(name: .customLong("last-name"), help: "Their last name.") var lastName: String?
        @Option(help: "Their phone number: digits, spaces and +, at most 32.") var phone: String?
        @Option(help: "Notes for the shop's staff, at most 2,000 characters.") var notes: String?
        @OptionGroup var connection: ServerOptions

        func run() async throws {
            let request = ClientCreateRequest(email: email, firstName: firstName, lastName: lastName, phone: phone, notes: notes)
            try await ClientsCommand.withClients(connection) { clients in
                let client = try await clients.create(request)
                say("Added \(ClientsCommand.describe(client))")
            }
        }
    }

    struct Show: AsyncParsableCommand, SendsRoutes {
        static let sends: [any ErasableRoute] = [Routes.clients.detail]
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show one client in full.",
            usage: """
                repairminder clients show <id> [--server <url>]
                """,
            discussion: """
                EXAMPLES:
                  repairminder clients show 3f6c2a9e-1b7d-4c58-9e2a-6d1f0b8c4a27
                """)
        @Argument(help: "The client's id.") var id: String
        @OptionGroup var connection: ServerOptions

        func run() async throws {
            let id = id
            try await ClientsCommand.withClients(connection) { clients in ClientsCommand.printDetail(try await clients.client(id: id)) }
        }
    }

    /// `--portal on|off`.
    enum PortalSwitch: String, ExpressibleByArgument, CaseIterable {
        case on, off
    }

    struct Edit: AsyncParsableCommand, SendsRoutes {
        static let sends: [any ErasableRoute] = [Routes.clients.update]
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Change a client's details or switch their portal off or on; options left out keep their value.",
            usage: """
                repairminder clients edit <id> [--email <email>]
                  [--first-name <first-name>] [--last-name <last-name>]
                  [--phone <phone>] [--notes <notes>] [--portal on|off]
                  [--server <url>]
                """,
            discussion: """
                --portal off keeps the record but ends the client's portal: their sessions with the shop end at \
                once and they cannot sign in to it until it is switched on again.

                EXAMPLES:
                  repairminder clients edit 3f6c2a9e-1b7d-4c58-9e2a-6d1f0b8c4a27 \\
                      --phone "020 7946 0000"
                  repairminder clients edit 3f6c2a9e-1b7d-4c58-9e2a-6d1f0b8c4a27 --portal off
                """)
        @Argument(help: "The client's id.") var id: String
        @Option(help: "Their new email address.") var email: String?
        @Option(name: .customLong("first-name"), help: "Their first name.") var firstName: String?
        @Option(name: .customLong("last-name"), help: "Their last name.") var lastName: String?
        @Option(help: "Their phone number: digits, spaces and +, at most 32.") var phone: String?
        @Option(help: "Notes for the shop's staff, at most 2,000 characters.") var notes: String?
        @Option(help: ArgumentHelp("Whether they may sign in to the shop's portal.", valueName: "on|off")) var portal: PortalSwitch?
        @OptionGroup var connection: ServerOptions

        /// The options given, as the update to send.
        var change: ClientUpdateRequest {
            ClientUpdateRequest(
                email: email, firstName: firstName, lastName: lastName, phone: phone, notes: notes, portalEnabled: portal.map { $0 == .on })
        }

        func validate() throws {
            if change == ClientUpdateRequest() { throw ValidationError("name at least one field to change (see --help)") }
        }

        func run() async throws {
            let (id, change) = (id, change)
            try await ClientsCommand.withClients(connection) { clients in ClientsCommand.printDetail(try await clients.update(id: id, change)) }
        }
    }

    struct Delete: AsyncParsableCommand, SendsRoutes {
        static let sends: [any ErasableRoute] = [Routes.clients.delete]
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete a client: their portal sessions with the shop end at once.",
            usage: """
                repairminder clients delete <id> [--server <url>]
                """,
            discussion: """
                They can no longer sign in to the shop's portal; their other shops are untouched, and the address \
                may be added again later.

                EXAMPLES:
                  repairminder clients delete 3f6c2a9e-1b7d-4c58-9e2a-6d1f0b8c4a27
                """)
        @Argument(help: "The client's id.") var id: String
        @OptionGroup var connection: ServerOptions

        func run() async throws {
            let id = id
            try await ClientsCommand.withClients(connection) { clients in
                try await clients.delete(id: id)
                say("Deleted client \(shown(id)); their portal sessions with the shop have ended.")
            }
        }
    }

    struct Invite: AsyncParsableCommand, SendsRoutes {
        static let sends: [any ErasableRoute] = [Routes.clients.portalInvite]
        static let configuration = CommandConfiguration(
            commandName: "invite",
            abstract: "Email a client an invitation to follow their repairs in the shop's portal.",
            usage: """
                repairminder clients invite <id> [--server <url>]
                """,
            discussion: """
                The mail names the shop and carries a sign-in link. At most one a minute per client and 200 a day \
                per shop; a client whose portal is off cannot be invited.

                EXAMPLES:
                  repairminder clients invite 3f6c2a9e-1b7d-4c58-9e2a-6d1f0b8c4a27
                """)
        @Argument(help: "The client's id.") var id: String
        @OptionGroup var connection: ServerOptions

        func run() async throws {
            let id = id
            try await ClientsCommand.withClients(connection) { clients in say(shown(try await clients.invite(id: id).message)) }
        }
    }

    struct Sessions: AsyncParsableCommand, SendsRoutes {
        static let sends: [any ErasableRoute] = [Routes.clients.sessions]
        static let configuration = CommandConfiguration(
            commandName: "sessions",
            abstract: "List a client's live portal sessions with the shop.",
            usage: """
                repairminder clients sessions <id> [--server <url>]
                """,
            discussion: """
                EXAMPLES:
                  repairminder clients sessions 3f6c2a9e-1b7d-4c58-9e2a-6d1f0b8c4a27
                """)
        @Argument(help: "The client's id.") var id: String
        @OptionGroup var connection: ServerOptions

        func run() async throws {
            let id = id
            try await ClientsCommand.withClients(connection) { clients in
                let sessions = try await clients.sessions(id: id)
                if sessions.isEmpty { say("No live sessions.") }
                for session in sessions {
                    let device = session.isMobile ? "app" : "browser"
                    let from = [session.userAgent, session.ipAddress].compactMap { $0.map(shown) }.joined(separator: ", ")
                    say("\(shown(session.id))  \(device), since \(shown(session.createdAt)), until \(shown(session.expiresAt))"
                        + (from.isEmpty ? "" : "  \(from)"))
                }
            }
        }
    }

    struct SignOut: AsyncParsableCommand, SendsRoutes {
        static let sends: [any ErasableRoute] = [Routes.clients.signOut]
        static let configuration = CommandConfiguration(
            commandName: "sign-out",
            abstract: "End every portal session of a client with the shop (a shared tablet).",
            usage: """
                repairminder clients sign-out <id> [--server <url>]
                """,
            discussion: """
                EXAMPLES:
                  repairminder clients sign-out 3f6c2a9e-1b7d-4c58-9e2a-6d1f0b8c4a27
                """)
        @Argument(help: "The client's id.") var id: String
        @OptionGroup var connection: ServerOptions

        func run() async throws {
            let id = id
            try await ClientsCommand.withClients(connection) { clients in
                let count = try await clients.signOut(id: id)
                say(count == 1 ? "Signed out 1 session." : "Signed out \(count) sessions.")
            }
        }
    }
}
