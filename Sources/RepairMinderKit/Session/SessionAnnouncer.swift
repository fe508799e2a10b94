/// Tells an app where its session stands, both ways at once: the state (`APIClient.authStates()`,
/// replayed to each new listener) and the events (`APIClient.events`). Shared by `APIClient` and
/// the staff `RefreshingSession`, which ends a session the server refused.
struct SessionAnnouncer: Sendable {
    let states: Broadcast<AuthState>
    let events = Broadcast<AuthEvent>()

    func signedIn(_ role: AppRole) {
        states.send(.signedIn(role))
        events.send(.signedIn(role))
    }

    func signedOut(_ role: AppRole, reason: SignOutReason) {
        states.send(.signedOut(reason: reason))
        events.send(.signedOut(role: role, reason: reason))
    }

    func refreshed() {
        events.send(.tokenRefreshed)
    }

    func quarantined(_ status: APIError.QuarantineStatus) {
        events.send(.quarantined(status))
    }
}
