/// Tells an app where its session stands, both ways at once: the state (`APIClient.authStates()`,
/// replayed to each new listener) and the events (`APIClient.events`), and what the shop's
/// policy asks of the staff session (`APIClient.enrolmentStatuses()`, replayed too). Shared by
/// `APIClient` and the staff `RefreshingSession`, which renews a session and ends one the server
/// refused.
struct SessionAnnouncer: Sendable {
    let states: Broadcast<AuthState>
    let events = Broadcast<AuthEvent>()
    let enrolment: Broadcast<EnrolmentStatus>
    /// Who is signed in (nil: nobody, or not read from the server yet), replayed.
    let users = Broadcast<SignedInUser?>(replaying: .some(nil))

    /// The sign-in machines read who is signed in (a sign-in, `reload()`, a change they made):
    /// announced when it differs from what was announced before.
    func userRead(_ user: SignedInUser) {
        guard users.value != .some(user) else { return }
        users.send(user)
        events.send(.userUpdated(user))
    }

    /// A staff sign-in is announced with what its token response said of the shop's policy.
    func signedIn(_ role: AppRole, enrolment status: EnrolmentStatus = .fullAccess) {
        if role == .staff { enrolment.send(status) }
        states.send(.signedIn(role))
        events.send(.signedIn(role))
    }

    func signedOut(_ role: AppRole, reason: SignOutReason) {
        if role == .staff { enrolment.send(.fullAccess) }
        users.send(nil)
        states.send(.signedOut(reason: reason))
        events.send(.signedOut(role: role, reason: reason))
    }

    /// A staff refresh, with what its answer said of the shop's policy.
    func refreshed(_ status: EnrolmentStatus) {
        enrolment.send(status)
        events.send(.tokenRefreshed)
    }

    func quarantined(_ status: APIError.QuarantineStatus) {
        events.send(.quarantined(status))
    }
}
