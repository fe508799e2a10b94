import Foundation
import RepairMinderModels

/// The caller of a REKI endpoint.
struct AuthenticatedREKIUser: Sendable {
    let claims: REKITokenClaims
    let user: REKIUserRecord
}

/// Who a REKI bearer token belongs to: REKI's own signing key, a live session and an active
/// user, checked on every request (so logout takes effect at once, on every instance). Repair
/// Minder's tokens are signed with other keys, so they never pass, nor do REKI's elsewhere.
struct REKIIdentity: Sendable {
    let signer: JWTSigner
    let sessions: SessionStore
    let users: REKIUserStore
    let clock: ServerClock

    /// The REKI user behind `token`; 401 otherwise (REKI answers every case "Unauthorized").
    func resolve(_ token: String?) async throws -> AuthenticatedREKIUser {
        guard let token else { throw APIError.unauthorized }
        let now = clock.now()
        let claims = try signer.verifyBearer(token, as: REKITokenClaims.self, now: now)
        // One round trip, as for staff: the live session and its user.
        guard let caller = try await users.caller(sessionId: claims.sid, userId: claims.sub), caller.user.canSignIn
        else { throw APIError.unauthorized }
        try await sessions.touch(id: claims.sid, lastUsedAt: caller.lastUsedAt, now: now)
        return AuthenticatedREKIUser(claims: claims, user: caller.user)
    }
}

extension REKITokenClaims: ExpiringClaims {
    var isWellFormed: Bool { !sub.isEmpty && !sid.isEmpty }
}
