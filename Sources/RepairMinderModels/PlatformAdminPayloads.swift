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
