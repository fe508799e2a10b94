import RepairMinderModels

/// What happened to a session, for an app to react to (navigate, show a message).
public enum AuthEvent: Sendable, Equatable {
    case signedIn(AppRole)
    case tokenRefreshed
    case signedOut(role: AppRole, reason: SignOutReason)
    /// A staff request was refused with 403 `ACCOUNT_PENDING_APPROVAL` or `ACCOUNT_SUSPENDED`:
    /// the shop was suspended (or set back to pending) during the session. `StaffAuth` moves
    /// to the quarantine screen (docs/API.md §4); the session itself goes on.
    case quarantined(APIError.QuarantineStatus)
    /// Who is signed in was read and differs from before: at sign-in, and whenever the app
    /// reads the user again (`reload()`, a password set, the shop's status). Also replayed by
    /// `APIClient.signedInUsers()`.
    case userUpdated(SignedInUser)
}

/// Why a session ended.
public enum SignOutReason: Sendable, Equatable {
    /// The person signed out.
    case userInitiated
    /// The server refused the refresh token (expired, revoked, reused, user deactivated): its code.
    case sessionRejected(code: ErrorCode?)
    /// The customer token was refused or expired.
    case tokenRejected
    /// The person deleted their account (docs/API.md §9.5).
    case accountDeleted
}
