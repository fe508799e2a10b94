import Foundation
import RepairMinderModels

/// A staff token's caller: a live session, an active user whose role is still the token's, and
/// their company. The company is
/// read on every request (a status change takes effect on the next one); the session and user
/// come from `StaffCallerCache` when read less than two seconds ago (a logout or deactivation
/// elsewhere is seen within that; here, at once: `SessionRevocation`).
struct StaffCallers: CallerLookup {
    let sessions: SessionStore
    let accounts: AccountStore
    let cache: StaffCallerCache

    func caller(for claims: AccessTokenClaims, now: Double) async throws -> AuthenticatedStaff? {
        let user: UserRecord, company: CompanyRecord, lastUsedAt: Double?
        if let cached = cache.entry(sessionId: claims.sid, userId: claims.userId) {
            guard let found = try await accounts.company(id: cached.user.companyId) else { return nil }
            (user, company, lastUsedAt) = (cached.user, found, cached.lastUsedAt)
        } else {
            let generation = cache.currentGeneration, readAt = cache.now()
            // One round trip: the live session, its user and their company.
            guard let caller = try await accounts.caller(sessionId: claims.sid, userId: claims.userId), caller.user.canSignIn
            else { return nil }
            (user, company, lastUsedAt) = (caller.user, caller.company, caller.lastUsedAt)
            cache.remember(sessionId: claims.sid, user: user, lastUsedAt: lastUsedAt, readAt: readAt, generation: generation)
        }
        // A token minted before a role change says what the user no longer is: refused like an
        // expired one, so the app refreshes and gets the new role (docs/API.md §12).
        guard user.role == claims.role.rawValue else { throw APIError.tokenExpired }
        if try await sessions.touch(id: claims.sid, lastUsedAt: lastUsedAt, now: now) {
            cache.touched(sessionId: claims.sid, at: now)
        }
        return AuthenticatedStaff(claims: claims, user: user, company: company)
    }
}

/// The caller of a staff endpoint, as established by `StaffIdentity`.
struct AuthenticatedStaff: Sendable {
    let claims: AccessTokenClaims
    let user: UserRecord
    let company: CompanyRecord
}
