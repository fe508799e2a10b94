import Foundation
import RepairMinderModels

/// A customer token's caller: a live customer session of the token's client, and the client's company.
struct CustomerCallers: CallerLookup {
    let customers: CustomerStore
    let accounts: AccountStore

    func caller(for claims: CustomerTokenClaims, now: Double) async throws -> AuthenticatedCustomer? {
        guard let session = try await customers.session(id: claims.sessionId),
            session.revokedAt == nil, session.expiresAt > now, session.clientId == claims.clientId,
            let client = try await customers.client(id: claims.clientId), client.mayUsePortal,
            let company = try await accounts.company(id: client.companyId)
        else { return nil }
        return AuthenticatedCustomer(claims: claims, client: client, company: company)
    }
}

/// The caller of a customer endpoint.
struct AuthenticatedCustomer: Sendable {
    let claims: CustomerTokenClaims
    let client: ClientRecord
    let company: CompanyRecord
}
