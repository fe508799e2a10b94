/// Lets a sign-in state machine follow the client's session state (`APIClient.authStates()`).
@MainActor
enum SessionFollower {
    /// Calls `ended` on the main actor each time a session ends while `role`'s session was the
    /// one signed in, for as long as `ended` returns something (its owner is alive).
    static func follow(_ api: APIClient, role: AppRole, ended: @escaping @MainActor () -> Void?) {
        let states = api.authStates()
        Task { @MainActor in
            var signedIn = false
            for await state in states {
                switch state {
                case .signedIn(let current): signedIn = current == role
                case .signedOut:
                    if signedIn, ended() == nil { return }
                    signedIn = false
                case .credentialsUnreadable: break
                }
            }
        }
    }
}

extension APIError {
    /// Whether this failure means the stored session is no longer accepted (as opposed to the
    /// server being unreachable, busy or broken).
    var isRefusalOfTheSession: Bool {
        switch self {
        case .unauthorized, .sessionExpired, .notSignedIn: true
        default: false
        }
    }
}
