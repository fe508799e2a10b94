/// A staff member's role in their company (docs/API.md §2.3).
public enum UserRole: String, Codable, Sendable, CaseIterable {
    case masterAdmin = "master_admin"
    case admin
    case seniorEngineer = "senior_engineer"
    case engineer
    case office
}

/// A company's account status; anything but `active` quarantines its staff (docs/API.md §4).
public enum CompanyStatus: String, Codable, Sendable, CaseIterable {
    case active
    case pendingApproval = "pending_approval"
    case suspended
}
