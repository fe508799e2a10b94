import Foundation
import RepairMinderModels

/// Why an API call failed, typed so an app can react: sign out, offer a refresh, wait, retry.
public enum APIError: Error, Sendable, Equatable {
    /// The server refused the request with its envelope's message and code.
    case server(status: Int, message: String, code: ErrorCode?)
    /// 409 `CLIENT_EXISTS` (docs/API.md §14): the address is already a client of the shop.
    /// `clientId` is the existing client's, as the failure envelope names it (nil from a server
    /// that does not say), so an app can open that record instead of adding a second.
    case clientExists(clientId: String?, message: String)
    /// The staff member's company is pending approval or suspended (docs/API.md §4).
    case quarantined(status: QuarantineStatus, message: String)
    /// The staff session is restricted to enrolment (403 `FACTOR_ENROLMENT_REQUIRED`,
    /// docs/API.md §13.3): the shop requires an authenticator app or a passkey the user has not
    /// set up. `APIClient.enrolmentStatus` says which; once one is enrolled,
    /// `APIClient.refreshSession()` (or `StaffAuth.refreshEnrolment()`) restores full access.
    case enrolmentRequired(message: String)
    /// Too many requests; try again after this many seconds (from `Retry-After`).
    case rateLimited(retryAfter: Int?, message: String)
    /// 401 on an endpoint: the credentials were refused.
    case unauthorized(message: String, code: ErrorCode?)
    /// The session ended (refresh token refused, reused or expired): sign in again.
    case sessionExpired(code: ErrorCode?)
    /// No credentials of the kind this endpoint needs are stored.
    case notSignedIn
    /// The server could not be reached, or the connection failed: why (`NetworkFailure.kind`).
    case network(NetworkFailure)
    /// The response was not what the contract says.
    case decoding(String)
    /// A refresh loop was stopped: more refreshes than allowed in a short window.
    case refreshLimitExceeded
    /// The call could not be made as written (wrong number of path values).
    case invalidRequest(String)

    public enum QuarantineStatus: Sendable, Equatable {
        case pendingApproval
        case suspended

        /// The status a 403's code names, nil for other codes.
        public init?(code: ErrorCode) {
            switch code {
            case .accountPendingApproval: self = .pendingApproval
            case .accountSuspended: self = .suspended
            default: return nil
            }
        }

        public var code: ErrorCode { self == .pendingApproval ? .accountPendingApproval : .accountSuspended }
    }

    /// The server's message, or a description of the failure.
    public var message: String {
        switch self {
        case .server(_, let message, _), .quarantined(_, let message), .rateLimited(_, let message),
            .unauthorized(let message, _), .enrolmentRequired(let message), .clientExists(_, let message):
            return message
        case .sessionExpired: return "Your session has ended. Please sign in again."
        case .notSignedIn: return "You are not signed in."
        case .network(let failure): return failure.userMessage
        case .decoding(let detail): return "Unexpected answer from the server: \(detail)"
        case .refreshLimitExceeded: return "Too many session refreshes. Please try again shortly."
        case .invalidRequest(let detail): return "The request could not be made: \(detail)"
        }
    }

    /// The machine code of a server refusal, if any.
    public var code: ErrorCode? {
        switch self {
        case .server(_, _, let code), .unauthorized(_, let code), .sessionExpired(let code): return code
        case .quarantined(let status, _): return status.code
        case .rateLimited: return .rateLimited
        case .enrolmentRequired: return .factorEnrolmentRequired
        case .clientExists: return .clientExists
        default: return nil
        }
    }
}

extension APIError: LocalizedError {
    /// The words an app shows: the server's message for a refusal, plain words for the rest.
    public var errorDescription: String? { message }

    /// Whether the same request may succeed later without the person changing anything: a
    /// network failure other than a failed secure connection, a 429 (after `retryAfter`), a
    /// 5xx, a stopped refresh loop. A refusal, an ended session or a malformed answer is not.
    public var isRetryable: Bool {
        switch self {
        case .network(let failure): failure.isRetryable
        case .rateLimited, .refreshLimitExceeded: true
        case .server(let status, _, _): status >= 500
        default: false
        }
    }
}
