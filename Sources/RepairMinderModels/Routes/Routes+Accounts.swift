/// The account endpoints this server implements, and the quarantine allowlist's others
/// (docs/API.md §4).
extension Routes {
    public struct Accounts: RouteFeature {
        public static let name = "Account"
        public let currentUser = Route<EmptyPayload, StaffUser>(
            .get, "/api/users/me", .staff, "The signed-in staff member", quarantine: .allowed)
        public let company = Route<EmptyPayload, Company>(
            .get, "/api/companies/{id}", .staff, "The caller's own company (any other id is 403)",
            quarantine: .allowed, scope: .ownCompany(parameter: "id"), failures: [.forbidden])
        public let avatar = Route<EmptyPayload, JSONValue>(
            .get, "/api/users/me/avatar", .staff, "The signed-in staff member's avatar",
            availability: .clientOnly, quarantine: .allowed)
        public let subscriptionFeatures = Route<EmptyPayload, JSONValue>(
            .get, "/api/subscription/features", .staff, "The company's subscription features",
            availability: .clientOnly, quarantine: .allowed)
        public let companyLocations = Route<EmptyPayload, JSONValue>(
            .get, "/api/company-locations", .staff, "The company's locations",
            availability: .clientOnly, quarantine: .allowed)
        public let companyLocation = Route<EmptyPayload, JSONValue>(
            .get, "/api/company-locations/{locationId}", .staff, "One company location",
            availability: .clientOnly, quarantine: .allowed)
    }
    /// Account: the routes of this feature.
    public static let accounts = Accounts()
}
