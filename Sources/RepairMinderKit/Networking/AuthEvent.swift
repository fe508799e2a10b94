import RepairMinderModels

/// What happened to a session, for an app to react to (navigate, show a message).
public enum AuthEvent: Sendable, Equatable {
    case signedIn(AppRole)
    case tokenRefreshed
    case signedOut(role: AppRole, reason: SignOutReason)
}

/// Why a session ended.
public enum SignOutReason: Sendable, Equatable {
    /// The person signed out.
    case userInitiated
    /// The server refused the refresh token (expired, revoked, reused, user deactivated): its code.
    case sessionRejected(code: ErrorCode?)
    /// The customer token was refused or expired.
    case tokenRejected
}
