import Foundation
import Hummingbird
import RepairMinderModels

/// The caller of a customer endpoint.
struct AuthenticatedCustomer: Sendable {
    let claims: CustomerTokenClaims
    let client: ClientRecord
    let company: CompanyRecord
}

/// Who a customer token belongs to: a valid signature and a live customer session. A staff
/// token is refused like any other wrong token (401 `UNAUTHORIZED`).
struct CustomerIdentity: Sendable {
    let signer: JWTSigner
    let customers: CustomerStore
    let accounts: AccountStore
    let clock: ServerClock

    func resolve(_ token: String?) async throws -> AuthenticatedCustomer {
        guard let token else { throw APIError.unauthorized }
        let now = clock.now()
        let claims = try signer.verifyBearer(token, as: CustomerTokenClaims.self, now: now)
        guard let session = try await customers.session(id: claims.sessionId),
            session.revokedAt == nil, session.expiresAt > now, session.clientId == claims.clientId,
            let client = try await customers.client(id: claims.clientId),
            let company = try await accounts.company(id: client.companyId)
        else { throw APIError.unauthorized }
        return AuthenticatedCustomer(claims: claims, client: client, company: company)
    }
}
