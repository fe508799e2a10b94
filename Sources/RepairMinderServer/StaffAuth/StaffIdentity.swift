import Foundation
import Hummingbird
import RepairMinderModels

/// The caller of a staff endpoint, as established by `StaffIdentity`.
struct AuthenticatedStaff: Sendable {
    let claims: AccessTokenClaims
    let user: UserRecord
    let company: CompanyRecord
}

/// Who a staff bearer token belongs to: signature, expiry, and a live session and active user
/// checked in the database on every request, in one query (so logout, deactivation and a
/// company's status change take effect at the next request, on every instance; no cache).
struct StaffIdentity: Sendable {
    let signer: JWTSigner
    let sessions: SessionStore
    let accounts: AccountStore
    let clock: ServerClock

    /// The staff member behind `token`; 401 `TOKEN_EXPIRED` or `UNAUTHORIZED` otherwise.
    func resolve(_ token: String?) async throws -> AuthenticatedStaff {
        guard let token else { throw APIError.unauthorized }
        let now = clock.now()
        let claims = try signer.verifyBearer(token, as: AccessTokenClaims.self, now: now)
        // One round trip: the live session, its user and their company.
        guard let caller = try await accounts.caller(sessionId: claims.sid, userId: claims.userId), caller.user.canSignIn
        else { throw APIError.unauthorized }
        try await sessions.touch(id: claims.sid, lastUsedAt: caller.lastUsedAt, now: now)
        let (user, company) = (caller.user, caller.company)
        return AuthenticatedStaff(claims: claims, user: user, company: company)
    }
}

/// The token of an `Authorization: Bearer <token>` header.
enum BearerToken {
    static func from(_ request: Request) -> String? {
        guard let header = request.headers[.authorization] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty || token.utf8.count > 4096 ? nil : token
    }
}
