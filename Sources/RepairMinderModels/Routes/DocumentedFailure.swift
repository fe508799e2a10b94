/// A failure of the contract: its HTTP status and machine code (docs/API.md §1), said once.
/// Routes list the ones they answer besides those every route of its kind can (`failures:`,
/// for documentation and client code); the server's errors are made from them with a message,
/// so a status cannot differ between what is documented and what is answered.
public struct DocumentedFailure: Sendable, Hashable {
    public let status: Int
    public let code: ErrorCode

    init(_ status: Int, _ code: ErrorCode) {
        self.status = status
        self.code = code
    }

    // Bad input and general failures (§1).
    public static let invalidJSON = DocumentedFailure(400, .invalidJSON)
    public static let validationError = DocumentedFailure(400, .validationError)
    public static let payloadTooLarge = DocumentedFailure(413, .payloadTooLarge)
    public static let unsupportedMediaType = DocumentedFailure(415, .unsupportedMediaType)
    public static let notFound = DocumentedFailure(404, .notFound)
    public static let methodNotAllowed = DocumentedFailure(405, .methodNotAllowed)
    public static let rateLimited = DocumentedFailure(429, .rateLimited)
    public static let internalError = DocumentedFailure(500, .internalError)
    public static let serviceUnavailable = DocumentedFailure(503, .serviceUnavailable)
    public static let unauthorized = DocumentedFailure(401, .unauthorized)
    public static let tokenExpired = DocumentedFailure(401, .tokenExpired)
    public static let forbidden = DocumentedFailure(403, .forbidden)

    // Staff sign-in (§2).
    public static let invalidCredentials = DocumentedFailure(401, .invalidCredentials)
    public static let accountDeactivated = DocumentedFailure(401, .accountDeactivated)
    public static let accountArchived = DocumentedFailure(401, .accountArchived)
    public static let noPasswordSet = DocumentedFailure(401, .noPasswordSet)
    public static let loginChallengeExpired = DocumentedFailure(401, .loginChallengeExpired)
    /// A wrong code where it signs someone in.
    public static let invalidCode = DocumentedFailure(401, .invalidCode)
    /// A wrong code from someone signed in already (`totp/verify-setup`, `totp/disable`) or a
    /// token that opens nothing (REKI's reset): bad input, not a failed sign-in.
    public static let invalidCodeInput = DocumentedFailure(400, .invalidCode)
    public static let codeExpired = DocumentedFailure(401, .codeExpired)
    public static let tooManyAttempts = DocumentedFailure(401, .tooManyAttempts)

    // Refresh (§2.7).
    public static let invalidRefreshToken = DocumentedFailure(401, .invalidRefreshToken)
    public static let refreshTokenExpired = DocumentedFailure(401, .refreshTokenExpired)
    public static let userInactive = DocumentedFailure(401, .userInactive)
    public static let tokenReuseDetected = DocumentedFailure(401, .tokenReuseDetected)
    /// The refusals after which a refresh token can never work again, in the order docs list them.
    public static let refreshTokenRefusals: [DocumentedFailure] = [.invalidRefreshToken, .refreshTokenExpired, .tokenReuseDetected, .userInactive]

    // Authenticator app (§2.10) and passkeys (§11).
    public static let totpAlreadyEnabled = DocumentedFailure(409, .totpAlreadyEnabled)
    public static let totpSetupRequired = DocumentedFailure(400, .totpSetupRequired)
    public static let totpNotEnabled = DocumentedFailure(400, .totpNotEnabled)
    /// A passkey that signs nobody in.
    public static let passkeyInvalid = DocumentedFailure(401, .passkeyInvalid)
    /// A passkey answer an enrolment refuses (bad input).
    public static let passkeyRefused = DocumentedFailure(400, .passkeyInvalid)
    public static let passkeyLimit = DocumentedFailure(409, .passkeyLimit)

    // Connected apps (§16).
    public static let appLimit = DocumentedFailure(409, .appLimit)
    public static let appHasNoSecret = DocumentedFailure(409, .appHasNoSecret)

    // Quarantine and the shop's policy (§4, §13).
    public static let accountPendingApproval = DocumentedFailure(403, .accountPendingApproval)
    public static let accountSuspended = DocumentedFailure(403, .accountSuspended)
    public static let factorEnrolmentRequired = DocumentedFailure(403, .factorEnrolmentRequired)

    // Account lifecycle (§9).
    public static let weakPassword = DocumentedFailure(400, .weakPassword)
    public static let emailTaken = DocumentedFailure(409, .emailTaken)
    public static let companyNameTaken = DocumentedFailure(409, .companyNameTaken)
    public static let reauthenticationRequired = DocumentedFailure(403, .reauthenticationRequired)
    public static let shopCloseRequired = DocumentedFailure(409, .shopCloseRequired)

    // The team (§12).
    public static let invitationPending = DocumentedFailure(409, .invitationPending)
    public static let invitationInvalid = DocumentedFailure(404, .invitationInvalid)
    public static let cannotChangeSelf = DocumentedFailure(409, .cannotChangeSelf)
    public static let lastAdmin = DocumentedFailure(409, .lastAdmin)

    // Clients (§14) and platform administration (§15).
    public static let clientExists = DocumentedFailure(409, .clientExists)
    public static let clientPortalDisabled = DocumentedFailure(409, .clientPortalDisabled)
    public static let companyStatusConflict = DocumentedFailure(409, .companyStatusConflict)
}
