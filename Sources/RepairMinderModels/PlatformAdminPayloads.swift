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

/// One event of the whole audit log, as the platform's administrators read it (docs/API.md
/// §15.3): the staff's own events (§9.4), the team's, and the operators' changes of shops.
public struct PlatformAuditEvent: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    /// A §9.4 event type, or an operator's (`company_approved`, `company_suspended`, ...).
    public var type: String
    /// ISO 8601 UTC.
    public var at: String
    /// The shop the event belongs to; nil for a staff member's own event, which is theirs.
    public var companyId: String?
    /// The staff account the event concerns, when one does.
    public var userId: String?
    public var userEmail: String?
    /// Who did it when it was not the account itself: an admin's address, or the OS user that
    /// ran `repairminder`.
    public var actor: String?
    public var ipAddress: String?
    public var userAgent: String?
    public var detail: [String: String]?
    public init(
        id: String, type: String, at: String, companyId: String?, userId: String?, userEmail: String?, actor: String?,
        ipAddress: String?, userAgent: String?, detail: [String: String]?
    ) {
        self.id = id
        self.type = type
        self.at = at
        self.companyId = companyId
        self.userId = userId
        self.userEmail = userEmail
        self.actor = actor
        self.ipAddress = ipAddress
        self.userAgent = userAgent
        self.detail = detail
    }
}

extension PlatformAuditEvent: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("id", \.id, .nonEmptyText),
        .init("type", \.type, .nonEmptyText),
        .init("at", \.at, .timestamp),
        .init("companyId", \.companyId, .nullable(.text)),
        .init("userId", \.userId, .nullable(.text)),
        .init("userEmail", \.userEmail, .nullable(.text)),
        .init("actor", \.actor, .nullable(.text)),
        .init("ipAddress", \.ipAddress, .nullable(.text)),
        .init("userAgent", \.userAgent, .nullable(.text)),
        .init("detail", \.detail, .nullable(.object([], description: "What changed, as strings by name (the event's own, §9.4)"))),
    ]
    public static var schema: JSONSchema { .object(fields, description: "An event of the whole audit log") }
    public static var example: PlatformAuditEvent {
        PlatformAuditEvent(
            id: "01JD7X3K9Q2V8M4N6P0R5T7W9Y", type: "company_approved", at: WireExample.timestamp,
            companyId: "3f6c2a9e-1b7d-4c58-9e2a-6d1f0b8c4a27", userId: nil, userEmail: nil, actor: "admin@platform.example",
            ipAddress: nil, userAgent: nil, detail: nil)
    }
}
