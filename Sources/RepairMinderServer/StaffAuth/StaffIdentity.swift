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
    /// The shops' policies, read at most a couple of seconds ago (docs/API.md §13.3).
    let policies: SecurityPolicyStore

    func caller(for claims: AccessTokenClaims, now: Double) async throws -> AuthenticatedStaff? {
        let user: UserRecord, company: CompanyRecord, lastUsedAt: Double?
        let cached = cache.entry(sessionId: claims.sid, userId: claims.userId)
        if let cached {
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
        let policy = try await policies.cached(companyId: company.id)
        let restricted = try await isRestricted(claims, user, policy, knownFactors: cached?.factors, now: now)
        return AuthenticatedStaff(claims: claims, user: user, company: company, restricted: restricted)
    }

    /// Whether the caller may use only enrolment's routes (docs/API.md §13.3): a restricted
    /// token, or the shop's policy as cached (at most 2 s old: a tightening reaches tokens issued
    /// before it) past the user's deadline without the required factor. The factors are read
    /// only then, and kept with the cached session once they meet the policy: factors that do
    /// not are read again at the next request, so the user's enrolment counts at once (a full
    /// token right after it is not refused for the cache's lifetime).
    private func isRestricted(
        _ claims: AccessTokenClaims, _ user: UserRecord, _ policy: ShopPolicy, knownFactors: EnrolledFactors?, now: Double
    ) async throws -> Bool {
        if claims.isEnrolmentOnly { return true }
        // The earliest deadline the user can have first: most requests need no factor read.
        guard let earliest = policy.enrolmentDeadline(for: user, factors: nil), now >= earliest else { return false }
        let factors: EnrolledFactors
        if let knownFactors {
            factors = knownFactors
        } else {
            factors = try await accounts.enrolledFactors(userId: user.id)
            if policy.isMet(by: factors) { cache.remember(factors: factors, sessionId: claims.sid) }
        }
        return policy.standing(of: user, factors: factors, now: now).isRestricted
    }
}

/// The caller of a staff endpoint, as established by `StaffIdentity`.
struct AuthenticatedStaff: Sendable {
    let claims: AccessTokenClaims
    let user: UserRecord
    let company: CompanyRecord
    /// The session may use only enrolment's routes (docs/API.md §13.3).
    var restricted = false
}
