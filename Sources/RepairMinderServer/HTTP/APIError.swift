import Foundation
import HTTPTypes
import Hummingbird
import RepairMinderModels

/// An error answered with API.md §1's failure envelope, its status and machine code.
struct APIError: Error, HTTPResponseError, Sendable {
    let status: HTTPResponse.Status
    let code: String
    let message: String
    var headers: HTTPFields = [:]

    init(_ status: HTTPResponse.Status, _ code: String, _ message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        Response.json(ErrorEnvelope.failure(message: message, code: code), status: status, headers: headers)
    }
}

extension APIError {
    static func validation(_ message: String) -> APIError { APIError(.badRequest, "VALIDATION_ERROR", message) }
    static let invalidJSON = APIError(.badRequest, "INVALID_JSON", "Request body must be valid JSON")
    static let payloadTooLarge = APIError(.contentTooLarge, "PAYLOAD_TOO_LARGE", "Request body is too large")
    static let notFound = APIError(.notFound, "NOT_FOUND", "Not found")
    static let internalError = APIError(.internalServerError, "INTERNAL_ERROR", "An unexpected error occurred")
    static let unauthorized = APIError(.unauthorized, "UNAUTHORIZED", "Authentication required")
    static let tokenExpired = APIError(.unauthorized, "TOKEN_EXPIRED", "Access token expired")

    /// 429 with `Retry-After` in whole seconds (at least 1).
    static func rateLimited(retryAfter seconds: Double) -> APIError {
        let whole = max(1, Int(seconds.rounded(.up)))
        return APIError(
            .tooManyRequests, "RATE_LIMITED", "Too many requests. Please try again in \(whole) seconds.",
            headers: [.retryAfter: String(whole)])
    }

    // Staff sign-in (API.md §2).
    static let invalidCredentials = APIError(.unauthorized, "INVALID_CREDENTIALS", "Invalid credentials")
    static let accountDeactivated = APIError(.unauthorized, "ACCOUNT_DEACTIVATED", "Account is deactivated")
    static let accountArchived = APIError(
        .unauthorized, "ACCOUNT_ARCHIVED", "Account has been archived and cannot login")
    static let noPasswordSet = APIError(
        .unauthorized, "NO_PASSWORD_SET", "No password set. Please use Magic Link login or set a password in Settings.")
    static let loginChallengeExpired = APIError(
        .unauthorized, "LOGIN_CHALLENGE_EXPIRED", "Login session expired. Please log in again.")
    static let invalidVerificationCode = APIError(.unauthorized, "INVALID_CODE", "Invalid verification code")
    static let verificationCodeExpired = APIError(.unauthorized, "CODE_EXPIRED", "Verification code expired")
    static let tooManyAttempts = APIError(.unauthorized, "TOO_MANY_ATTEMPTS", "Too many attempts. Please log in again.")
    static let invalidOrExpiredCode = APIError(.unauthorized, "INVALID_CODE", "Invalid or expired code")

    // Quarantine and access (API.md §4).
    static let accountPendingApproval = APIError(
        .forbidden, "ACCOUNT_PENDING_APPROVAL",
        "Your account is pending approval. You will be notified when it is activated.")
    static let accountSuspended = APIError(
        .forbidden, "ACCOUNT_SUSPENDED", "Your account has been suspended. Please contact support.")
    static let forbidden = APIError(.forbidden, "FORBIDDEN", "You do not have access to this resource")

    // Authenticator app (API.md §2.10).
    static let totpAlreadyEnabled = APIError(.conflict, "TOTP_ALREADY_ENABLED", "Authenticator app is already enabled")
    static let totpSetupRequired = APIError(
        .badRequest, "TOTP_SETUP_REQUIRED", "Start authenticator setup first: no setup is pending")
    static let totpNotEnabled = APIError(.badRequest, "TOTP_NOT_ENABLED", "Authenticator app is not enabled")

    // Refresh (API.md §2.7).
    static let invalidRefreshToken = APIError(.unauthorized, "INVALID_REFRESH_TOKEN", "Invalid refresh token")
    static let refreshTokenExpired = APIError(.unauthorized, "REFRESH_TOKEN_EXPIRED", "Refresh token expired")
    static let userInactive = APIError(.unauthorized, "USER_INACTIVE", "User account is no longer active")
    static let tokenReuseDetected = APIError(
        .unauthorized, "TOKEN_REUSE_DETECTED", "Token reuse detected. All sessions revoked. Please log in again.")
}

extension HTTPField.Name {
    static let retryAfter = HTTPField.Name("Retry-After")!
}
