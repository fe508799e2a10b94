import Hummingbird
import RepairMinderModels

/// Staff of a `pending_approval` or `suspended` company can sign in, but every endpoint except
/// a short allowlist answers 403 (API.md §4). The company's status is read on every request,
/// so a change takes effect on the next one, without a new login.
///
/// It runs for every `/api/` path, routed or not: the real backend has many more staff
/// endpoints than this server, and a quarantined client must see 403 on all of them.
/// Requests without a valid staff token pass through untouched: their route answers them.
struct QuarantineMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let services: AuthServices

    /// Paths that never take a staff token: the sign-in steps and public endpoints.
    private static let publicPrefixes = [
        "/api/auth/login", "/api/auth/2fa/", "/api/auth/magic-link/", "/api/auth/refresh",
        "/api/customer/", "/api/health", "/api/config", "/api/branding/",
    ]

    /// API.md §4's allowlist, except `/api/companies/{own id}` which needs the caller.
    private static let allowedPaths: Set<String> = [
        "/api/auth/me", "/api/auth/logout", "/api/auth/refresh", "/api/users/me", "/api/users/me/avatar",
        "/api/subscription/features",
    ]

    static func isAllowed(path: String, companyId: String) -> Bool {
        allowedPaths.contains(path) || path == "/api/companies/\(companyId)" || path.hasPrefix("/api/company-locations/")
            || path == "/api/company-locations"
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // Normalised as the router matches it (empty segments ignored), so "//api/..." or
        // "/api//..." cannot slip past the check.
        let path = "/" + request.uri.path.split(separator: "/").joined(separator: "/")
        guard path.hasPrefix("/api/"), !Self.publicPrefixes.contains(where: { path.hasPrefix($0) }),
            let token = BearerToken.from(request),
            let staff = try? await StaffIdentity(services: services).resolve(token)
        else { return try await next(request, context) }
        switch staff.company.companyStatus {
        case .active: break
        case .pendingApproval where !Self.isAllowed(path: path, companyId: staff.company.id): throw APIError.accountPendingApproval
        case .suspended where !Self.isAllowed(path: path, companyId: staff.company.id): throw APIError.accountSuspended
        case .pendingApproval, .suspended: break
        }
        var context = context
        context.staff = staff
        return try await next(request, context)
    }
}
