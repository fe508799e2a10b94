/// A machine-readable failure code, the `code` of docs/API.md's failure envelope (docs/API.md §1).
///
/// A struct rather than an enum, so a client keeps a code this version does not know yet.
public struct ErrorCode: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    // Bad input and general failures (§1).
    public static let invalidJSON = ErrorCode(rawValue: "INVALID_JSON")
    public static let validationError = ErrorCode(rawValue: "VALIDATION_ERROR")
    public static let payloadTooLarge = ErrorCode(rawValue: "PAYLOAD_TOO_LARGE")
    public static let notFound = ErrorCode(rawValue: "NOT_FOUND")
    public static let methodNotAllowed = ErrorCode(rawValue: "METHOD_NOT_ALLOWED")
    public static let rateLimited = ErrorCode(rawValue: "RATE_LIMITED")
    public static let internalError = ErrorCode(rawValue: "INTERNAL_ERROR")
    public static let serviceUnavailable = ErrorCode(rawValue: "SERVICE_UNAVAILABLE")
    public static let unauthorized = ErrorCode(rawValue: "UNAUTHORIZED")
    public static let tokenExpired = ErrorCode(rawValue: "TOKEN_EXPIRED")
    public static let forbidden = ErrorCode(rawValue: "FORBIDDEN")

    // Staff sign-in (§2).
    public static let invalidCredentials = ErrorCode(rawValue: "INVALID_CREDENTIALS")
    public static let accountDeactivated = ErrorCode(rawValue: "ACCOUNT_DEACTIVATED")
    public static let accountArchived = ErrorCode(rawValue: "ACCOUNT_ARCHIVED")
    public static let noPasswordSet = ErrorCode(rawValue: "NO_PASSWORD_SET")
    public static let loginChallengeExpired = ErrorCode(rawValue: "LOGIN_CHALLENGE_EXPIRED")
    public static let invalidCode = ErrorCode(rawValue: "INVALID_CODE")
    public static let codeExpired = ErrorCode(rawValue: "CODE_EXPIRED")
    public static let tooManyAttempts = ErrorCode(rawValue: "TOO_MANY_ATTEMPTS")

    // Refresh (§2.7).
    public static let invalidRefreshToken = ErrorCode(rawValue: "INVALID_REFRESH_TOKEN")
    public static let refreshTokenExpired = ErrorCode(rawValue: "REFRESH_TOKEN_EXPIRED")
    public static let userInactive = ErrorCode(rawValue: "USER_INACTIVE")
    public static let tokenReuseDetected = ErrorCode(rawValue: "TOKEN_REUSE_DETECTED")

    // Authenticator app (§2.10).
    public static let totpAlreadyEnabled = ErrorCode(rawValue: "TOTP_ALREADY_ENABLED")
    public static let totpSetupRequired = ErrorCode(rawValue: "TOTP_SETUP_REQUIRED")
    public static let totpNotEnabled = ErrorCode(rawValue: "TOTP_NOT_ENABLED")

    // Passkeys (§11).
    public static let passkeyInvalid = ErrorCode(rawValue: "PASSKEY_INVALID")
    public static let passkeyLimit = ErrorCode(rawValue: "PASSKEY_LIMIT")

    // Connected apps (§16).
    public static let appLimit = ErrorCode(rawValue: "APP_LIMIT")
    public static let appHasNoSecret = ErrorCode(rawValue: "APP_HAS_NO_SECRET")

    // Quarantine (§4).
    public static let accountPendingApproval = ErrorCode(rawValue: "ACCOUNT_PENDING_APPROVAL")
    public static let accountSuspended = ErrorCode(rawValue: "ACCOUNT_SUSPENDED")

    // Account lifecycle (§9).
    public static let weakPassword = ErrorCode(rawValue: "WEAK_PASSWORD")
    public static let emailTaken = ErrorCode(rawValue: "EMAIL_TAKEN")
    public static let companyNameTaken = ErrorCode(rawValue: "COMPANY_NAME_TAKEN")
    /// Deleting an account without a password needs a sign-in of the last 10 minutes (§9.5).
    public static let reauthenticationRequired = ErrorCode(rawValue: "REAUTHENTICATION_REQUIRED")
    /// The shop's only active member deletes their account only with `closeShop` (§9.5).
    public static let shopCloseRequired = ErrorCode(rawValue: "SHOP_CLOSE_REQUIRED")

    // The team (§12).
    public static let invitationPending = ErrorCode(rawValue: "INVITATION_PENDING")
    public static let invitationInvalid = ErrorCode(rawValue: "INVITATION_INVALID")
    public static let cannotChangeSelf = ErrorCode(rawValue: "CANNOT_CHANGE_SELF")
    public static let lastAdmin = ErrorCode(rawValue: "LAST_ADMIN")

    // Clients (§14).
    public static let clientExists = ErrorCode(rawValue: "CLIENT_EXISTS")
    public static let clientPortalDisabled = ErrorCode(rawValue: "CLIENT_PORTAL_DISABLED")
    /// A body that is not of the route's media type (the clients' CSV import).
    public static let unsupportedMediaType = ErrorCode(rawValue: "UNSUPPORTED_MEDIA_TYPE")

    // Platform administration (§15).
    public static let companyStatusConflict = ErrorCode(rawValue: "COMPANY_STATUS_CONFLICT")

    // The shop's security policy (§13).
    public static let factorEnrolmentRequired = ErrorCode(rawValue: "FACTOR_ENROLMENT_REQUIRED")

    /// The codes any route of its kind can answer, whatever it does (docs/API.md §1, §4): bad
    /// input, credentials, limits, failures of the server, quarantine. A route's own codes are
    /// the `failures` it declares.
    public static let general: [ErrorCode] = [
        .invalidJSON, .validationError, .payloadTooLarge, .notFound, .methodNotAllowed, .rateLimited, .internalError,
        .serviceUnavailable, .unauthorized, .tokenExpired, .forbidden, .accountPendingApproval, .accountSuspended, .factorEnrolmentRequired,
    ]

    /// Every code of docs/API.md: the general ones, then each route's declared failures in the
    /// route table's order. Read from the table, so a code a route declares is never missing.
    public static let all: [ErrorCode] = {
        var seen = Set<ErrorCode>()
        return (general + Routes.all.flatMap { $0.failures.map(\.code) }).filter { seen.insert($0).inserted }
    }()

    /// The codes after which a refresh token can never work again (§2.7).
    public static let refreshTokenRefusals = Set(DocumentedFailure.refreshTokenRefusals.map(\.code))
}
