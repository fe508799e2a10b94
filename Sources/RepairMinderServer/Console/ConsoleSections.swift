import RepairMinderModels

/// The console's sections, in the navigation's order. Each is offered (as a link, and as where a
/// sign-in lands) only to who may call the API route its page lists, by the route table's
/// permission and a restricted session's reach (`AuthenticatedStaff.checkReach`), as the
/// route's stages read them: the navigation cannot offer a page the API would refuse.
enum ConsoleSections {
    struct Section: Sendable {
        /// Below `Console.root`.
        let path: String
        let label: String
        /// The API route the section's page lists.
        let route: AnyRoute
    }

    static let all: [Section] = [
        Section(path: "/team", label: "Team", route: Routes.team.members.erased),
        Section(path: "/clients", label: "Clients", route: Routes.clients.list.erased),
        Section(path: ConsolePolicyPages.path, label: "Sign-in requirements", route: Routes.securityPolicy.policy.erased),
        Section(path: ConsoleAppPages.shop.path, label: "Connected apps", route: Routes.apps.shopApps.erased),
        Section(path: "/admin/shops", label: "Shops", route: Routes.platformAdmin.companies.erased),
        Section(path: "/admin/users", label: "Users", route: Routes.platformAdmin.users.erased),
        Section(path: "/admin/audit", label: "Audit log", route: Routes.platformAdmin.audit.erased),
        Section(path: "/admin/mail", label: "Mail", route: Routes.platformAdmin.mail.erased),
        Section(path: ConsoleAppPages.platform.path, label: "Apps", route: Routes.apps.platformApps.erased),
        Section(path: "/account", label: "My account", route: Routes.staffAuth.me.erased),
    ]

    /// The sections `staff` may use.
    static func offered(to staff: AuthenticatedStaff) -> [Section] { all.filter { staff.mayUse($0.route) } }

    /// Where a signed-in person starts: the platform's shops, else the team, else their account.
    static func home(of staff: AuthenticatedStaff) -> String {
        let offered = Set(offered(to: staff).map(\.path))
        return ["/admin/shops", "/team"].first(where: offered.contains) ?? "/account"
    }
}
