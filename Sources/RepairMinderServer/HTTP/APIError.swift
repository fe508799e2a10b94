import Foundation
import HTTPTypes
import Hummingbird
import RepairMinderModels

/// An error answered with docs/API.md §1's failure envelope, its status and machine code.
struct APIError: Error, HTTPResponseError, Sendable {
    let status: HTTPResponse.Status
    let code: ErrorCode
    let message: String
    var headers: HTTPFields = [:]
    /// The client the failure is about (409 `CLIENT_EXISTS`), sent as the envelope's `clientId`.
    var clientId: String?

    /// `failure`'s status and code (the contract's catalogue, `DocumentedFailure`) with `message`.
    init(_ failure: DocumentedFailure, _ message: String, headers: HTTPFields = [:]) {
        self.status = HTTPResponse.Status(code: failure.status)
        self.code = failure.code
        self.message = message
        self.headers = headers
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        Response.json(ErrorEnvelope.failure(message: message, code: code, clientId: clientId), status: status, headers: headers)
    }
}

extension APIError {
    static func validation(_ message: String) -> APIError { APIError(.validationError, message) }
    static let invalidJSON = APIError(.invalidJSON, "Request body must be valid JSON")
    static let notAnObject = APIError(.invalidJSON, "Request body must be a JSON object")
    static let wrongContentType = APIError(.invalidJSON, "Content-Type must be application/json")
    static let payloadTooLarge = APIError(.payloadTooLarge, "Request body is too large")
    static let notFound = APIError(.notFound, "Not found")

    /// 405 for a path that is served with other methods, which `Allow` lists (RFC 9110 §15.5.6).
    static func methodNotAllowed(allowed: [HTTPMethod]) -> APIError {
        let methods = allowed.map(\.rawValue).joined(separator: ", ")
        return APIError(.methodNotAllowed, "Method not allowed: use \(methods)", headers: [.allow: methods])
    }
    static let internalError = APIError(.internalError, "An unexpected error occurred")
    /// The database does not answer: try again shortly (the SDK retries 503).
    static let serviceUnavailable = APIError(
        .serviceUnavailable, "The service is temporarily unavailable. Please try again shortly.",
        headers: [.retryAfter: "5"])
    static let unauthorized = APIError(.unauthorized, "Authentication required")
    static let tokenExpired = APIError(.tokenExpired, "Access token expired")

    /// 429 with `Retry-After` in whole seconds (at least 1).
    static func rateLimited(retryAfter seconds: Double) -> APIError {
        let whole = max(1, Int(seconds.rounded(.up)))
        return APIError(
            .rateLimited, "Too many requests. Please try again in \(whole) seconds.",
            headers: [.retryAfter: String(whole)])
    }

    // Staff sign-in (docs/API.md §2).
    static let invalidCredentials = APIError(.invalidCredentials, "Invalid credentials")
    static let accountDeactivated = APIError(.accountDeactivated, "Account is deactivated")
    static let accountArchived = APIError(
        .accountArchived, "Account has been archived and cannot login")
    static let noPasswordSet = APIError(
        .noPasswordSet, "No password set. Please use Magic Link login or set a password in Settings.")
    static let loginChallengeExpired = APIError(
        .loginChallengeExpired, "Login session expired. Please log in again.")
    static let invalidVerificationCode = APIError(.invalidCode, "Invalid verification code")
    static let verificationCodeExpired = APIError(.codeExpired, "Verification code expired")
    static let tooManyAttempts = APIError(.tooManyAttempts, "Too many attempts. Please log in again.")
    /// Wrong code at `totp/verify-setup` and `totp/disable`: the caller is signed in, so 400.
    static let invalidTOTPCode = APIError(.invalidCodeInput, "Invalid verification code")
    static let invalidOrExpiredCode = APIError(.invalidCode, "Invalid or expired code")

    // Quarantine and access (docs/API.md §4).
    static let accountPendingApproval = APIError(
        .accountPendingApproval,
        "Your account is pending approval. You will be notified when it is activated.")
    static let accountSuspended = APIError(
        .accountSuspended, "Your account has been suspended. Please contact support.")
    static let forbidden = APIError(.forbidden, "You do not have access to this resource")
    /// The caller's role does not allow what the route does (`Route.permission`).
    static let noPermission = APIError(.forbidden, "You do not have permission to do this")

    // Authenticator app (docs/API.md §2.10).
    static let passkeyInvalid = APIError(.passkeyInvalid, "Passkey not recognised")
    static func passkeyRefused(_ problem: PasskeyProblem) -> APIError {
        APIError(.passkeyRefused, "Passkey not accepted: \(problem)")
    }
    static func passkeyLimit(_ limit: Int) -> APIError {
        APIError(.passkeyLimit, "You have \(limit) passkeys, the most an account can have. Remove one to add another.")
    }
    static let totpAlreadyEnabled = APIError(.totpAlreadyEnabled, "Authenticator app is already enabled")
    static let totpSetupRequired = APIError(
        .totpSetupRequired, "Start authenticator setup first: no setup is pending")
    static let totpNotEnabled = APIError(.totpNotEnabled, "Authenticator app is not enabled")

    // Account lifecycle (docs/API.md §9).
    static func weakPassword(_ rule: String) -> APIError { APIError(.weakPassword, rule) }
    static let emailTaken = APIError(.emailTaken, "An account with this email already exists")
    static let companyNameTaken = APIError(
        .companyNameTaken, "A shop with this name is already registered. Choose another name.")
    /// Deleting an account (§9.5): no password to ask for, and the sign-in is too old to stand for one.
    static let reauthenticationRequired = APIError(
        .reauthenticationRequired, "Sign in again to delete your account: your sign-in must be less than 10 minutes old.")
    static let lastAdminCannotLeave = APIError(
        .lastAdmin, "You are the shop's last active admin. Make another member an admin before you delete your account.")
    static let lastPlatformAdminCannotLeave = APIError(
        .lastAdmin, "You are the platform's last administrator. Invite another with repairminder admin create first.")
    static let shopCloseRequired = APIError(
        .shopCloseRequired,
        "You are the shop's only active member: deleting your account closes the shop. Send closeShop: true to delete both.")

    // The team (docs/API.md §12).
    static let memberNotFound = APIError(.notFound, "No such member of your shop")
    static let invitationNotFound = APIError(.notFound, "No such invitation")
    static let invitationPending = APIError(
        .invitationPending, "This address already has a pending invitation. Resend it or revoke it first.")
    static let invitationInvalid = APIError(.invitationInvalid, "This invitation is invalid or has expired")
    static let cannotChangeSelf = APIError(
        .cannotChangeSelf, "You cannot do this to your own account. Ask another admin.")
    static let lastAdmin = APIError(
        .lastAdmin, "The shop must keep an active admin. Make another member an admin first.")
    /// A restricted session: the shop requires a factor the user has not enrolled (docs/API.md §13.3).
    static let factorEnrolmentRequired = APIError(
        .factorEnrolmentRequired, "Your shop requires an authenticator app or a passkey. Set one up to continue.")
    /// The address is already a client of the shop (docs/API.md §14).
    /// The address is a live client of the shop already: `existing`, which the body names.
    static func clientExists(_ existing: String) -> APIError {
        var error = APIError(.clientExists, "This address is already a client of the shop")
        error.clientId = existing
        return error
    }
    static let clientPortalDisabled = APIError(
        .clientPortalDisabled, "The client's portal is switched off: switch it on before inviting them")
    /// A platform administrator is the operators' to manage, not a shop's.
    static let platformAdminUntouchable = APIError(
        .forbidden, "Platform administrators are managed by the operators")
    /// An invitation or role change that would put another role into the platform's own company.
    static let platformCompanyTakesOnlyPlatformAdmins = APIError(
        .forbidden,
        "The platform's own company has only platform administrators: the operators add them with repairminder admin create")

    // Refresh (docs/API.md §2.7).
    static let invalidRefreshToken = APIError(.invalidRefreshToken, "Invalid refresh token")
    static let refreshTokenExpired = APIError(.refreshTokenExpired, "Refresh token expired")
    static let userInactive = APIError(.userInactive, "User account is no longer active")
    static let tokenReuseDetected = APIError(
        .tokenReuseDetected, "Token reuse detected. All sessions revoked. Please log in again.")
}

extension HTTPField.Name {
    static let retryAfter = HTTPField.Name("Retry-After")!
}
