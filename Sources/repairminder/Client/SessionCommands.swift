import ArgumentParser
import Foundation
import RepairMinderKit
import RepairMinderModels

struct WhoamiCommand: AsyncParsableCommand, SendsRoutes {
    static let sends: [any ErasableRoute] = [Routes.staffAuth.me, Routes.customerAuth.me]
    static let configuration = CommandConfiguration(
        commandName: "whoami",
        abstract: "Show who is signed in (refreshing the session if needed).",
        discussion: """
            Exit codes: 0 signed in, 1 not signed in or refused, 3 cannot reach the server.

            EXAMPLES:
              repairminder whoami
              repairminder whoami --server https://api.example.com
            """)

    @OptionGroup var connection: ServerOptions

    func run() async throws {
        let context = try ClientContext(server: connection.server)
        try await context.run {
            switch try context.store.role() {
            case .customer:
                let me = try await context.api.send(Routes.customerAuth.me)
                say(Describe.customer(me))
            case .staff:
                let me = try await context.api.send(Routes.staffAuth.me)
                say(Describe.staff(me))
            case nil:
                throw APIError.notSignedIn
            }
        }
    }
}

struct LogoutCommand: AsyncParsableCommand, SendsRoutes {
    static let sends: [any ErasableRoute] = [Routes.staffAuth.logout, Routes.customerAuth.logout]
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Sign out: ends the session on the server and forgets the credentials here.",
        discussion: """
            The local credentials are removed even when the server cannot be reached.

            EXAMPLES:
              repairminder logout
            """)

    @OptionGroup var connection: ServerOptions

    func run() async throws {
        let context = try ClientContext(server: connection.server)
        switch try context.store.role() {
        case .customer: await CustomerAuth(api: context.api).logout()
        case .staff: await StaffAuth(api: context.api).logout()
        case nil:
            Terminal.note("Not signed in.")
            return
        }
        Terminal.note("Signed out.")
    }
}
