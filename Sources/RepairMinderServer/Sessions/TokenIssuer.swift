import Foundation
import RepairMinderModels

/// Mints staff access tokens and starts sessions, under the user's shop's security policy
/// (docs/API.md §13): every issuance says how the session signed in (`amr`) and, when the shop
/// requires a factor the user has not enrolled, by when (`enrolmentRequired`), restricting the
/// session to enrolment after that (`scope: "enrol"`).
struct TokenIssuer: Sendable {
    let signer: TokenSigner
    let accounts: AccountStore
    let sessions: SessionStore
    let revocation: SessionRevocation
    let settings: ServerSettings
    let clock: ServerClock
    let metrics: ServerMetrics?
    let policies: SecurityPolicyStore

    /// An access token, and what the token response adds, for one issuance.
    struct Issued: Sendable {
        let token: String
        let standing: FactorStanding
    }

    /// A signed access token for `user` in `sessionId`, whose sign-in's methods are `amr`, as
    /// `policy` has it at `now`.
    func accessToken(
        for user: UserRecord, sessionId: String, isMobile: Bool, amr: [String]?, policy: ShopPolicy, now: Double
    ) async throws -> Issued {
        let standing = try await standing(of: user, under: policy, now: now)
        let issuedAt = Int(now)
        let role = user.userRole
        let claims = AccessTokenClaims(
            userId: user.id, companyId: user.companyId, role: role, phiAccessLevel: user.phiAccessLevel,
            isMobile: isMobile, dataClassification: user.dataClassification,
            // A restricted session's tokens grant nothing to a service that checks permissions
            // and not `scope` (one that predates it): it fails closed.
            // (`companies:manage` only in the platform's own company, as the routes check it.)
            permissions: standing.isRestricted ? [] : role.permissions(inCompany: user.companyId).map(\.rawValue), sessionId: sessionId,
            issuedAt: issuedAt, expiresAt: issuedAt + settings.accessTokenTTL, amr: amr, scope: standing.scope)
        return Issued(token: try await signer.sign(claims), standing: standing)
    }

    /// Where `user` stands against `policy`: their factors are read only when the shop requires one.
    func standing(of user: UserRecord, under policy: ShopPolicy, now: Double) async throws -> FactorStanding {
        guard policy.requiredFactor != .notRequired else { return .satisfied }
        return policy.standing(of: user, factors: try await accounts.enrolledFactors(userId: user.id), now: now)
    }

    /// Starts a session for a user who just proved who they are with `factors`, and answers the
    /// token response.
    func signIn(userId: String, device: ClientDevice, method: ServerMetrics.SignInMethod, factors: [SignInFactor]) async throws
        -> StaffTokenResponse
    {
        let isMobile = device.isMobile
        let now = clock.now()
        guard let (user, company) = try await accounts.userWithCompany(id: userId) else {
            throw APIError.invalidCredentials
        }
        try user.checkCanSignIn()
        let policy = try await policies.current(companyId: company.id)
        let amr = AuthenticationMethods.amr(factors)
        let refreshToken = RandomToken.base64URL(byteCount: 32)
        let sessionId = try await sessions.create(
            userId: user.id, device: device, refreshToken: refreshToken, now: now,
            refreshTTL: min(
                UserRecord.firstRefreshLifetime(isMobile: isMobile, settings: settings),
                policy.sessionMaxLifetime(isMobile: isMobile, settings: settings)),
            amr: amr)
        try await accounts.recordLogin(userId: user.id, at: now, revocation: revocation)
        metrics?.signedIn(method)
        var signedIn = user
        signedIn.lastLogin = now
        let issued = try await accessToken(for: user, sessionId: sessionId, isMobile: isMobile, amr: amr, policy: policy, now: now)
        return StaffTokenResponse(
            token: issued.token, refreshToken: refreshToken, expiresIn: settings.accessTokenTTL,
            user: signedIn.wire(companyStatus: company.companyStatus), company: company.wire(serverURL: settings.serverURL),
            enrolmentRequired: issued.standing.requirement, scope: issued.standing.scope)
    }
}
