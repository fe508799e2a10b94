import RepairMinderModels

/// `GET /api/users/me` and `GET /api/companies/{id}` (docs/API.md §4).
struct AccountController {
    let serverURL: String

    func mount(on routes: RouteMounter) {
        routes.on(Routes.Accounts.currentUser, use: me)
        routes.on(Routes.Accounts.company, use: company)
    }

    @Sendable func me(_ call: RouteCall<EmptyPayload>) async throws -> StaffUser {
        let staff = try call.staff
        return staff.user.wire(companyStatus: staff.company.companyStatus)
    }

    /// Only the caller's own company; any other id is 403, whether or not it exists.
    @Sendable func company(_ call: RouteCall<EmptyPayload>) async throws -> Company {
        let staff = try call.staff
        guard try call.parameter("id") == staff.company.id else { throw APIError.forbidden }
        return staff.company.wire(serverURL: serverURL)
    }
}
