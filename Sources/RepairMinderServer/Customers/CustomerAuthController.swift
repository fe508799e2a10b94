import Foundation
import RepairMinderModels

/// Customer sign-in without passwords: `/api/customer/auth/*` of docs/API.md §3.
struct CustomerAuthController {
    let settings: ServerSettings
    let clock: ServerClock
    let customers: CustomerStore
    let codes: EmailedCodes
    let signer: TokenSigner
    let metrics: ServerMetrics?

    func mount(on routes: RouteMounter) {
        routes.on(Routes.customerAuth.requestMagicLink, use: requestMagicLink)
        routes.on(Routes.customerAuth.verifyCode, use: verifyCode)
        routes.on(Routes.customerAuth.me, use: me)
        routes.on(Routes.customerAuth.logout, use: logout)
    }

    @Sendable func requestMagicLink(_ call: RouteCall<CustomerMagicLinkRequest>) async throws -> MessageResponse {
        let (email, companyId) = (call.body.email, call.body.companyId)
        let customers = self.customers
        try await codes.send(.customerSignIn, to: email, companyId: companyId) { code, minutes, now in
            let memberships = try await customers.memberships(email: email, companyId: companyId)
            guard !memberships.isEmpty else { return nil }
            return CodeEmail.customerLogin(
                to: email, code: code, companies: memberships.map(\.1.name), validMinutes: minutes, now: now)
        }
        return MessageResponse(message: "If an account exists, a login code has been sent")
    }

    @Sendable func verifyCode(_ call: RouteCall<CustomerVerifyCodeRequest>) async throws -> CustomerVerifyCodeResponse {
        let (email, chosenCompany) = (call.body.email, call.body.companyId)
        var memberships: [(ClientRecord, CompanyRecord)] = []
        // A wrong code and a company the email is not a client of are the same failure.
        let matched = try await codes.match(.customerSignIn, email: email, code: call.body.code) { matched in
            memberships = try await customers.memberships(email: email, companyId: matched.companyId)
            return !memberships.isEmpty && (chosenCompany == nil || memberships.contains { $0.1.id == chosenCompany })
        }
        let chosen = chosenCompany.flatMap { id in memberships.first { $0.1.id == id } }
        guard let (client, company) = chosen ?? (memberships.count == 1 ? memberships[0] : nil) else {
            // Several companies and none chosen: the code stays valid for the next call.
            return .selectCompany(
                CompanySelectionResponse(
                    companies: memberships.map { $0.1.customerWire(serverURL: settings.serverURL) }, email: email,
                    code: call.body.code))
        }
        try await codes.consume(matched)
        let now = clock.now()
        let ttl = Double(call.isMobile ? settings.customerSessionTTLMobile : settings.customerSessionTTLWeb)
        let session = try await customers.createSession(
            clientId: client.id, companyId: company.id, device: call.device, now: now, ttl: ttl)
        metrics?.signedIn(.customerCode)
        let claims = CustomerTokenClaims(
            clientId: client.id, companyId: company.id, email: client.email, sessionId: session.id,
            issuedAt: Int(now), expiresAt: Int(session.expiresAt))
        return .signedIn(
            CustomerTokenResponse(
                token: try await signer.sign(claims), client: client.wire, company: company.customerWire(serverURL: settings.serverURL)))
    }

    @Sendable func me(_ call: RouteCall<EmptyPayload>) async throws -> CustomerMeResponse {
        let customer = try call.customer
        return CustomerMeResponse(
            client: customer.client.wire, company: customer.company.customerWire(serverURL: settings.serverURL))
    }

    @Sendable func logout(_ call: RouteCall<EmptyPayload>) async throws -> EmptyPayload {
        try await customers.revokeSession(id: try call.customer.claims.sessionId, now: clock.now())
        return EmptyPayload()
    }
}
