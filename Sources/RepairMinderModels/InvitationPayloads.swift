/// `POST /api/users/invitations` body (docs/API.md §12): who to invite, as what.
public struct InvitationRequest: Codable, Sendable, Equatable {
    public var email: String
    public var firstName: String
    public var lastName: String
    public var role: String
    public init(email: String, firstName: String, lastName: String, role: String) {
        self.email = email
        self.firstName = firstName
        self.lastName = lastName
        self.role = role
    }
}

extension InvitationRequest: WireRequest {
    public static let fields: [RequestField<Self>] = [
        .string("email", \.email, FieldRules.email),
        .string("firstName", \.firstName, FieldRules.personName),
        .string("lastName", \.lastName, FieldRules.personName),
        .string("role", \.role, FieldRules.assignableRole),
    ]
    public static var example: InvitationRequest {
        InvitationRequest(email: "eli@acme.test", firstName: "Eli", lastName: "Engineer", role: "engineer")
    }
}

/// Where an invitation is in its life.
public enum InvitationStatus: WireEnum {
    case pending
    case accepted
    case revoked
    case expired
    case unknown(String)

    public static let allCases: [InvitationStatus] = [.pending, .accepted, .revoked, .expired]

    public var rawValue: String {
        switch self {
        case .pending: "pending"
        case .accepted: "accepted"
        case .revoked: "revoked"
        case .expired: "expired"
        case .unknown(let raw): raw
        }
    }
}

/// An invitation to join a shop's team, as its admins see it (docs/API.md §12).
public struct Invitation: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    public var email: String
    public var firstName: String
    public var lastName: String
    public var role: UserRole
    public var status: InvitationStatus
    public var invitedBy: ActorSummary?
    public var createdAt: String
    public var expiresAt: String
    public init(
        id: String, email: String, firstName: String, lastName: String, role: UserRole, status: InvitationStatus,
        invitedBy: ActorSummary?, createdAt: String, expiresAt: String
    ) {
        self.id = id
        self.email = email
        self.firstName = firstName
        self.lastName = lastName
        self.role = role
        self.status = status
        self.invitedBy = invitedBy
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

extension Invitation: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("id", \.id, .nonEmptyText),
        .init("email", \.email, .email),
        .init("firstName", \.firstName, .text),
        .init("lastName", \.lastName, .text),
        .init("role", \.role, .cases(of: UserRole.self)),
        .init("status", \.status, .cases(of: InvitationStatus.self)),
        .init("invitedBy", \.invitedBy, .nullable(.ref(ActorSummary.self))),
        .init("createdAt", \.createdAt, .timestamp),
        .init("expiresAt", \.expiresAt, .timestamp),
    ]
    public static var schema: JSONSchema { .object(fields, description: "An invitation to join the shop's team") }
    public static var example: Invitation {
        Invitation(
            id: WireExample.invitationId, email: "eli@acme.test", firstName: "Eli", lastName: "Engineer", role: .engineer,
            status: .pending, invitedBy: .example, createdAt: WireExample.timestamp, expiresAt: "2026-11-27T10:00:00Z")
    }
}

/// `GET /api/auth/invitations/{token}`: what the invitee is asked to accept, without using
/// the invitation up.
public struct InvitationPreview: Codable, Sendable, Equatable {
    public var email: String
    public var firstName: String
    public var lastName: String
    public var role: UserRole
    /// The shop, as outsiders see it.
    public var company: CustomerCompany
    public var expiresAt: String
    public init(email: String, firstName: String, lastName: String, role: UserRole, company: CustomerCompany, expiresAt: String) {
        self.email = email
        self.firstName = firstName
        self.lastName = lastName
        self.role = role
        self.company = company
        self.expiresAt = expiresAt
    }
}

extension InvitationPreview: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("email", \.email, .email),
        .init("firstName", \.firstName, .text),
        .init("lastName", \.lastName, .text),
        .init("role", \.role, .cases(of: UserRole.self)),
        .init("company", \.company, .ref(CustomerCompany.self)),
        .init("expiresAt", \.expiresAt, .timestamp),
    ]
    public static var schema: JSONSchema { .object(fields, description: "An invitation, as its link shows it") }
    public static var example: InvitationPreview {
        InvitationPreview(
            email: "eli@acme.test", firstName: "Eli", lastName: "Engineer", role: .engineer, company: .example,
            expiresAt: "2026-11-27T10:00:00Z")
    }
}

/// `POST /api/auth/invitations/accept` body: the link's token, and optionally a password and
/// the names to use instead of the invitation's.
public struct AcceptInvitationRequest: Codable, Sendable, Equatable {
    public var token: String
    public var password: String?
    public var firstName: String?
    public var lastName: String?
    public init(token: String, password: String? = nil, firstName: String? = nil, lastName: String? = nil) {
        self.token = token
        self.password = password
        self.firstName = firstName
        self.lastName = lastName
    }
}

extension AcceptInvitationRequest: WireRequest {
    public static let fields: [RequestField<Self>] = [
        .string("token", \.token, FieldRules.resetToken),
        .optional("password", \.password, FieldRules.newPassword),
        .optional("firstName", \.firstName, FieldRules.personName),
        .optional("lastName", \.lastName, FieldRules.personName),
    ]
    public static var example: AcceptInvitationRequest {
        AcceptInvitationRequest(token: WireExample.invitationToken, password: "violet kettle 1987 drum")
    }
}
