/// What a staff role may do: the `permissions` claim of an access token (docs/API.md §2.6) and
/// what a route may require (`Route.permission`, docs/API.md §12).
public enum Permission: String, Sendable, Hashable, CaseIterable {
    case devicesRead = "devices:read"
    case devicesWrite = "devices:write"
    case ordersRead = "orders:read"
    case ordersWrite = "orders:write"
    case enquiriesRead = "enquiries:read"
    case enquiriesWrite = "enquiries:write"
    case clientsRead = "clients:read"
    case clientsWrite = "clients:write"
    /// Manage the shop's team: invitations, roles, deactivation, recovery (§12).
    case usersManage = "users:manage"
    /// Change the shop's own settings.
    case companyManage = "company:manage"
    /// Register the shop's connected apps: OAuth clients that sign its staff in (§16.1).
    case appsManage = "apps:manage"
    /// Administer every shop of the platform.
    case companiesManage = "companies:manage"
}

extension UserRole {
    /// What the role may do, in the token's order. A role this version does not know grants
    /// nothing: failing closed.
    public var permissions: [Permission] {
        let engineer: [Permission] = [.devicesRead, .devicesWrite, .ordersRead, .enquiriesRead]
        let office: [Permission] = [.ordersRead, .ordersWrite, .enquiriesRead, .enquiriesWrite, .clientsRead, .clientsWrite]
        func sorted(_ permissions: [Permission]) -> [Permission] {
            Array(Set(permissions)).sorted { $0.rawValue < $1.rawValue }
        }
        return switch self {
        case .engineer: engineer
        case .seniorEngineer: engineer + [.ordersWrite, .enquiriesWrite]
        case .office: office + [.devicesRead]
        case .admin: sorted(engineer + office + [.usersManage, .companyManage, .appsManage])
        case .masterAdmin: sorted(engineer + office + [.usersManage, .companyManage, .appsManage, .companiesManage])
        case .unknown: []
        }
    }

    /// Whether the role may do `permission`.
    public func may(_ permission: Permission) -> Bool { permissions.contains(permission) }
}
