/// A staff member's role in their company (docs/API.md §2.3).
public enum UserRole: WireEnum {
    case masterAdmin
    case admin
    case seniorEngineer
    case engineer
    case office
    /// A role this version does not know (a newer server's): grants nothing in this package.
    case unknown(String)

    /// The values this version knows: the OpenAPI document lists these.
    public static let allCases: [UserRole] = [.masterAdmin, .admin, .seniorEngineer, .engineer, .office]

    /// The value as the wire spells it.
    public var rawValue: String {
        switch self {
        case .masterAdmin: "master_admin"
        case .admin: "admin"
        case .seniorEngineer: "senior_engineer"
        case .engineer: "engineer"
        case .office: "office"
        case .unknown(let raw): raw
        }
    }
}

/// A company's account status; anything but `active` quarantines its staff (docs/API.md §4),
/// an unknown status included.
public enum CompanyStatus: WireEnum {
    case active
    case pendingApproval
    case suspended
    /// A status this version does not know: treated as quarantined, never as active.
    case unknown(String)

    /// The values this version knows: the OpenAPI document lists these.
    public static let allCases: [CompanyStatus] = [.active, .pendingApproval, .suspended]

    /// The value as the wire spells it.
    public var rawValue: String {
        switch self {
        case .active: "active"
        case .pendingApproval: "pending_approval"
        case .suspended: "suspended"
        case .unknown(let raw): raw
        }
    }
}
