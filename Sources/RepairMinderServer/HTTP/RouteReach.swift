import RepairMinderModels

extension AuthenticatedStaff {
    /// Throws the API's refusal when this caller may not use `route`: a restricted session
    /// reaches only enrolment's routes (docs/API.md §13.3); with `path`, the path must name what
    /// the caller may reach (`RouteScope`); and the role must have the route's permission (as
    /// stored: a demotion counts as soon as the caller cache reads the user again;
    /// `companies:manage` in the platform's own company only). The route's stages ask this of
    /// every call, and the console of every form and link it offers, so a page never offers
    /// what the API would refuse.
    func checkReach(of route: AnyRoute, path: String? = nil) throws {
        if restricted, route.enrolment == .blocked { throw APIError.factorEnrolmentRequired }
        if let path, !route.scope.permits(route, path: path, companyId: company.id) { throw APIError.forbidden }
        if let permission = route.permission, !user.userRole.may(permission, inCompany: company.id) {
            throw APIError.noPermission
        }
    }

    /// Whether this caller may use `route` (`checkReach` without a path).
    func mayUse(_ route: AnyRoute) -> Bool { (try? checkReach(of: route)) != nil }
}
