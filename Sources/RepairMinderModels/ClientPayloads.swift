/// A shop's customer as its staff see them (docs/API.md §14): snake_case with integer booleans,
/// like the staff user object. (`CustomerClient` is the customer's own, camelCase view of §3.)
public struct ShopClient: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    public var email: String
    public var firstName: String?
    public var lastName: String?
    /// "First Last", or the email when the client has no name.
    public var name: String
    public var phone: String?
    public var notes: String?
    public var portalEnabled: Bool
    public var lastPortalLogin: String?
    public var createdAt: String
    public var updatedAt: String

    public init(
        id: String, email: String, firstName: String?, lastName: String?, phone: String?, notes: String?, portalEnabled: Bool,
        lastPortalLogin: String?, createdAt: String, updatedAt: String
    ) {
        self.id = id
        self.email = email
        self.firstName = firstName
        self.lastName = lastName
        self.name = CustomerClient.displayName(firstName: firstName, lastName: lastName, email: email)
        self.phone = phone
        self.notes = notes
        self.portalEnabled = portalEnabled
        self.lastPortalLogin = lastPortalLogin
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    enum CodingKeys: String, CodingKey {
        case id, email, name, phone, notes
        case firstName = "first_name", lastName = "last_name", portalEnabled = "portal_enabled"
        case lastPortalLogin = "last_portal_login", createdAt = "created_at", updatedAt = "updated_at"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        email = try c.decode(String.self, forKey: .email)
        firstName = try c.decodeIfPresent(String.self, forKey: .firstName)
        lastName = try c.decodeIfPresent(String.self, forKey: .lastName)
        name = try c.decodeIfPresent(String.self, forKey: .name)
            ?? CustomerClient.displayName(firstName: firstName, lastName: lastName, email: email)
        phone = try c.decodeIfPresent(String.self, forKey: .phone)
        notes = try c.decodeIfPresent(String.self, forKey: .notes)
        portalEnabled = try c.decodeFlexibleBool(forKey: .portalEnabled) ?? true
        lastPortalLogin = try c.decodeIfPresent(String.self, forKey: .lastPortalLogin)
        createdAt = try c.decode(String.self, forKey: .createdAt)
        updatedAt = try c.decode(String.self, forKey: .updatedAt)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(email, forKey: .email)
        try c.encode(firstName, forKey: .firstName)
        try c.encode(lastName, forKey: .lastName)
        try c.encode(name, forKey: .name)
        try c.encode(phone, forKey: .phone)
        try c.encode(notes, forKey: .notes)
        try c.encode(portalEnabled ? 1 : 0, forKey: .portalEnabled)
        try c.encode(lastPortalLogin, forKey: .lastPortalLogin)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(updatedAt, forKey: .updatedAt)
    }
}

extension ShopClient: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("id", \.id, .nonEmptyText),
        .init("email", \.email, .email),
        .init("first_name", \.firstName, .nullable(.text)),
        .init("last_name", \.lastName, .nullable(.text)),
        .init("name", \.name, .nonEmptyText),
        .init("phone", \.phone, .nullable(.text)),
        .init("notes", \.notes, .nullable(.text)),
        .init("portal_enabled", \.portalEnabled, .integerBoolean),
        .init("last_portal_login", \.lastPortalLogin, .nullable(.timestamp)),
        .init("created_at", \.createdAt, .timestamp),
        .init("updated_at", \.updatedAt, .timestamp),
    ]
    public static var schema: JSONSchema { .object(fields, description: "A customer of the shop, as its staff see them") }
    public static var example: ShopClient {
        ShopClient(
            id: WireExample.userId, email: "jane@example.com", firstName: "Jane", lastName: "Customer", phone: "+44 7700 900123",
            notes: "Prefers a call", portalEnabled: true, lastPortalLogin: nil, createdAt: WireExample.timestamp,
            updatedAt: WireExample.timestamp)
    }
}

/// `POST /api/clients` body (docs/API.md §14).
public struct ClientCreateRequest: Codable, Sendable, Equatable {
    public var email: String
    public var firstName: String?
    public var lastName: String?
    public var phone: String?
    public var notes: String?
    public init(email: String, firstName: String? = nil, lastName: String? = nil, phone: String? = nil, notes: String? = nil) {
        self.email = email
        self.firstName = firstName
        self.lastName = lastName
        self.phone = phone
        self.notes = notes
    }
}

extension ClientCreateRequest: WireRequest {
    public static let fields: [RequestField<Self>] = [
        .string("email", \.email, FieldRules.email),
        .optional("firstName", \.firstName, FieldRules.text(maxLength: 100)),
        .optional("lastName", \.lastName, FieldRules.text(maxLength: 100)),
        .optional("phone", \.phone, FieldRules.phone),
        .optional("notes", \.notes, FieldRules.text(maxLength: 2000, multiline: true)),
    ]
    public static var example: ClientCreateRequest {
        ClientCreateRequest(email: "jane@example.com", firstName: "Jane", lastName: "Customer", phone: "+44 7700 900123")
    }
}

/// `PATCH /api/clients/{id}` body: the fields to change; absent ones keep their value.
public struct ClientUpdateRequest: Codable, Sendable, Equatable {
    public var email: String?
    public var firstName: String?
    public var lastName: String?
    public var phone: String?
    public var notes: String?
    public var portalEnabled: Bool?
    public init(
        email: String? = nil, firstName: String? = nil, lastName: String? = nil, phone: String? = nil, notes: String? = nil,
        portalEnabled: Bool? = nil
    ) {
        self.email = email
        self.firstName = firstName
        self.lastName = lastName
        self.phone = phone
        self.notes = notes
        self.portalEnabled = portalEnabled
    }
}

extension ClientUpdateRequest: WireRequest {
    public static let fields: [RequestField<Self>] = [
        .optional("email", \.email, FieldRules.email),
        .optional("firstName", \.firstName, FieldRules.text(maxLength: 100)),
        .optional("lastName", \.lastName, FieldRules.text(maxLength: 100)),
        .optional("phone", \.phone, FieldRules.phone),
        .optional("notes", \.notes, FieldRules.text(maxLength: 2000, multiline: true)),
        .decoded("portalEnabled", .nullable(.boolean), required: false),
    ]
    public static var bodyDescription: String? { "The client's fields to change; absent ones keep their value" }
    public static var example: ClientUpdateRequest { ClientUpdateRequest(phone: "+44 7700 900456", portalEnabled: false) }
}
