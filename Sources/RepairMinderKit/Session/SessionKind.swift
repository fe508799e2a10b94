import Foundation
import RepairMinderModels
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What sets one kind of refreshable session apart: where its tokens are kept, how its refresh
/// endpoint is asked and its answer read, and who hears that it was renewed or ended.
/// `RefreshingSession` does everything else the same way for every kind (`.staff(announcing:)`
/// for `APIClient`, `.reki` for `REKIClient`).
///
/// What is not here is the same for every kind, so it is not a choice: an access token is
/// refused with a 401 (`APIError.unauthorized`), and so is a refresh token, which ends the
/// session.
struct SessionKind: Sendable {
    /// The credential store item that holds the session.
    let key: CredentialKey
    /// The request that exchanges a refresh token.
    let refreshRequest: @Sendable (_ refreshToken: String) throws -> OutgoingRequest
    /// The new credentials in the refresh endpoint's answer, received at `receivedAt` (expiry
    /// is planned on the local clock), or the typed refusal it carries.
    let renewed: @Sendable (_ answer: (Data, HTTPURLResponse), _ receivedAt: Date) throws -> SessionCredentials
    /// Told after new credentials were saved, with them.
    let refreshed: @Sendable (SessionCredentials) -> Void
    /// Told after a refused refresh ended the session (the credentials are already deleted),
    /// with the code of the refusal.
    let ended: @Sendable (_ code: ErrorCode?) -> Void

    /// A kind whose refresh is `route`, sent with `{"refreshToken": ...}`.
    init<Answer>(
        key: CredentialKey, refresh route: Route<RefreshRequest, Answer>,
        renewed: @escaping @Sendable (_ answer: (Data, HTTPURLResponse), _ receivedAt: Date) throws -> SessionCredentials,
        refreshed: @escaping @Sendable (SessionCredentials) -> Void = { _ in },
        ended: @escaping @Sendable (_ code: ErrorCode?) -> Void = { _ in }
    ) {
        self.key = key
        refreshRequest = { token in
            try OutgoingRequest(route: route, path: [], query: [], body: try JSONEncoder().encode(RefreshRequest(refreshToken: token)))
        }
        self.renewed = renewed
        self.refreshed = refreshed
        self.ended = ended
    }
}
