import Foundation
import Hummingbird
import RepairMinderModels

/// The caller of a staff endpoint, as established by `StaffIdentity`.
struct AuthenticatedStaff: Sendable {
    let claims: AccessTokenClaims
    let user: UserRecord
    let company: CompanyRecord
}

/// Who a staff bearer token belongs to: signature, expiry, a live session and an active user,
/// and their company. The company is read on every request (a status change takes effect on
/// the next one); the session and user come from `StaffCallerCache` when read less than two
/// seconds ago (a logout or deactivation elsewhere is seen within that; here, at once).
struct StaffIdentity: Sendable {
    let signer: JWTSigner
    let sessions: SessionStore
    let accounts: AccountStore
    let clock: ServerClock
    let cache: StaffCallerCache

    /// The staff member behind `token`; 401 `TOKEN_EXPIRED` or `UNAUTHORIZED` otherwise.
    func resolve(_ token: String?) async throws -> AuthenticatedStaff {
        guard let token else { throw APIError.unauthorized }
        let now = clock.now()
        let claims = try signer.verifyBearer(token, as: AccessTokenClaims.self, now: now)
        let user: UserRecord, company: CompanyRecord, lastUsedAt: Double?
        if let cached = cache.entry(sessionId: claims.sid, userId: claims.userId) {
            guard let found = try await accounts.company(id: cached.user.companyId) else { throw APIError.unauthorized }
            (user, company, lastUsedAt) = (cached.user, found, cached.lastUsedAt)
        } else {
            let generation = cache.currentGeneration, readAt = ContinuousClock.now
            // One round trip: the live session, its user and their company.
            guard let caller = try await accounts.caller(sessionId: claims.sid, userId: claims.userId), caller.user.canSignIn
            else { throw APIError.unauthorized }
            (user, company, lastUsedAt) = (caller.user, caller.company, caller.lastUsedAt)
            cache.remember(sessionId: claims.sid, user: user, lastUsedAt: lastUsedAt, readAt: readAt, generation: generation)
        }
        if try await sessions.touch(id: claims.sid, lastUsedAt: lastUsedAt, now: now) {
            cache.touched(sessionId: claims.sid, at: now)
        }
        return AuthenticatedStaff(claims: claims, user: user, company: company)
    }
}

/// The token of an `Authorization: Bearer <token>` header (the scheme in any case).
enum BearerToken {
    /// Read on every authenticated request, so by bytes: splitting, lower-casing and trimming
    /// with Foundation took 6% of a `/me` request.
    static func from(_ request: Request) -> String? {
        from(header: request.headers[.authorization])
    }

    /// The token of an `Authorization` header's value.
    static func from(header: String?) -> String? {
        guard let header else { return nil }
        let scheme = "bearer ".utf8
        guard header.utf8.count > scheme.count,
            // The letters in any case (setting bit 5 lower-cases them), then exactly a space.
            zip(header.utf8, scheme).allSatisfy({ $0 == $1 || ($1 != UInt8(ascii: " ") && $0 | 0x20 == $1) })
        else { return nil }
        var token = Substring(header).dropFirst(scheme.count)
        while let first = token.first, first == " " || first == "\t" { token = token.dropFirst() }
        while let last = token.last, last == " " || last == "\t" { token = token.dropLast() }
        return token.isEmpty || token.utf8.count > 4096 ? nil : String(token)
    }
}
