import Foundation
import RepairMinderModels

/// Mints staff access tokens and starts sessions.
struct TokenIssuer: Sendable {
    let signer: TokenSigner
    let accounts: AccountStore
    let sessions: SessionStore
    let revocation: SessionRevocation
    let settings: ServerSettings
    let clock: ServerClock
    let metrics: ServerMetrics?

    /// A signed access token for `user` in `sessionId`.
    func accessToken(for user: UserRecord, sessionId: String, isMobile: Bool, now: Double) async throws -> String {
        let issuedAt = Int(now)
        let role = user.userRole
        let claims = AccessTokenClaims(
            userId: user.id, companyId: user.companyId, role: role, phiAccessLevel: user.phiAccessLevel,
            isMobile: isMobile, dataClassification: user.dataClassification,
            permissions: role.permissions.map(\.rawValue), sessionId: sessionId,
            issuedAt: issuedAt, expiresAt: issuedAt + settings.accessTokenTTL)
        return try await signer.sign(claims)
    }

    /// Starts a session for a user who just proved who they are, and answers the token response.
    func signIn(userId: String, device: ClientDevice, method: ServerMetrics.SignInMethod) async throws -> StaffTokenResponse {
        let isMobile = device.isMobile
        let now = clock.now()
        guard let (user, company) = try await accounts.userWithCompany(id: userId) else {
            throw APIError.invalidCredentials
        }
        try user.checkCanSignIn()
        let refreshToken = RandomToken.base64URL(byteCount: 32)
        let sessionId = try await sessions.create(
            userId: user.id, device: device, refreshToken: refreshToken, now: now,
            refreshTTL: UserRecord.firstRefreshLifetime(isMobile: isMobile, settings: settings))
        try await accounts.recordLogin(userId: user.id, at: now, revocation: revocation)
        metrics?.signedIn(method)
        var signedIn = user
        signedIn.lastLogin = now
        return StaffTokenResponse(
            token: try await accessToken(for: user, sessionId: sessionId, isMobile: isMobile, now: now),
            refreshToken: refreshToken, expiresIn: settings.accessTokenTTL,
            user: signedIn.wire(companyStatus: company.companyStatus), company: company.wire(serverURL: settings.serverURL))
    }
}
