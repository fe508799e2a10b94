import Hummingbird
import RepairMinderModels

/// `GET /api/users/me` and `GET /api/companies/{id}` (API.md §4).
struct AccountController {
    let services: AuthServices

    func addRoutes(to router: Router<AppRequestContext>) {
        router.group("api")
            .add(middleware: StaffAuthenticator(services: services))
            .get("users/me", use: me)
            .get("companies/:id", use: company)
    }

    @Sendable func me(_ request: Request, context: AppRequestContext) async throws -> Response {
        let staff = try context.requireStaff()
        return .envelope(staff.user.wire(companyStatus: staff.company.companyStatus))
    }

    /// Only the caller's own company; any other id is 403, whether or not it exists.
    @Sendable func company(_ request: Request, context: AppRequestContext) async throws -> Response {
        let staff = try context.requireStaff()
        guard context.parameters.get("id") == staff.company.id else { throw APIError.forbidden }
        return .envelope(staff.company.wire(serverURL: services.settings.serverURL))
    }
}
