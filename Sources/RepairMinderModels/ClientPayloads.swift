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
        .string("email", \.email, ClientFieldRules.email),
        .optional("firstName", \.firstName, ClientFieldRules.name),
        .optional("lastName", \.lastName, ClientFieldRules.name),
        .optional("phone", \.phone, ClientFieldRules.phone),
        .optional("notes", \.notes, ClientFieldRules.notes),
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
        .optional("email", \.email, ClientFieldRules.email),
        .optional("firstName", \.firstName, ClientFieldRules.name),
        .optional("lastName", \.lastName, ClientFieldRules.name),
        .optional("phone", \.phone, ClientFieldRules.phone),
        .optional("notes", \.notes, ClientFieldRules.notes),
        .decoded("portalEnabled", .nullable(.boolean), required: false),
    ]
    public static var bodyDescription: String? { "The client's fields to change; absent ones keep their value" }
    public static var example: ClientUpdateRequest { ClientUpdateRequest(phone: "+44 7700 900456", portalEnabled: false) }
}

/// One live portal session of a client with the shop (`GET /api/clients/{id}/sessions`).
public struct ClientSession: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    public var isMobile: Bool
    public var userAgent: String?
    public var ipAddress: String?
    /// ISO 8601 UTC.
    public var createdAt: String
    /// ISO 8601 UTC: when the customer's token stops working.
    public var expiresAt: String
    public init(id: String, isMobile: Bool, userAgent: String?, ipAddress: String?, createdAt: String, expiresAt: String) {
        self.id = id
        self.isMobile = isMobile
        self.userAgent = userAgent
        self.ipAddress = ipAddress
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

extension ClientSession: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("id", \.id, .nonEmptyText),
        .init("isMobile", \.isMobile, .boolean),
        .init("userAgent", \.userAgent, .nullable(.text)),
        .init("ipAddress", \.ipAddress, .nullable(.text)),
        .init("createdAt", \.createdAt, .timestamp),
        .init("expiresAt", \.expiresAt, .timestamp),
    ]
    public static var schema: JSONSchema { .object(fields, description: "A client's live portal session with the shop") }
    public static var example: ClientSession {
        ClientSession(
            id: "0b6f8e2c-1d4a-4c3b-9e7f-5a2d8c1b6e90", isMobile: true, userAgent: "RepairMinder-iOS/1.0 (iPhone; iOS 18.0)",
            ipAddress: "203.0.113.7", createdAt: WireExample.timestamp, expiresAt: "2027-02-18T08:12:00Z")
    }
}

/// A row of an import that was refused: its line in the file (the header is line 1), the
/// column at fault when one is, and why.
public struct ClientImportProblem: Codable, Sendable, Equatable {
    public var line: Int
    public var column: String?
    public var message: String
    public init(line: Int, column: String?, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }
}

extension ClientImportProblem: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("line", \.line, .integer(minimum: 1)),
        .init("column", \.column, .nullable(.text)),
        .init("message", \.message, .nonEmptyText),
    ]
    public static var schema: JSONSchema { .object(fields, description: "A refused row of a CSV import") }
    public static var example: ClientImportProblem { ClientImportProblem(line: 7, column: "email", message: "email must be a valid email address") }
}

/// `POST /api/clients/import`'s answer: what the rows did (or would do, in a dry run).
public struct ClientImportReport: Codable, Sendable, Equatable {
    public var created: Int
    public var updated: Int
    public var unchanged: Int
    public var failed: Int
    /// The first 100 refused rows.
    public var errors: [ClientImportProblem]
    /// Whether anything was written: false for a dry run, and for a file with a refused row
    /// unless `partial=true`.
    public var written: Bool
    public init(created: Int, updated: Int, unchanged: Int, failed: Int, errors: [ClientImportProblem], written: Bool) {
        self.created = created
        self.updated = updated
        self.unchanged = unchanged
        self.failed = failed
        self.errors = errors
        self.written = written
    }

    /// How many refused rows the report lists at most.
    public static let listedErrors = 100
}

extension ClientImportReport: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("created", \.created, .integer(minimum: 0)),
        .init("updated", \.updated, .integer(minimum: 0)),
        .init("unchanged", \.unchanged, .integer(minimum: 0)),
        .init("failed", \.failed, .integer(minimum: 0)),
        .init("errors", \.errors, .array(.ref(ClientImportProblem.self))),
        .init("written", \.written, .boolean),
    ]
    public static var schema: JSONSchema { .object(fields, description: "What a CSV import's rows did, or would do") }
    public static var example: ClientImportReport {
        ClientImportReport(created: 120, updated: 4, unchanged: 37, failed: 1, errors: [.example], written: false)
    }
}

/// The rules of a client's fields, said once: `POST /api/clients` and `PATCH /api/clients/{id}`
/// check their bodies with them, and the CSV import its columns (docs/API.md §14).
public enum ClientFieldRules {
    public static let email = FieldRules.email
    /// A first or last name.
    public static let name = FieldRules.personName
    public static let phone = FieldRules.phone
    public static let notes = FieldRules.text(maxLength: 2000, multiline: true)
}
