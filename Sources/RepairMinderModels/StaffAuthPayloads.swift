/// `POST /api/auth/login` body.
public struct LoginRequest: Codable, Sendable, Equatable {
    public var email: String
    public var password: String
    public init(email: String, password: String) {
        self.email = email
        self.password = password
    }
}

extension LoginRequest: WireRequest {
    public static var unknownFields: UnknownFields { .tolerated }
    public static let fields: [RequestField<Self>] = [
        .string("email", \.email, FieldRules.email),
        .string("password", \.password, FieldRules.secret.described("Sent exactly as typed")),
    ]
    public static var example: LoginRequest { LoginRequest(email: WireExample.staffEmail, password: "correct horse battery") }
}

/// The camelCase user summary inside the login step-1 answer.
public struct LoginUserSummary: Codable, Sendable, Equatable {
    public var id: String
    public var email: String
    public var firstName: String?
    public var lastName: String?
    public var companyId: String
    public init(id: String, email: String, firstName: String?, lastName: String?, companyId: String) {
        self.id = id
        self.email = email
        self.firstName = firstName
        self.lastName = lastName
        self.companyId = companyId
    }
}

extension LoginUserSummary: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("id", \.id, .nonEmptyText),
        .init("email", \.email, .email),
        .init("firstName", \.firstName, .text, required: false),
        .init("lastName", \.lastName, .text, required: false),
        .init("companyId", \.companyId, .nonEmptyText),
    ]
    public static var schema: JSONSchema { .object(fields) }
    public static var example: LoginUserSummary {
        LoginUserSummary(
            id: WireExample.userId, email: WireExample.staffEmail, firstName: "Ada", lastName: "Lovelace",
            companyId: WireExample.companyId)
    }
}

/// A second factor login step 3 accepts (docs/API.md §2.1, §11.1): the emailed code only for a
/// user who enrolled nothing, else the strongest enrolled factors.
public enum TwoFactorMethod: WireEnum {
    case email
    case totp
    case recoveryCode
    case passkey
    /// A factor this version cannot answer (a newer server's); the others still can be.
    case unknown(String)

    /// The values this version knows: the OpenAPI document lists these.
    public static let allCases: [TwoFactorMethod] = [.email, .totp, .recoveryCode, .passkey]

    /// The value as the wire spells it.
    public var rawValue: String {
        switch self {
        case .email: "email"
        case .totp: "totp"
        case .recoveryCode: "recovery_code"
        case .passkey: "passkey"
        case .unknown(let raw): raw
        }
    }
}

/// Login step 1's answer: the password was right, a second factor is required (docs/API.md §2.1).
public struct LoginChallengeResponse: Codable, Sendable, Equatable {
    public var requiresTwoFactor: Bool
    public var userId: String
    public var email: String
    public var user: LoginUserSummary
    /// The second factors step 3 accepts for this user (docs/API.md §11.1); nil from a server
    /// older than passkeys, which accepted the emailed code from everyone.
    public var methods: [TwoFactorMethod]?
    /// `methods` as SDK versions before passkeys read it: only `email` and `totp`, which they
    /// decode (deprecated; docs/API.md §2.1).
    public var twoFactorMethods: [TwoFactorMethod]?
    /// Binds steps 2 and 3 to this answer (docs/API.md §2.3); send it back with both.
    public var challengeToken: String?
    /// When the user has passkeys: the request options step 3's passkey answers, bound to this challenge.
    public var passkey: PublicKeyCredentialRequestOptionsJSON?
    public init(
        userId: String, email: String, user: LoginUserSummary, methods: [TwoFactorMethod], challengeToken: String?,
        passkey: PublicKeyCredentialRequestOptionsJSON? = nil
    ) {
        self.requiresTwoFactor = true
        self.userId = userId
        self.email = email
        self.user = user
        self.methods = methods
        twoFactorMethods = methods.filter { $0 == .email || $0 == .totp }
        self.challengeToken = challengeToken
        self.passkey = passkey
    }

    /// Whether step 2 emails a code to this user: only when nothing stronger is enrolled.
    public var acceptsEmailedCode: Bool { methods.map { $0.contains(.email) } ?? true }
}

extension LoginChallengeResponse: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("requiresTwoFactor", \.requiresTwoFactor, .boolean),
        .init("userId", \.userId, .nonEmptyText),
        .init("email", \.email, .email),
        .init("user", \.user, .ref(LoginUserSummary.self)),
        .init("methods", \.methods, .array(.cases(of: TwoFactorMethod.self)), required: false),
        .init(
            "twoFactorMethods", \.twoFactorMethods,
            .array(.string(.init(allowed: ["email", "totp"], description: "Deprecated: methods"))), required: false),
        .init("challengeToken", \.challengeToken, .challengeToken, required: false),
        .init("passkey", \.passkey, .ref(PublicKeyCredentialRequestOptionsJSON.self), required: false),
    ]
    public static var schema: JSONSchema {
        .object(fields, description: "The password was right; a second factor completes sign-in")
    }
    public static var example: LoginChallengeResponse {
        LoginChallengeResponse(
            userId: WireExample.userId, email: WireExample.staffEmail, user: .example,
            methods: [.totp, .recoveryCode, .passkey], challengeToken: WireExample.challengeToken,
            passkey: .example)
    }
}

/// `POST /api/auth/2fa/request` body.
public struct TwoFactorCodeRequest: Codable, Sendable, Equatable {
    public var userId: String
    public var email: String
    /// Step 1's `challengeToken`; optional for seed clients, always sent by the SDK.
    public var challengeToken: String?
    public init(userId: String, email: String, challengeToken: String? = nil) {
        self.userId = userId
        self.email = email
        self.challengeToken = challengeToken
    }
}

extension TwoFactorCodeRequest: WireRequest {
    public static var unknownFields: UnknownFields { .tolerated }
    public static let fields: [RequestField<Self>] = [
        .string("userId", \.userId, FieldRules.identifier),
        .string("email", \.email, FieldRules.email),
        .optional("challengeToken", \.challengeToken, FieldRules.challengeToken),
    ]
    public static var example: TwoFactorCodeRequest {
        TwoFactorCodeRequest(userId: WireExample.userId, email: WireExample.staffEmail, challengeToken: WireExample.challengeToken)
    }
}

/// `POST /api/auth/2fa/verify` body: a code or, for a user with passkeys, a passkey's answer
/// to step 1's `passkey` options (exactly one of the two).
public struct TwoFactorVerifyRequest: Codable, Sendable, Equatable {
    public var userId: String
    public var code: String?
    /// Step 1's `challengeToken`; optional for seed clients, always sent by the SDK.
    public var challengeToken: String?
    public var passkey: AuthenticationResponseJSON?
    public init(userId: String, code: String, challengeToken: String? = nil) {
        self.userId = userId
        self.code = code
        self.challengeToken = challengeToken
    }
    public init(userId: String, passkey: AuthenticationResponseJSON, challengeToken: String?) {
        self.userId = userId
        self.passkey = passkey
        self.challengeToken = challengeToken
    }
}

extension TwoFactorVerifyRequest: WireRequest {
    public static var unknownFields: UnknownFields { .tolerated }
    public static let fields: [RequestField<Self>] = [
        .string("userId", \.userId, FieldRules.identifier),
        .optional("code", \.code, FieldRules.secondFactorCode),
        .optional("challengeToken", \.challengeToken, FieldRules.challengeToken),
        .optionalObject("passkey", \.passkey),
    ]
    public static let exactlyOneOf = ["code", "passkey"]
    public static var bodyDescription: String? {
        "A code (emailed, authenticator or recovery, as step 1's methods say) or a passkey's answer to step 1's passkey options"
    }
    public static var example: TwoFactorVerifyRequest {
        TwoFactorVerifyRequest(userId: WireExample.userId, code: WireExample.code, challengeToken: WireExample.challengeToken)
    }
}

/// `POST /api/auth/magic-link/request` body.
public struct MagicLinkRequest: Codable, Sendable, Equatable {
    public var email: String
    public init(email: String) { self.email = email }
}

extension MagicLinkRequest: WireRequest {
    public static var unknownFields: UnknownFields { .tolerated }
    public static let fields: [RequestField<Self>] = [.string("email", \.email, FieldRules.email)]
    public static var example: MagicLinkRequest { MagicLinkRequest(email: WireExample.staffEmail) }
}

/// `POST /api/auth/magic-link/verify-code` body.
public struct MagicLinkVerifyRequest: Codable, Sendable, Equatable {
    public var email: String
    public var code: String
    public init(email: String, code: String) {
        self.email = email
        self.code = code
    }
}

extension MagicLinkVerifyRequest: WireRequest {
    public static var unknownFields: UnknownFields { .tolerated }
    public static let fields: [RequestField<Self>] = [
        .string("email", \.email, FieldRules.email),
        .string("code", \.code, FieldRules.sixDigitCode),
    ]
    public static var example: MagicLinkVerifyRequest {
        MagicLinkVerifyRequest(email: WireExample.staffEmail, code: WireExample.code)
    }
}

/// `POST /api/auth/magic-link/verify-code`'s answer (docs/API.md §2.5, §11.1): tokens, or, for
/// a user with an authenticator app or passkeys, login step 1's answer (the code stood in for
/// the password; step 3 follows).
public enum MagicLinkVerifyResponse: Codable, Sendable, Equatable {
    case signedIn(StaffTokenResponse)
    case secondFactorRequired(LoginChallengeResponse)

    private enum CodingKeys: String, CodingKey { case requiresTwoFactor }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if try container.decodeIfPresent(Bool.self, forKey: .requiresTwoFactor) == true {
            self = .secondFactorRequired(try LoginChallengeResponse(from: decoder))
        } else {
            self = .signedIn(try StaffTokenResponse(from: decoder))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .signedIn(let tokens): try tokens.encode(to: encoder)
        case .secondFactorRequired(let challenge): try challenge.encode(to: encoder)
        }
    }
}

extension MagicLinkVerifyResponse: WireType {
    public static var schema: JSONSchema {
        .oneOf([.ref(StaffTokenResponse.self), .ref(LoginChallengeResponse.self)])
    }
    public static var example: MagicLinkVerifyResponse { .signedIn(.example) }
}

/// `POST /api/auth/refresh` body.
public struct RefreshRequest: Codable, Sendable, Equatable {
    public var refreshToken: String
    public init(refreshToken: String) { self.refreshToken = refreshToken }
}

extension RefreshRequest: WireRequest {
    public static var unknownFields: UnknownFields { .tolerated }
    public static let fields: [RequestField<Self>] = [.string("refreshToken", \.refreshToken, FieldRules.refreshToken)]
    public static var example: RefreshRequest { RefreshRequest(refreshToken: WireExample.refreshToken) }
}

/// A completed staff sign-in: tokens plus who signed in (docs/API.md §2.3, §2.5).
public struct StaffTokenResponse: Codable, Sendable, Equatable {
    public var token: String
    public var refreshToken: String
    public var expiresIn: Int
    public var user: StaffUser
    public var company: Company
    /// The shop requires a factor the user has not enrolled (docs/API.md §13.3).
    public var enrolmentRequired: EnrolmentRequirement?
    /// `"enrol"` when the session is restricted to enrolment; nil for full access.
    public var scope: String?
    public init(
        token: String, refreshToken: String, expiresIn: Int, user: StaffUser, company: Company,
        enrolmentRequired: EnrolmentRequirement? = nil, scope: String? = nil
    ) {
        self.token = token
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
        self.user = user
        self.company = company
        self.enrolmentRequired = enrolmentRequired
        self.scope = scope
    }
}

extension StaffTokenResponse: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("token", \.token, .jwt),
        .init("refreshToken", \.refreshToken, .nonEmptyText),
        .init("expiresIn", \.expiresIn, .integer(minimum: 1)),
        .init("user", \.user, .ref(StaffUser.self)),
        .init("company", \.company, .ref(Company.self)),
    ] + EnrolmentRequirement.tokenResponseFields()
    public static var schema: JSONSchema { .object(fields, description: "A completed staff sign-in") }
    public static var example: StaffTokenResponse {
        StaffTokenResponse(
            token: WireExample.accessToken, refreshToken: WireExample.refreshToken, expiresIn: 900, user: .example,
            company: .example)
    }
}

/// `POST /api/auth/refresh`'s answer (docs/API.md §2.7).
public struct RefreshResponse: Codable, Sendable, Equatable {
    public var token: String
    public var refreshToken: String
    public var expiresIn: Int
    /// As the sign-in's token response (docs/API.md §13.3), at every refresh.
    public var enrolmentRequired: EnrolmentRequirement?
    public var scope: String?
    public init(
        token: String, refreshToken: String, expiresIn: Int, enrolmentRequired: EnrolmentRequirement? = nil, scope: String? = nil
    ) {
        self.token = token
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
        self.enrolmentRequired = enrolmentRequired
        self.scope = scope
    }
}

extension RefreshResponse: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("token", \.token, .jwt),
        .init("refreshToken", \.refreshToken, .nonEmptyText),
        .init("expiresIn", \.expiresIn, .integer(minimum: 1)),
    ] + EnrolmentRequirement.tokenResponseFields()
    public static var schema: JSONSchema { .object(fields) }
    public static var example: RefreshResponse {
        RefreshResponse(token: WireExample.accessToken, refreshToken: WireExample.refreshToken, expiresIn: 900)
    }
}

/// `GET /api/auth/me`'s answer (docs/API.md §2.8).
public struct StaffMeResponse: Codable, Sendable, Equatable {
    public var user: StaffUser
    public var company: Company
    public var hasPassword: Bool
    public init(user: StaffUser, company: Company, hasPassword: Bool) {
        self.user = user
        self.company = company
        self.hasPassword = hasPassword
    }
}

extension StaffMeResponse: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("user", \.user, .ref(StaffUser.self)),
        .init("company", \.company, .ref(Company.self)),
        .init("hasPassword", \.hasPassword, .boolean),
    ]
    public static var schema: JSONSchema { .object(fields) }
    public static var example: StaffMeResponse { StaffMeResponse(user: .example, company: .example, hasPassword: true) }
}
