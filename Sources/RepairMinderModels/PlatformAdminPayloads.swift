/// A shop as the platform's administrators see it (docs/API.md §15): its counts and who
/// registered it.
public struct PlatformCompany: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    public var name: String
    /// `active`, `pending_approval` or `suspended` (`CompanyStatus`).
    public var status: String
    /// Staff accounts of the shop, whatever their state.
    public var staffCount: Int
    /// Live (not deleted) clients of the shop.
    public var clientCount: Int
    /// ISO 8601 UTC.
    public var createdAt: String
    /// The shop's first admin: the account that registered it; nil for a shop without one.
    public var ownerEmail: String?
    public init(id: String, name: String, status: String, staffCount: Int, clientCount: Int, createdAt: String, ownerEmail: String?) {
        self.id = id
        self.name = name
        self.status = status
        self.staffCount = staffCount
        self.clientCount = clientCount
        self.createdAt = createdAt
        self.ownerEmail = ownerEmail
    }

    public func encode(to encoder: any Encoder) throws {
        // Explicit so a shop without an owner says `null`, not nothing.
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(name, forKey: .name)
        try c.encode(status, forKey: .status)
        try c.encode(staffCount, forKey: .staffCount)
        try c.encode(clientCount, forKey: .clientCount)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(ownerEmail, forKey: .ownerEmail)
    }
}

extension PlatformCompany: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("id", \.id, .nonEmptyText),
        .init("name", \.name, .nonEmptyText),
        .init("status", \.status, .cases(of: CompanyStatus.self)),
        .init("staffCount", \.staffCount, .integer(minimum: 0)),
        .init("clientCount", \.clientCount, .integer(minimum: 0)),
        .init("createdAt", \.createdAt, .timestamp),
        .init("ownerEmail", \.ownerEmail, .nullable(.email)),
    ]
    public static var schema: JSONSchema { .object(fields, description: "A shop, as the platform's administrators see it") }
    public static var example: PlatformCompany {
        PlatformCompany(
            id: WireExample.userId, name: "Pending Phones", status: CompanyStatus.pendingApproval.rawValue, staffCount: 1, clientCount: 0,
            createdAt: WireExample.timestamp, ownerEmail: "owner@pendingphones.example")
    }
}

/// A staff account of any shop, as the platform's administrators find it (docs/API.md §15).
public struct PlatformUser: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    public var email: String
    public var firstName: String?
    public var lastName: String?
    public var role: UserRole
    public var companyId: String
    public var companyName: String
    public var isActive: Bool
    public var archived: Bool
    /// ISO 8601 UTC; nil before the first sign-in.
    public var lastLogin: String?
    public init(
        id: String, email: String, firstName: String?, lastName: String?, role: UserRole, companyId: String, companyName: String,
        isActive: Bool, archived: Bool, lastLogin: String?
    ) {
        self.id = id
        self.email = email
        self.firstName = firstName
        self.lastName = lastName
        self.role = role
        self.companyId = companyId
        self.companyName = companyName
        self.isActive = isActive
        self.archived = archived
        self.lastLogin = lastLogin
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(email, forKey: .email)
        try c.encode(firstName, forKey: .firstName)
        try c.encode(lastName, forKey: .lastName)
        try c.encode(role, forKey: .role)
        try c.encode(companyId, forKey: .companyId)
        try c.encode(companyName, forKey: .companyName)
        try c.encode(isActive, forKey: .isActive)
        try c.encode(archived, forKey: .archived)
        try c.encode(lastLogin, forKey: .lastLogin)
    }
}

extension PlatformUser: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("id", \.id, .nonEmptyText),
        .init("email", \.email, .email),
        .init("firstName", \.firstName, .nullable(.text)),
        .init("lastName", \.lastName, .nullable(.text)),
        .init("role", \.role, .cases(of: UserRole.self)),
        .init("companyId", \.companyId, .nonEmptyText),
        .init("companyName", \.companyName, .nonEmptyText),
        .init("isActive", \.isActive, .boolean),
        .init("archived", \.archived, .boolean),
        .init("lastLogin", \.lastLogin, .nullable(.timestamp)),
    ]
    public static var schema: JSONSchema { .object(fields, description: "A staff account of any shop") }
    public static var example: PlatformUser {
        PlatformUser(
            id: WireExample.userId, email: "owner@pendingphones.example", firstName: "Penny", lastName: "Pending", role: .admin,
            companyId: "3f6c2a9e-1b7d-4c58-9e2a-6d1f0b8c4a27", companyName: "Pending Phones", isActive: true, archived: false,
            lastLogin: WireExample.timestamp)
    }
}
