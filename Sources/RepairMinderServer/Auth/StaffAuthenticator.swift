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
/// checked in the database on every request (so logout and deactivation take effect at once,
/// on every instance).
struct StaffIdentity: Sendable {
    let services: AuthServices

    /// The staff member behind `token`; 401 `TOKEN_EXPIRED` or `UNAUTHORIZED` otherwise.
    func resolve(_ token: String) async throws -> AuthenticatedStaff {
        let claims = try services.signer.verifyBearer(token, as: AccessTokenClaims.self, now: services.clock.now())
        guard let session = try await services.sessions.session(id: claims.sid),
            session.revokedAt == nil, session.userId == claims.userId,
            let (user, company) = try await services.accounts.userWithCompany(id: claims.userId),
            user.canSignIn
        else { throw APIError.unauthorized }
        return AuthenticatedStaff(claims: claims, user: user, company: company)
    }
}

/// Requires a valid staff access token on the routes it wraps.
struct StaffAuthenticator: RouterMiddleware {
    typealias Context = AppRequestContext
    let services: AuthServices

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // The quarantine check may already have resolved the caller for this request.
        if context.staff != nil { return try await next(request, context) }
        guard let token = BearerToken.from(request) else { throw APIError.unauthorized }
        var context = context
        context.staff = try await StaffIdentity(services: services).resolve(token)
        return try await next(request, context)
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

extension AppRequestContext {
    /// The authenticated staff member; only call behind `StaffAuthenticator`.
    func requireStaff() throws -> AuthenticatedStaff {
        guard let staff else { throw APIError.unauthorized }
        return staff
    }
}
