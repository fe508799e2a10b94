import Hummingbird
import RepairMinderModels

/// Staff of a `pending_approval` or `suspended` company can sign in, but every endpoint except
/// the routes the table marks as allowed in quarantine answers 403 (docs/API.md §4). The
/// company's status is read on every request, so a change takes effect on the next one,
/// without a new login.
///
/// It runs for every `/api/` path, routed or not: the real backend has many more staff
/// endpoints than this server (the table's client-only routes), and a quarantined client must
/// see 403 on all of them; a path the table does not know is treated as a staff endpoint.
/// Requests without a valid staff token pass through untouched: their route answers them. It
/// fails closed: any other error while resolving the token (the database does not answer)
/// fails the request rather than skipping the check.
struct QuarantineMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let identity: StaffIdentity

    /// Whether a quarantined member of `companyId` may call `path` (normalised, any method),
    /// which reaches `route` in the table (nil: a path the table does not know).
    static func isAllowed(_ route: AnyRoute?, path: String, companyId: String) -> Bool {
        guard let route, route.quarantine == .allowed else { return false }
        return route.scope.permits(route, path: path, companyId: companyId)
    }

    /// Throws the quarantine's 403 when `staff`'s company is not active and `route` (at `path`)
    /// is not allowed in quarantine: for a bearer here, for a console session in `RouteStages`.
    static func check(_ staff: AuthenticatedStaff, route: AnyRoute?, path: String) throws {
        let allowed = isAllowed(route, path: path, companyId: staff.company.id)
        switch staff.company.companyStatus {
        case .active: break
        case .pendingApproval where !allowed: throw APIError.accountPendingApproval
        // `companyStatus` maps an unknown stored status to `.suspended`; were one to get here, it quarantines all the same.
        case .suspended where !allowed, .unknown where !allowed: throw APIError.accountSuspended
        case .pendingApproval, .suspended, .unknown: break
        }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // Normalised as the router matches it (empty segments ignored), so "//api/..." or
        // "/api//..." cannot slip past the check.
        let path = "/" + request.uri.path.split(separator: "/").joined(separator: "/")
        // Unknown paths are assumed to take a staff token.
        let route = Routes.firstRoute(matching: path)
        guard path.hasPrefix(Routes.apiPrefix), route == nil || route?.credential == .staff,
            let token = BearerToken.from(request)
        else { return try await next(request, context) }
        let staff: AuthenticatedStaff
        do {
            staff = try await identity.resolve(token)
        } catch let error as APIError where error.status == .unauthorized {
            // Not a staff token (expired, revoked, a customer's): the route gives its own answer.
            return try await next(request, context)
        }
        try Self.check(staff, route: route, path: path)
        var context = context
        context.staff = staff
        return try await next(request, context)
    }
}
