import ArgumentParser
import Foundation
import RepairMinderKit
import RepairMinderModels

/// `repairminder activity`: the signed-in staff member's security events (docs/API.md §9.4).
struct ActivityCommand: MainActorClientCommand, SendsRoutes {
    static let sends: [any ErasableRoute] = [Routes.accountLifecycle.activity]
    static let configuration = CommandConfiguration(
        commandName: "activity",
        abstract: "List your staff account's security events, newest first: sign-ins, wrong codes, factor changes.",
        usage: """
            repairminder activity [--page <page>] [--server <url>]
            """,
        discussion: """
            An admin sees a member's with `team activity <id>`.

            EXAMPLES:
              repairminder activity
              repairminder activity --page 2
            """)

    @Option(help: "Page number, from 1.") var page: Int = 1
    @OptionGroup var connection: ServerOptions

    @MainActor
    func perform(_ context: ClientContext) async throws {
        ActivityCommand.print(try await StaffAuth(api: context.api).activity(page: page))
    }

    /// A page of events, a line each, and where the page is.
    static func print(_ events: Page<ActivityEvent>) {
        if events.items.isEmpty { say("No events.") }
        for event in events.items { say(event.line) }
        say(events.footer)
    }
}

extension ActivityEvent {
    /// One line of `activity` and `team activity`: when, what, who did it if not the user, from where.
    var line: String {
        let actor = actor.map { " (by \(shown($0.email)))" } ?? ""
        let place = ipAddress.map { " from \(shown($0))" } ?? ""
        let device = userAgent.map { ", \(shown($0))" } ?? ""
        return "\(at)  \(type.spokenName)\(actor)\(place)\(device)"
    }
}

extension Page {
    /// The line under a listed page: "Page 1 of 3, 57 in all."
    var footer: String {
        "Page \(pagination.page) of \(max(pagination.totalPages, 1)), \(pagination.total) in all."
    }
}
