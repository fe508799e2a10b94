import RepairMinderModels

/// `GET /api/users/me` and `GET /api/companies/{id}` (docs/API.md §4).
struct AccountController {
    let serverURL: String

    func mount(on routes: RouteMounter) {
        routes.on(Routes.accounts.currentUser, use: me)
        routes.on(Routes.accounts.company, use: company)
    }

    @Sendable func me(_ call: RouteCall<EmptyPayload>) async throws -> StaffUser {
        let staff = try call.staff
        return staff.user.wire(companyStatus: staff.company.companyStatus)
    }

    /// The caller's own company: the route's scope (`.ownCompany`) answers any other id 403,
    /// whether or not it exists.
    @Sendable func company(_ call: RouteCall<EmptyPayload>) async throws -> Company {
        try call.staff.company.wire(serverURL: serverURL)
    }
}
