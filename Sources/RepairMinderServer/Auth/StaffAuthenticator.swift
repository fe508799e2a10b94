import Foundation
import Hummingbird
import RepairMinderModels

/// The caller of a staff endpoint, as established by `StaffAuthenticator`.
struct AuthenticatedStaff: Sendable {
    let claims: AccessTokenClaims
    let user: UserRecord
    let company: CompanyRecord
}

/// Requires a valid staff access token on the routes it wraps: signature, expiry, and a live
/// session checked in the database on every request (so logout and deactivation take effect
/// at once, on every instance).
struct StaffAuthenticator: RouterMiddleware {
    typealias Context = AppRequestContext
    let services: AuthServices

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let token = BearerToken.from(request) else { throw APIError.unauthorized }
        let now = services.clock.now()
        let claims: AccessTokenClaims
        do {
            claims = try services.signer.verify(token, as: AccessTokenClaims.self, now: Date(timeIntervalSince1970: now))
        } catch JWTSigner.VerificationError.expired {
            throw APIError.tokenExpired
        } catch {
            throw APIError.unauthorized
        }
        guard let session = try await services.sessions.session(id: claims.sid),
            session.revokedAt == nil, session.userId == claims.userId,
            let (user, company) = try await services.accounts.userWithCompany(id: claims.userId),
            user.canSignIn
        else { throw APIError.unauthorized }
        var context = context
        context.staff = AuthenticatedStaff(claims: claims, user: user, company: company)
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
