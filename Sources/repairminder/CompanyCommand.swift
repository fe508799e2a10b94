import ArgumentParser
import Foundation
import RepairMinderModels
import RepairMinderServer

/// `repairminder company list|approve|suspend|activate`: the operator's side of registration
/// (docs/API.md §9.1). A registered shop waits in `pending_approval` until approved.
struct CompanyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "company",
        abstract: "List shops and change their status: approve a registration, suspend or reactivate a shop.",
        discussion: """
            A shop registered through the API starts as pending_approval: its staff can sign in but \
            see only their account until it is approved. Staff see a status change on their next request. \
            Every change is in `repairminder audit` with the OS user who made it. Reads the server's \
            existing database: refuses to run where there is none.

            EXAMPLES:
              repairminder company list
              repairminder company approve "pending phones"
              repairminder company suspend "beta tech" --data-dir /var/lib/repairminder
            """,
        subcommands: [List.self, Approve.self, Suspend.self, Activate.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Every shop with its id, status and staff count.",
            usage: """
                repairminder company list [--json]
                  [--data-dir <data-dir>] [--database-url <database-url>]
                """,
            discussion: """
                EXAMPLES:
                  repairminder company list
                  repairminder company list --json --data-dir /var/lib/repairminder
                """)
        @Flag(help: "One JSON object per line instead of text.")
        var json = false
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let companies = try await database.withDatabase { try await $0.companies() }
            if companies.isEmpty && !json { say("No shops yet.") }
            for company in companies {
                if json {
                    sayJSON(String(decoding: try JSONEncoder().encode(company), as: UTF8.self))
                } else {
                    say("\(company.id)  \(shown(company.status).padding(toLength: 16, withPad: " ", startingAt: 0))  \(shown(company.name)) (\(company.staff) staff, since \(company.createdAt))")
                }
            }
        }
    }

    struct Approve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Approve a pending shop: its staff get the whole API.",
            usage: CompanyCommand.usage("approve"),
            discussion: """
                EXAMPLES:
                  repairminder company approve "Pending Phones"
                  repairminder company approve "pending phones" --data-dir /var/lib/repairminder
                """)
        @Argument(help: "The shop's id or name (in any case).") var company: String
        @OptionGroup var database: DatabaseOptions
        func run() async throws { try await CompanyCommand.set(company, to: .active, in: database) }
    }

    struct Suspend: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Suspend a shop: its staff see only their account.",
            usage: CompanyCommand.usage("suspend"),
            discussion: """
                EXAMPLES:
                  repairminder company suspend "Beta Tech"
                  repairminder company suspend "beta tech" --data-dir /var/lib/repairminder
                """)
        @Argument(help: "The shop's id or name (in any case).") var company: String
        @OptionGroup var database: DatabaseOptions
        func run() async throws { try await CompanyCommand.set(company, to: .suspended, in: database) }
    }

    struct Activate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Reactivate a suspended shop.",
            usage: CompanyCommand.usage("activate"),
            discussion: """
                EXAMPLES:
                  repairminder company activate "Suspended Screens"
                  export REPAIRMINDER_DATA_DIR=/var/lib/repairminder
                  repairminder company activate "suspended screens"
                """)
        @Argument(help: "The shop's id or name (in any case).") var company: String
        @OptionGroup var database: DatabaseOptions
        func run() async throws { try await CompanyCommand.set(company, to: .active, in: database) }
    }

    /// The usage line of a status change: ArgumentParser's own is wider than a terminal.
    static func usage(_ action: String) -> String {
        """
        repairminder company \(action) <company>
          [--data-dir <data-dir>] [--database-url <database-url>]
        """
    }

    /// Sets the status and says what changed; the change is in the audit trail under the OS
    /// user running this. No such shop, or a name of several, is a runtime failure (exit 1).
    static func set(_ company: String, to status: CompanyStatus, in database: DatabaseOptions) async throws {
        let actor = OperatorIdentity.current
        let (before, after) = try await database.withDatabase { try await $0.setCompanyStatus(company, to: status, actor: actor) }
        say(before == after.status ? "\(shown(after.name)) is already \(after.status)." : "\(shown(after.name)): \(shown(before)) → \(after.status)")
    }
}
