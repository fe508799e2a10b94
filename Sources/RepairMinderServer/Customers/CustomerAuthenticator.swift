import Foundation
import Hummingbird
import RepairMinderModels

/// The caller of a customer endpoint.
struct AuthenticatedCustomer: Sendable {
    let claims: CustomerTokenClaims
    let client: ClientRecord
    let company: CompanyRecord
}

/// Requires a valid customer token backed by a live customer session on the routes it wraps.
/// A staff token is refused like any other wrong token (401 `UNAUTHORIZED`).
struct CustomerAuthenticator: RouterMiddleware {
    typealias Context = AppRequestContext
    let services: AuthServices

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let token = BearerToken.from(request) else { throw APIError.unauthorized }
        let now = services.clock.now()
        let claims = try services.signer.verifyBearer(token, as: CustomerTokenClaims.self, now: now)
        let customers = CustomerStore(database: services.database)
        guard let session = try await customers.session(id: claims.sessionId),
            session.revokedAt == nil, session.expiresAt > now, session.clientId == claims.clientId,
            let client = try await customers.client(id: claims.clientId),
            let company = try await services.accounts.company(id: client.companyId)
        else { throw APIError.unauthorized }
        var context = context
        context.customer = AuthenticatedCustomer(claims: claims, client: client, company: company)
        return try await next(request, context)
    }
}

extension AppRequestContext {
    /// The authenticated customer; only call behind `CustomerAuthenticator`.
    func requireCustomer() throws -> AuthenticatedCustomer {
        guard let customer else { throw APIError.unauthorized }
        return customer
    }
}
