/// The staff `user` object of token, `/api/auth/me` and `/api/users/me` responses (docs/API.md §2.3).
///
/// Encoded exactly as the backend does: snake_case keys and integer booleans (`"is_active": 1`).
/// Decoding also accepts `true`/`false`.
public struct StaffUser: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    public var email: String
    public var firstName: String?
    public var lastName: String?
    public var companyId: String
    public var role: UserRole
    public var phiAccessLevel: String?
    public var dataClassification: String?
    public var isActive: Bool
    public var magicLinkEnabled: Bool?
    public var companyStatus: String?
    public var lastLogin: String?
    public var createdAt: String?
    public var updatedAt: String?

    public init(
        id: String, email: String, firstName: String?, lastName: String?, companyId: String, role: UserRole,
        phiAccessLevel: String?, dataClassification: String?, isActive: Bool, magicLinkEnabled: Bool?,
        companyStatus: String?, lastLogin: String?, createdAt: String?, updatedAt: String?
    ) {
        self.id = id
        self.email = email
        self.firstName = firstName
        self.lastName = lastName
        self.companyId = companyId
        self.role = role
        self.phiAccessLevel = phiAccessLevel
        self.dataClassification = dataClassification
        self.isActive = isActive
        self.magicLinkEnabled = magicLinkEnabled
        self.companyStatus = companyStatus
        self.lastLogin = lastLogin
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    enum CodingKeys: String, CodingKey {
        case id, email, role
        case firstName = "first_name"
        case lastName = "last_name"
        case companyId = "company_id"
        case phiAccessLevel = "phi_access_level"
        case dataClassification = "data_classification"
        case isActive = "is_active"
        case magicLinkEnabled = "magic_link_enabled"
        case companyStatus = "company_status"
        case lastLogin = "last_login"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        email = try c.decode(String.self, forKey: .email)
        firstName = try c.decodeIfPresent(String.self, forKey: .firstName)
        lastName = try c.decodeIfPresent(String.self, forKey: .lastName)
        companyId = try c.decode(String.self, forKey: .companyId)
        role = try c.decode(UserRole.self, forKey: .role)
        phiAccessLevel = try c.decodeIfPresent(String.self, forKey: .phiAccessLevel)
        dataClassification = try c.decodeIfPresent(String.self, forKey: .dataClassification)
        isActive = try c.decodeFlexibleBool(forKey: .isActive) ?? false
        magicLinkEnabled = try c.decodeFlexibleBool(forKey: .magicLinkEnabled)
        companyStatus = try c.decodeIfPresent(String.self, forKey: .companyStatus)
        lastLogin = try c.decodeIfPresent(String.self, forKey: .lastLogin)
        createdAt = try c.decodeIfPresent(String.self, forKey: .createdAt)
        updatedAt = try c.decodeIfPresent(String.self, forKey: .updatedAt)
    }
}

extension StaffUser: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("id", \.id, .nonEmptyText),
        .init("email", \.email, .email),
        .init("first_name", \.firstName, .nullable(.text)),
        .init("last_name", \.lastName, .nullable(.text)),
        .init("company_id", \.companyId, .nonEmptyText),
        .init("role", \.role, .cases(of: UserRole.self)),
        .init("phi_access_level", \.phiAccessLevel, .nullable(.text)),
        .init("data_classification", \.dataClassification, .nullable(.text)),
        .init("is_active", \.isActive, .integerBoolean),
        .init("magic_link_enabled", \.magicLinkEnabled, .nullable(.integerBoolean)),
        .init("company_status", \.companyStatus, .nullable(.cases(of: CompanyStatus.self))),
        .init("last_login", \.lastLogin, .nullable(.timestamp)),
        .init("created_at", \.createdAt, .nullable(.timestamp)),
        .init("updated_at", \.updatedAt, .nullable(.timestamp)),
    ]
    public static var schema: JSONSchema { .object(fields, description: "A staff member") }
    public static var example: StaffUser {
        StaffUser(
            id: WireExample.userId, email: WireExample.staffEmail, firstName: "Ada", lastName: "Lovelace",
            companyId: WireExample.companyId, role: .admin, phiAccessLevel: "full", dataClassification: "internal",
            isActive: true, magicLinkEnabled: true, companyStatus: CompanyStatus.active.rawValue,
            lastLogin: WireExample.timestamp, createdAt: "2026-01-15T09:30:00Z", updatedAt: WireExample.timestamp)
    }
}
