/// Whether the app has a session, and of which role: the single source of truth an app's
/// navigation follows (`APIClient.authStates()`).
public enum AuthState: Sendable, Equatable {
    /// No session. `reason` says why the last one ended: nil at a launch without one.
    case signedOut(reason: SignOutReason?)
    /// A session of this role is stored (it may still be refused at the next request).
    case signedIn(AppRole)
    /// The credential store could not be read (a Keychain locked before the device's first
    /// unlock since it started): whether there is a session is unknown, which is not "signed
    /// out". `APIClient.reloadStoredState()` reads it again.
    case credentialsUnreadable

    /// A message for the person when a session ended without them asking, once; nil otherwise.
    public var notice: String? {
        guard case .signedOut(let reason?) = self else { return nil }
        switch reason {
        case .userInitiated: return nil
        case .sessionRejected(let code) where code == .tokenReuseDetected:
            return "You were signed out because your session was used on another device. Please sign in again."
        case .sessionRejected(let code) where code == .userInactive:
            return "Your account is no longer active. Please contact your shop's administrator."
        case .sessionRejected: return "Your session has ended. Please sign in again."
        case .tokenRejected: return "Your session has ended. Please sign in again."
        case .accountDeleted: return "Your account has been deleted."
        }
    }
}
