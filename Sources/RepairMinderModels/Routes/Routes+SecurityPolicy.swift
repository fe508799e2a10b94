/// A shop's security policy: how its staff must sign in, enforced at every token (docs/API.md §13).
extension Routes {
    public struct SecurityPolicyRoutes: RouteFeature {
        public static let name = "Sign-in requirements"
        public let policy = Route<EmptyPayload, SecurityPolicy>(
            .get, "/api/company/security-policy", .staff, "How the shop's staff must sign in (any member may read it)")
        public let update = Route<SecurityPolicyUpdate, SecurityPolicy>(
            .put, "/api/company/security-policy", .staff,
            "Change how the shop's staff must sign in; a tightening reaches every session at its next refresh",
            permission: .companyManage,
            inputRuleBeyondSchema:
                "sessionMaxLifetimeDays.web and .mobile are at most the server's own lifetimes (--session-max-lifetime-web, --session-max-lifetime-mobile, in days)")
    }
    /// Sign-in requirements: the routes of this feature.
    public static let securityPolicy = SecurityPolicyRoutes()
}
