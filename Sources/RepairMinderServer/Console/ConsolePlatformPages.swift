import Foundation
import Hummingbird
import RepairMinderModels

/// The platform administrator's other pages (docs/API.md §15.6, §15.1–§15.3, §15.5): one shop
/// (its counts, staff and recent events), staff across shops (search, sign out everywhere), the
/// audit log (by shop, type and time) and the mail queue's health. The API's own handlers, called as the administrator.
struct ConsolePlatformPages: Sendable {
    let console: Console
    let platform: PlatformAdminController

    func mount(on pages: ConsoleMounting) {
        pages.get("/admin/shops/:id") { try await shop($0) }
        pages.get("/admin/users") { try await users($0) }
        pages.get("/admin/users/:id/sign-out") { try await confirmSignOut($0) }
        pages.post("/admin/users/:id/sign-out") { page, _ in
            let revoked = try await console.call(Routes.platformAdmin.signOutUser, page, body: EmptyPayload(), platform.signOutUser)
            return console.redirect("/admin/users?notice=\(revoked.revoked == 0 ? "no-sessions" : "signed-out-member")")
        }
        pages.get("/admin/audit") { try await audit($0) }
        pages.get("/admin/mail") { try await mail($0) }
    }

    // MARK: One shop

    struct ShopPage {
        let shop: ConsoleShopPages.Row
        let staff: [UserRow]
        let staffPager: ConsoleListing.Pager
        let events: [EventRow]
        let hasEvents: Bool
    }

    private func shop(_ page: ConsolePageRequest) async throws -> Response {
        let shop = try await console.call(Routes.platformAdmin.company, page, body: EmptyPayload(), platform.company)
        let (staff, pagination) = try await console.call(
            Routes.platformAdmin.users, page.calling(query: ["companyId": shop.id, "page": page.query("page") ?? "1"]), platform.listUsers)
        let (events, _) = try await console.call(
            Routes.platformAdmin.audit, page.calling(query: ["companyId": shop.id, "limit": "20"]), platform.listAudit)
        let view = ShopPage(
            shop: ConsoleShopPages.row(shop), staff: staff.map(Self.userRow),
            staffPager: ConsoleListing.pager(pagination, path: "/admin/shops/\(shop.id)", query: [:]),
            events: events.map(Self.eventRow), hasEvents: !events.isEmpty)
        return console.templates.page("shop", page.view(shop.name, current: "\(Console.root)/admin/shops", page: view))
    }

    // MARK: Staff across shops

    struct UsersPage {
        let users: [UserRow]
        let q: String
        let pager: ConsoleListing.Pager
        let empty: Bool
    }

    struct UserRow {
        let id: String
        let name: String
        let email: String
        let role: String
        let shop: String
        let shopId: String
        let status: String
        let lastLogin: String
    }

    static func userRow(_ user: PlatformUser) -> UserRow {
        UserRow(
            id: user.id, name: CustomerClient.displayName(firstName: user.firstName, lastName: user.lastName, email: user.email),
            email: user.email, role: ConsoleListing.roleName(user.role),
            shop: user.companyName, shopId: user.companyId,
            status: user.archived ? "Archived" : user.isActive ? "Active" : "Deactivated",
            lastLogin: user.lastLogin.map(ConsoleDates.readable) ?? "Never")
    }

    private func users(_ page: ConsolePageRequest) async throws -> Response {
        let (users, pagination) = try await console.call(Routes.platformAdmin.users, page, platform.listUsers)
        let q = page.query("q") ?? ""
        let view = UsersPage(
            users: users.map(Self.userRow), q: q, pager: ConsoleListing.pager(pagination, path: "/admin/users", query: ["q": q]),
            empty: users.isEmpty)
        return console.templates.page("users", page.view("Users", current: "\(Console.root)/admin/users", page: view))
    }

    private func confirmSignOut(_ page: ConsolePageRequest) async throws -> Response {
        try page.require(Routes.platformAdmin.signOutUser.erased)
        let id = page.parameter("id")
        guard let user = try await console.callers.accounts.user(id: id) else { throw APIError.notFound }
        let confirmation = ConsoleListing.Confirmation(
            question: "Sign \(user.email) out everywhere?",
            consequence: "Every session of theirs ends now, on every device; they can sign in again.",
            action: "\(Console.root)/admin/users/\(id)/sign-out", button: "Sign out everywhere", back: "\(Console.root)/admin/users")
        return console.templates.page("confirm", page.view(confirmation.question, current: "\(Console.root)/admin/users", page: confirmation))
    }

    // MARK: The audit log

    struct AuditPage {
        let events: [EventRow]
        let companyId: String
        let type: String
        let since: String
        let pager: ConsoleListing.Pager
        let empty: Bool
    }

    struct EventRow {
        let at: String
        let type: String
        let who: String
        let actor: String
        let shopId: String
        let ipAddress: String
        let detail: String
    }

    static func eventRow(_ event: PlatformAuditEvent) -> EventRow {
        EventRow(
            at: ConsoleDates.readable(event.at), type: event.type, who: event.userEmail ?? "—", actor: event.actor ?? "—",
            shopId: event.companyId ?? "", ipAddress: event.ipAddress ?? "—",
            detail: (event.detail ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", "))
    }

    private func audit(_ page: ConsolePageRequest) async throws -> Response {
        let companyId = page.query("companyId") ?? "", type = page.query("type") ?? "", since = page.query("since") ?? ""
        let filters = ["companyId": companyId, "type": type, "since": since]
        do {
            let (events, pagination) = try await console.call(Routes.platformAdmin.audit, page, platform.listAudit)
            let view = AuditPage(
                events: events.map(Self.eventRow), companyId: companyId, type: type, since: since,
                pager: ConsoleListing.pager(pagination, path: "/admin/audit", query: filters), empty: events.isEmpty)
            return console.templates.page("audit", page.view("Audit log", current: "\(Console.root)/admin/audit", page: view))
        } catch let error as APIError where error.code == .validationError {
            // A filter the API refuses (a `since` that is not an instant): the form again, with why.
            let view = AuditPage(
                events: [], companyId: companyId, type: type, since: since,
                pager: ConsoleListing.pager(.of(page: 1, limit: 20, total: 0), path: "/admin/audit", query: [:]), empty: true)
            return console.templates.page(
                "audit", page.view("Audit log", current: "\(Console.root)/admin/audit", page: view, problem: error.message),
                status: error.status)
        }
    }

    // MARK: The mail queue

    struct MailPage {
        let queued: Int
        let oldest: String
        let failedLastHour: Int
        let failures: [FailureRow]
        let hasFailures: Bool
    }

    struct FailureRow {
        let id: String
        let at: String
        let stage: String
        let replyCode: String
        let attempt: Int
        let outcome: String
    }

    private func mail(_ page: ConsolePageRequest) async throws -> Response {
        let health = try await console.call(Routes.platformAdmin.mail, page, body: EmptyPayload(), platform.mailHealth)
        let view = MailPage(
            queued: health.queued, oldest: health.oldestQueuedAgeSeconds.map(Self.age) ?? "—", failedLastHour: health.failedLastHour,
            failures: health.recentFailures.map {
                FailureRow(
                    id: $0.id, at: ConsoleDates.readable($0.at), stage: $0.stage.rawValue, replyCode: $0.replyCode.map(String.init) ?? "—",
                    attempt: $0.attempts, outcome: $0.final ? "Given up" : "Retried")
            }, hasFailures: !health.recentFailures.isEmpty)
        return console.templates.page("mail", page.view("Mail", current: "\(Console.root)/admin/mail", page: view))
    }

    /// Seconds as a person reads a wait: "45 s", "12 min", "3 h 5 min".
    static func age(_ seconds: Int) -> String {
        switch seconds {
        case ..<60: "\(seconds) s"
        case ..<3600: "\(seconds / 60) min"
        default: "\(seconds / 3600) h \(seconds % 3600 / 60) min"
        }
    }
}
