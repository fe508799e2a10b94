import Foundation
import Hummingbird
import RepairMinderModels

/// My account (docs/API.md §15.6, §9.4): who is signed in, and their signed-in devices, this
/// console among them, each of which they can end. Every staff member may use it, a restricted
/// session too (the API's enrolment routes).
struct ConsoleAccountPages: Sendable {
    let console: Console
    let sessionList: SessionListController

    func mount(on pages: ConsoleMounting) {
        pages.get("/account") { try await show($0) }
        pages.post("/account/sessions/:id/sign-out") { page, _ in
            _ = try await console.call(Routes.accountLifecycle.revokeSession, page, body: EmptyPayload(), sessionList.revoke)
            return console.redirect("/account?notice=signed-out-member")
        }
    }

    struct AccountPage {
        let name: String
        let email: String
        let shop: String
        let role: String
        let sessions: [Session]
    }

    struct Session {
        let id: String
        let device: String
        let ipAddress: String
        let lastUsed: String
        let current: Bool
    }

    private func show(_ page: ConsolePageRequest) async throws -> Response {
        let sessions = try await console.call(Routes.accountLifecycle.sessions, page, body: EmptyPayload(), sessionList.list)
        let user = page.staff.user
        let view = AccountPage(
            name: [user.firstName, user.lastName].compactMap { $0 }.joined(separator: " "), email: user.email,
            shop: page.staff.company.name, role: ConsoleListing.roleName(user.userRole),
            sessions: sessions.map {
                Session(
                    id: $0.id, device: $0.userAgent ?? ($0.isMobile ? "A mobile app" : "A browser"), ipAddress: $0.ipAddress ?? "—",
                    lastUsed: ConsoleDates.readable($0.lastUsedAt ?? $0.createdAt), current: $0.current)
            })
        return console.templates.page("account", page.view("My account", current: "\(Console.root)/account", page: view))
    }
}
