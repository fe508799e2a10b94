/// What a shop requires of its staff beyond a password or an emailed code (docs/API.md §13).
public enum RequiredFactor: WireEnum {
    /// Nothing more: every shop's default, the sign-in of §2 as it always was.
    case notRequired
    /// An authenticator app or a passkey.
    case appOrPasskey
    /// A passkey; an authenticator app is not enough.
    case passkey
    /// A requirement a newer server knows and this version does not.
    case unknown(String)

    public static let allCases: [RequiredFactor] = [.notRequired, .appOrPasskey, .passkey]

    public var rawValue: String {
        switch self {
        case .notRequired: "none"
        case .appOrPasskey: "app_or_passkey"
        case .passkey: "passkey"
        case .unknown(let raw): raw
        }
    }

    /// The factors a user may enrol to meet the requirement, in the order an app offers them.
    public var enrolmentMethods: [TwoFactorMethod] {
        switch self {
        case .notRequired: []
        case .appOrPasskey: [.totp, .passkey]
        case .passkey, .unknown: [.passkey]
        }
    }
}

/// Days a session may last from its sign-in, however often refreshed, by kind of client.
public struct SessionLifetimeDays: Codable, Sendable, Equatable {
    public var web: Int
    public var mobile: Int
    public init(web: Int, mobile: Int) {
        self.web = web
        self.mobile = mobile
    }
}

extension SessionLifetimeDays: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("web", \.web, .integer(minimum: 1)), .init("mobile", \.mobile, .integer(minimum: 1)),
    ]
    public static var schema: JSONSchema { .object(fields, description: "Days a session lasts from its sign-in, at most") }
    public static var example: SessionLifetimeDays { SessionLifetimeDays(web: 30, mobile: 365) }
}

/// A shop's security policy: how its staff must sign in (docs/API.md §13.1).
public struct SecurityPolicy: Codable, Sendable, Equatable {
    public var requiredFactor: RequiredFactor
    public var allowMagicLink: Bool
    public var enrolmentGraceDays: Int
    public var sessionMaxLifetimeDays: SessionLifetimeDays
    /// When an admin last changed it; nil for a policy never changed (the defaults).
    public var updatedAt: String?
    public var updatedBy: ActorSummary?

    public init(
        requiredFactor: RequiredFactor, allowMagicLink: Bool, enrolmentGraceDays: Int, sessionMaxLifetimeDays: SessionLifetimeDays,
        updatedAt: String? = nil, updatedBy: ActorSummary? = nil
    ) {
        self.requiredFactor = requiredFactor
        self.allowMagicLink = allowMagicLink
        self.enrolmentGraceDays = enrolmentGraceDays
        self.sessionMaxLifetimeDays = sessionMaxLifetimeDays
        self.updatedAt = updatedAt
        self.updatedBy = updatedBy
    }

    private enum CodingKeys: String, CodingKey {
        case requiredFactor, allowMagicLink, enrolmentGraceDays, sessionMaxLifetimeDays, updatedAt, updatedBy
    }
}

extension SecurityPolicy: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("requiredFactor", \.requiredFactor, .cases(of: RequiredFactor.self)),
        .init("allowMagicLink", \.allowMagicLink, .boolean),
        .init("enrolmentGraceDays", \.enrolmentGraceDays, .integer(minimum: 0, maximum: SecurityPolicyUpdate.graceDays.upperBound)),
        .init("sessionMaxLifetimeDays", \.sessionMaxLifetimeDays, .ref(SessionLifetimeDays.self)),
        .init("updatedAt", \.updatedAt, .nullable(.timestamp)),
        .init("updatedBy", \.updatedBy, .nullable(.ref(ActorSummary.self))),
    ]
    public static var schema: JSONSchema { .object(fields, description: "How the shop's staff must sign in") }
    public static var example: SecurityPolicy {
        SecurityPolicy(
            requiredFactor: .appOrPasskey, allowMagicLink: true, enrolmentGraceDays: 7, sessionMaxLifetimeDays: .example,
            updatedAt: WireExample.timestamp, updatedBy: .example)
    }
}

/// `PUT /api/company/security-policy` body (docs/API.md §13.1): the fields to change; absent
/// ones keep their value.
public struct SecurityPolicyUpdate: Codable, Sendable, Equatable {
    public var requiredFactor: RequiredFactor?
    public var allowMagicLink: Bool?
    public var enrolmentGraceDays: Int?
    public var sessionMaxLifetimeDays: SessionLifetimeUpdate?

    public init(
        requiredFactor: RequiredFactor? = nil, allowMagicLink: Bool? = nil, enrolmentGraceDays: Int? = nil,
        sessionMaxLifetimeDays: SessionLifetimeUpdate? = nil
    ) {
        self.requiredFactor = requiredFactor
        self.allowMagicLink = allowMagicLink
        self.enrolmentGraceDays = enrolmentGraceDays
        self.sessionMaxLifetimeDays = sessionMaxLifetimeDays
    }

    /// The grace period's days an admin may choose.
    public static let graceDays = 0...30

    private enum CodingKeys: String, CodingKey { case requiredFactor, allowMagicLink, enrolmentGraceDays, sessionMaxLifetimeDays }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        requiredFactor = try c.decodeIfPresent(RequiredFactor.self, forKey: .requiredFactor)
        allowMagicLink = try c.decodeIfPresent(Bool.self, forKey: .allowMagicLink)
        enrolmentGraceDays = try c.decodeWholeNumberIfPresent(forKey: .enrolmentGraceDays)
        sessionMaxLifetimeDays = try c.decodeIfPresent(SessionLifetimeUpdate.self, forKey: .sessionMaxLifetimeDays)
    }
}

extension SecurityPolicyUpdate: WireRequest {
    public static let fields: [RequestField<Self>] = [
        .decoded("requiredFactor", .nullable(.cases(of: RequiredFactor.self)), required: false),
        .decoded("allowMagicLink", .nullable(.boolean), required: false),
        .optionalInteger("enrolmentGraceDays", \.enrolmentGraceDays, in: graceDays),
        .optionalObject("sessionMaxLifetimeDays", \.sessionMaxLifetimeDays),
    ]
    public static var bodyDescription: String? { "The policy's fields to change; absent ones keep their value" }
    public static var example: SecurityPolicyUpdate { SecurityPolicyUpdate(requiredFactor: .appOrPasskey, enrolmentGraceDays: 7) }
}

/// The session lifetimes to change, in days: each at least 1 and at most the server's own.
public struct SessionLifetimeUpdate: Codable, Sendable, Equatable {
    public var web: Int?
    public var mobile: Int?
    public init(web: Int? = nil, mobile: Int? = nil) {
        self.web = web
        self.mobile = mobile
    }

    private enum CodingKeys: String, CodingKey { case web, mobile }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        web = try c.decodeWholeNumberIfPresent(forKey: .web)
        mobile = try c.decodeWholeNumberIfPresent(forKey: .mobile)
    }
}

extension SessionLifetimeUpdate: WireRequest {
    public static let fields: [RequestField<Self>] = [
        .optionalInteger("web", \.web, in: 1...36_500), .optionalInteger("mobile", \.mobile, in: 1...36_500),
    ]
    public static var bodyDescription: String? {
        "Days a session may last from its sign-in, at most the server's own (--session-max-lifetime-web, -mobile)"
    }
    public static var example: SessionLifetimeUpdate { SessionLifetimeUpdate(web: 7) }
}

/// What a token response says when the user's shop requires a factor they have not enrolled
/// (docs/API.md §13.3): which to enrol, and by when. After `deadline` the session is restricted.
public struct EnrolmentRequirement: Codable, Sendable, Equatable {
    public var methods: [TwoFactorMethod]
    public var deadline: String
    public init(methods: [TwoFactorMethod], deadline: String) {
        self.methods = methods
        self.deadline = deadline
    }
}

extension EnrolmentRequirement: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("methods", \.methods, .array(.cases(of: TwoFactorMethod.self))),
        .init("deadline", \.deadline, .timestamp),
    ]
    public static var schema: JSONSchema {
        .object(fields, description: "A factor the shop requires and the user has not enrolled, and by when")
    }
    public static var example: EnrolmentRequirement { EnrolmentRequirement(methods: [.totp, .passkey], deadline: WireExample.timestamp) }
}

/// A token response that may say what the shop requires (`StaffTokenResponse`, `RefreshResponse`).
public protocol EnrolmentAnnouncing {
    var enrolmentRequired: EnrolmentRequirement? { get }
    var scope: String? { get }
}

extension StaffTokenResponse: EnrolmentAnnouncing {}
extension RefreshResponse: EnrolmentAnnouncing {}

extension EnrolmentRequirement {
    /// The two keys a token response adds under a policy (docs/API.md §13.3), left out otherwise.
    static func tokenResponseFields<Response: EnrolmentAnnouncing>() -> [ResponseField<Response>] {
        [
            .init("enrolmentRequired", \.enrolmentRequired, .ref(EnrolmentRequirement.self), required: false),
            .init("scope", \.scope, .oneOf([TokenScope.enrolment]), required: false),
        ]
    }
}

/// The `scope` of a restricted session's tokens (docs/API.md §13.3): only enrolment's routes.
public enum TokenScope {
    public static let enrolment = "enrol"
}
