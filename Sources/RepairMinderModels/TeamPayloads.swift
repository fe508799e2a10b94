/// A member of a shop as its admins see them (docs/API.md §12): the staff user object of §2.3,
/// whose keys it carries inline, whether the member is archived (for good: an archived member
/// keeps the `is_active` they had) and how the member signs in. Snake_case with integer
/// booleans, like the user object.
public struct TeamMember: Codable, Sendable, Equatable, Identifiable {
    public var user: StaffUser
    public var hasPassword: Bool
    public var totpEnabled: Bool
    public var passkeyCount: Int
    /// Archived: final, the member can never sign in or be reactivated.
    public var archived: Bool

    public var id: String { user.id }

    /// Whether the member can sign in now: neither archived nor deactivated.
    public var isActive: Bool { user.isActive && !archived }

    public init(user: StaffUser, hasPassword: Bool, totpEnabled: Bool, passkeyCount: Int, archived: Bool = false) {
        self.user = user
        self.archived = archived
        self.hasPassword = hasPassword
        self.totpEnabled = totpEnabled
        self.passkeyCount = passkeyCount
    }

    enum CodingKeys: String, CodingKey {
        case hasPassword = "has_password", totpEnabled = "totp_enabled", passkeyCount = "passkey_count", archived
    }

    public init(from decoder: any Decoder) throws {
        user = try StaffUser(from: decoder)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        hasPassword = try c.decodeFlexibleBool(forKey: .hasPassword) ?? false
        totpEnabled = try c.decodeFlexibleBool(forKey: .totpEnabled) ?? false
        passkeyCount = try c.decodeIfPresent(Int.self, forKey: .passkeyCount) ?? 0
        archived = try c.decodeFlexibleBool(forKey: .archived) ?? false
    }
}

extension TeamMember: WireObject {
    public static let fields: [ResponseField<Self>] =
        StaffUser.fields.map { $0.within(\.user) } + [
            .init("has_password", \.hasPassword, .integerBoolean),
            .init("totp_enabled", \.totpEnabled, .integerBoolean),
            .init("passkey_count", \.passkeyCount, .integer(minimum: 0)),
            .init("archived", \.archived, .integerBoolean),
        ]
    public static var schema: JSONSchema { .object(fields, description: "A member of the shop, as its admins see them") }
    public static var example: TeamMember { TeamMember(user: .example, hasPassword: true, totpEnabled: false, passkeyCount: 1) }
}

/// Who did something, by id and address: an invitation's sender, the admin behind an event.
public struct ActorSummary: Codable, Sendable, Equatable {
    public var id: String
    public var email: String
    public init(id: String, email: String) {
        self.id = id
        self.email = email
    }
}

extension ActorSummary: WireObject {
    public static let fields: [ResponseField<Self>] = [.init("id", \.id, .nonEmptyText), .init("email", \.email, .email)]
    public static var schema: JSONSchema { .object(fields, description: "A staff member who acted") }
    public static var example: ActorSummary { ActorSummary(id: WireExample.userId, email: WireExample.staffEmail) }
}

/// `PATCH /api/users/{id}` body (docs/API.md §12): the fields to change; absent ones keep
/// their value.
public struct MemberUpdate: Codable, Sendable, Equatable {
    public var role: String?
    public var firstName: String?
    public var lastName: String?
    public var magicLinkEnabled: Bool?
    public init(role: String? = nil, firstName: String? = nil, lastName: String? = nil, magicLinkEnabled: Bool? = nil) {
        self.role = role
        self.firstName = firstName
        self.lastName = lastName
        self.magicLinkEnabled = magicLinkEnabled
    }
}

extension MemberUpdate: WireRequest {
    public static let fields: [RequestField<Self>] = [
        .optional("role", \.role, FieldRules.assignableRole),
        .optional("firstName", \.firstName, FieldRules.personName),
        .optional("lastName", \.lastName, FieldRules.personName),
        .decoded("magicLinkEnabled", .boolean, required: false),
    ]
    public static var bodyDescription: String? { "The member's fields to change; absent ones keep their value" }
    public static var example: MemberUpdate { MemberUpdate(role: "senior_engineer") }
}
