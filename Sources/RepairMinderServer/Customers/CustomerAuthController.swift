import Foundation
import Hummingbird
import RepairMinderModels

/// Customer sign-in without passwords: `/api/customer/auth/*` of API.md §3.
struct CustomerAuthController {
    let services: AuthServices

    private var settings: ServerSettings { services.settings }
    private var customers: CustomerStore { CustomerStore(database: services.database) }
    private static let purpose = "customer"

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.post("request-magic-link", use: requestMagicLink)
        group.post("verify-code", use: verifyCode)
        group.group()
            .add(middleware: CustomerAuthenticator(services: services))
            .get("me", use: me)
            .post("logout", use: logout)
    }

    @Sendable func requestMagicLink(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await JSONBody(request: request, limit: settings.maxBodySize)
        let email = try body.email()
        let companyId = try body.optionalIdentifier("companyId")
        // Counted for every address, known or not, so the answer never tells them apart.
        try await services.limits.admitCodeEmail(to: email)
        let memberships = try await customers.memberships(email: email, companyId: companyId)
        if !memberships.isEmpty {
            let now = services.clock.now()
            let code = RandomToken.digits(6)
            try await services.magicCodes.issue(
                purpose: Self.purpose, email: email, companyId: companyId,
                codeHash: services.hashing.codeHash(code, scope: Self.purpose), now: now, ttl: Double(settings.codeTTL))
            try await services.mailer.send(
                CodeEmail.customerLogin(
                    to: email, code: code, companies: memberships.map(\.1.name), validMinutes: settings.codeTTL / 60, now: now))
        }
        return .envelope(MessageResponse(message: "If an account exists, a login code has been sent"))
    }

    @Sendable func verifyCode(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await JSONBody(request: request, limit: settings.maxBodySize)
        let email = try body.email()
        let code = try body.numericCode()
        let chosenCompany = try body.optionalIdentifier("companyId")
        let now = services.clock.now()
        guard let live = try await services.magicCodes.live(purpose: Self.purpose, email: email, now: now) else {
            throw APIError.invalidOrExpiredCode
        }
        let submitted = services.hashing.codeHash(code, scope: Self.purpose)
        let memberships = try await customers.memberships(email: email, companyId: live.companyId)
        let chosen = chosenCompany.flatMap { id in memberships.first { $0.1.id == id } }
        // A wrong code and a company the email is not a client of are the same failure.
        guard SecretHashing.constantTimeEquals(live.codeHash, submitted), chosenCompany == nil || chosen != nil,
            !memberships.isEmpty
        else {
            try await services.magicCodes.recordFailure(id: live.id, maxAttempts: settings.maxCodeAttempts, now: now)
            throw APIError.invalidOrExpiredCode
        }
        guard let (client, company) = chosen ?? (memberships.count == 1 ? memberships[0] : nil) else {
            // Several companies and none chosen: the code stays valid for the next call.
            return .envelope(
                CompanySelectionResponse(
                    companies: memberships.map { $0.1.customerWire(serverURL: settings.serverURL) }, email: email, code: code))
        }
        guard try await services.magicCodes.consume(id: live.id, codeHash: submitted, now: now) else {
            throw APIError.invalidOrExpiredCode
        }
        let isMobile = ClientKind.isMobile(request)
        let ttl = Double(isMobile ? settings.customerSessionTTLMobile : settings.customerSessionTTLWeb)
        let session = try await customers.createSession(
            clientId: client.id, companyId: company.id, isMobile: isMobile, now: now, ttl: ttl)
        let claims = CustomerTokenClaims(
            clientId: client.id, companyId: company.id, email: client.email, sessionId: session.id,
            issuedAt: Int(now), expiresAt: Int(session.expiresAt))
        return .envelope(
            CustomerTokenResponse(
                token: try services.signer.sign(claims), client: client.wire,
                company: company.customerWire(serverURL: settings.serverURL)))
    }

    @Sendable func me(_ request: Request, context: AppRequestContext) async throws -> Response {
        let customer = try context.requireCustomer()
        return .envelope(
            CustomerMeResponse(client: customer.client.wire, company: customer.company.customerWire(serverURL: settings.serverURL)))
    }

    @Sendable func logout(_ request: Request, context: AppRequestContext) async throws -> Response {
        let customer = try context.requireCustomer()
        try await customers.revokeSession(id: customer.claims.sessionId, now: services.clock.now())
        return .bareSuccess
    }
}
