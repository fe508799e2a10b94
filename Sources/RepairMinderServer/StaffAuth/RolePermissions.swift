import RepairMinderModels

/// The `permissions` claim of an access token, derived from the role.
enum RolePermissions {
    static func permissions(for role: UserRole) -> [String] {
        let engineer = ["devices:read", "devices:write", "orders:read", "enquiries:read"]
        let office = ["orders:read", "orders:write", "enquiries:read", "enquiries:write", "clients:read", "clients:write"]
        switch role {
        case .engineer: return engineer
        case .seniorEngineer: return engineer + ["orders:write", "enquiries:write"]
        case .office: return office + ["devices:read"]
        case .admin: return Array(Set(engineer + office + ["users:manage", "company:manage"])).sorted()
        case .masterAdmin: return Array(Set(engineer + office + ["users:manage", "company:manage", "companies:manage"])).sorted()
        // Fail closed: a role this server does not know (only a damaged row could hold one) grants nothing.
        case .unknown: return []
        }
    }
}
