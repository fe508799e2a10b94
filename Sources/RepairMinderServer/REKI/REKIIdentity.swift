import Foundation
import RepairMinderModels

/// A REKI token's caller: a live session and an active user, read on every request (so logout
/// takes effect at once, on every instance). Repair Minder's tokens are signed with other keys,
/// so they never pass, nor do REKI's elsewhere.
struct REKICallers: CallerLookup {
    let sessions: SessionStore
    let users: REKIUserStore

    func caller(for claims: REKITokenClaims, now: Double) async throws -> AuthenticatedREKIUser? {
        // One round trip, as for staff: the live session and its user.
        guard let caller = try await users.caller(sessionId: claims.sid, userId: claims.sub), caller.user.canSignIn
        else { return nil }
        try await sessions.touch(id: claims.sid, lastUsedAt: caller.lastUsedAt, now: now)
        return AuthenticatedREKIUser(claims: claims, user: caller.user)
    }
}

/// The caller of a REKI endpoint.
struct AuthenticatedREKIUser: Sendable {
    let claims: REKITokenClaims
    let user: REKIUserRecord
}
