import Foundation
import Hummingbird
import RepairMinderModels

/// The platform administrator's Shops pages (docs/API.md §15.6, §15.1): every shop, those
/// pending approval first, filtered by status and name, and the transitions, each after a
/// confirmation. The API's own handlers, called as the signed-in administrator.
struct ConsoleShopPages: Sendable {
    typealias Transition = PlatformAdministration.Transition
    let console: Console
    let platform: PlatformAdminController

    func mount(on pages: ConsoleMounting) {
        pages.get("/admin/shops") { try await list($0) }
        for transition in Transition.allCases {
            pages.get("/admin/shops/:id/\(transition.rawValue)") { try await confirm(transition, $0) }
            pages.post("/admin/shops/:id/\(transition.rawValue)") { page, _ in try await apply(transition, page) }
        }
    }

    struct ListPage {
        let shops: [Row]
        let q: String
        let statuses: [ConsoleListing.Option]
        let pager: ConsoleListing.Pager
        let empty: Bool
    }

    struct Row {
        let id: String
        let name: String
        let status: String
        let staffCount: Int
        let clientCount: Int
        let createdAt: String
        let ownerEmail: String
        let canApprove: Bool
        let canSuspend: Bool
        let canReactivate: Bool
    }

    private func list(_ page: ConsolePageRequest) async throws -> Response {
        let (shops, pagination) = try await console.call(Routes.platformAdmin.companies, page, platform.companies)
        let q = page.query("q") ?? "", status = page.query("status") ?? "all"
        let statuses = [("all", "All"), ("pending_approval", "Pending approval"), ("active", "Active"), ("suspended", "Suspended")]
        let view = ListPage(
            shops: shops.map(Self.row), q: q,
            statuses: statuses.map { ConsoleListing.Option(value: $0.0, label: $0.1, selected: $0.0 == status) },
            pager: ConsoleListing.pager(pagination, path: "/admin/shops", query: ["q": q, "status": status]), empty: shops.isEmpty)
        return console.templates.page("shops", page.view("Shops", current: "\(Console.root)/admin/shops", page: view))
    }

    static func row(_ shop: PlatformCompany) -> Row {
        Row(
            id: shop.id, name: shop.name, status: statusName(shop.status), staffCount: shop.staffCount, clientCount: shop.clientCount,
            createdAt: ConsoleDates.readable(shop.createdAt), ownerEmail: shop.ownerEmail ?? "—",
            canApprove: shop.status == "pending_approval", canSuspend: shop.status != "suspended",
            canReactivate: shop.status == "suspended")
    }

    static func statusName(_ status: String) -> String {
        switch status {
        case "pending_approval": "Pending approval"
        case "active": "Active"
        case "suspended": "Suspended"
        default: status
        }
    }

    private func confirm(_ transition: Transition, _ page: ConsolePageRequest) async throws -> Response {
        try page.require(Routes.platformAdmin.approve.erased)
        let id = page.parameter("id")
        let name = try await shopName(id, page)
        let confirmation = ConsoleListing.Confirmation(
            question: "\(transition.button) \(name)?", consequence: transition.consequence,
            action: "\(Console.root)/admin/shops/\(id)/\(transition.rawValue)", button: transition.button,
            back: "\(Console.root)/admin/shops")
        return console.templates.page(
            "confirm", page.view(confirmation.question, current: "\(Console.root)/admin/shops", page: confirmation))
    }

    /// The shop's name, for the question; 404 for an unknown id.
    private func shopName(_ id: String, _ page: ConsolePageRequest) async throws -> String {
        guard let shop = try await platform.administration.company(id: id) else { throw APIError.notFound }
        return shop.name
    }

    private func apply(_ transition: Transition, _ page: ConsolePageRequest) async throws -> Response {
        let route = switch transition {
        case .approve: Routes.platformAdmin.approve
        case .suspend: Routes.platformAdmin.suspend
        case .reactivate: Routes.platformAdmin.reactivate
        }
        let controller = platform
        _ = try await console.call(route, page, body: EmptyPayload()) { try await controller.apply(transition, $0) }
        return console.redirect("/admin/shops?notice=\(transition.notice)")
    }
}

extension PlatformAdministration.Transition {
    /// The console's button for it.
    var button: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

    /// What the console's confirmation says it does.
    var consequence: String {
        switch self {
        case .approve: "Its staff can use Repair Minder from their next request."
        case .suspend: "Its staff are refused from their next request (their data stays) until it is reactivated."
        case .reactivate: "Its staff can use Repair Minder again from their next request."
        }
    }

    /// The notice the Shops page shows after it.
    var notice: String {
        switch self {
        case .approve: "approved"
        case .suspend: "suspended"
        case .reactivate: "reactivated-shop"
        }
    }
}
