/// The account endpoints this server implements, and the quarantine allowlist's others
/// (docs/API.md §4).
extension Routes {
    public enum Accounts {
        public static let currentUser = Route<EmptyPayload, StaffUser>(
            .get, "/api/users/me", .staff, "The signed-in staff member", quarantine: .allowed)
        public static let company = Route<EmptyPayload, Company>(
            .get, "/api/companies/{id}", .staff, "The caller's own company (any other id is 403)",
            quarantine: .allowed, scope: .ownCompany(parameter: "id"), failures: [.init(403, .forbidden)])
        public static let avatar = Route<EmptyPayload, JSONValue>(
            .get, "/api/users/me/avatar", .staff, "The signed-in staff member's avatar",
            availability: .clientOnly, quarantine: .allowed)
        public static let subscriptionFeatures = Route<EmptyPayload, JSONValue>(
            .get, "/api/subscription/features", .staff, "The company's subscription features",
            availability: .clientOnly, quarantine: .allowed)
        public static let companyLocations = Route<EmptyPayload, JSONValue>(
            .get, "/api/company-locations", .staff, "The company's locations",
            availability: .clientOnly, quarantine: .allowed)
        public static let companyLocation = Route<EmptyPayload, JSONValue>(
            .get, "/api/company-locations/{locationId}", .staff, "One company location",
            availability: .clientOnly, quarantine: .allowed)

        static let all: [AnyRoute] = [
            currentUser.erased, company.erased, avatar.erased, subscriptionFeatures.erased, companyLocations.erased,
            companyLocation.erased,
        ]
    }
}
