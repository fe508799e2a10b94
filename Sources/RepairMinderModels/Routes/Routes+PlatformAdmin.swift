/// The platform's administration (docs/API.md §15): `companies:manage`, which only
/// `master_admin` has, reaches every shop.
extension Routes {
    public struct PlatformAdmin: RouteFeature {
        public static let name = "Platform administration"
        public let companies = Route<EmptyPayload, [PlatformCompany]>(
            .get, "/api/admin/companies", .staff, "Every shop, the ones pending approval first", permission: .companiesManage,
            format: .paginatedEnvelope, query: [.companyStatus, .q, .page, .limit])
        public let company = Route<EmptyPayload, PlatformCompany>(
            .get, "/api/admin/companies/{id}", .staff, "One shop, with its counts and owner", permission: .companiesManage,
            failures: [.notFound])
        public let approve = Route<EmptyPayload, PlatformCompany>(
            .post, "/api/admin/companies/{id}/approve", .staff, "Approve a shop pending approval", permission: .companiesManage,
            failures: [.notFound, .companyStatusConflict])
        public let suspend = Route<EmptyPayload, PlatformCompany>(
            .post, "/api/admin/companies/{id}/suspend", .staff, "Suspend a shop (active or pending): its staff see only their account",
            permission: .companiesManage, failures: [.notFound, .companyStatusConflict])
        public let reactivate = Route<EmptyPayload, PlatformCompany>(
            .post, "/api/admin/companies/{id}/reactivate", .staff, "Put a suspended shop back in service", permission: .companiesManage,
            failures: [.notFound, .companyStatusConflict])
        public let users = Route<EmptyPayload, [PlatformUser]>(
            .get, "/api/admin/users", .staff, "Staff accounts of every shop, by address", permission: .companiesManage,
            format: .paginatedEnvelope, query: [.q, .staffOfCompany, .page, .limit])
        public let signOutUser = Route<EmptyPayload, RevokedSessionsResponse>(
            .post, "/api/admin/users/{id}/sign-out", .staff, "End every session of a staff account of any shop",
            permission: .companiesManage, failures: [.notFound])
        public let audit = Route<EmptyPayload, [PlatformAuditEvent]>(
            .get, "/api/admin/audit", .staff, "Every event of the audit log, newest first, operators' included",
            permission: .companiesManage, format: .paginatedEnvelope, query: [.companyId, .eventType, .since, .page, .limit],
            inputRuleBeyondSchema: "since must be an ISO 8601 instant (2026-11-26T09:00:00Z)")
        public let mail = Route<EmptyPayload, MailQueueHealth>(
            .get, "/api/admin/mail", .staff, "The mail queue's health: what waits, and the latest failed deliveries",
            permission: .companiesManage)
    }
    /// Platform administration: the routes of this feature.
    public static let platformAdmin = PlatformAdmin()
}
