import ArgumentParser
import Foundation
import RepairMinderKit
import RepairMinderModels

struct PasskeysCommand: AsyncParsableCommand, SendsRoutes {
    static let sends: [any ErasableRoute] = [Routes.passkeys.list, Routes.passkeys.remove]
    static let configuration = CommandConfiguration(
        commandName: "passkeys",
        abstract: "List your passkeys, or remove one (staff).",
        discussion: """
            Passkeys are made on a device (the app, or a browser page of your shop's site): this command \
            cannot make one. Removing one needs only your session; the removal is in your activity log.

            EXAMPLES:
              repairminder passkeys
              repairminder passkeys --remove 5d8e3f1a-7c2b-4e9d-a6f4-1b0c9e2d7a53
            """)

    @Option(help: ArgumentHelp("Remove the passkey with this id (from the list).", valueName: "id")) var remove: String?
    @OptionGroup var connection: ServerOptions

    func run() async throws {
        let context = try ClientContext(server: connection.server)
        try await context.run {
            if let remove {
                _ = try await context.api.send(Routes.passkeys.remove, path: [remove])
                say("Passkey removed.")
                return
            }
            let passkeys = try await context.api.send(Routes.passkeys.list)
            if passkeys.isEmpty {
                say("No passkeys. Add one in the app or in a browser on your shop's site.")
                return
            }
            for passkey in passkeys {
                let used = passkey.lastUsedAt.map { "last used \($0)" } ?? "never used"
                say("\(shown(passkey.id))  \(shown(passkey.name))  added \(passkey.createdAt), \(used)\(passkey.backedUp ? ", synced" : "")")
            }
        }
    }
}
