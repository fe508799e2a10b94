import Foundation
import RepairMinderModels

/// A signed-in staff member's session: refresh, who am I, logout (docs/API.md §2.7–§2.9).
struct StaffSessionController {
    let settings: ServerSettings
    let clock: ServerClock
    let revocation: SessionRevocation
    let rotation: RefreshTokenRotation<UserRecord>
    let issuer: TokenIssuer
    let policies: SecurityPolicyStore

    func mount(on routes: RouteMounter) {
        routes.on(Routes.staffAuth.refresh, use: refresh)
        routes.on(Routes.staffAuth.me, use: me)
        routes.on(Routes.staffAuth.logout, use: logout)
    }

    @Sendable func refresh(_ call: RouteCall<RefreshRequest>) async throws -> RefreshResponse {
        let presented = call.body.refreshToken
        let now = clock.now()
        let rotated = try await rotation.rotate(presented, device: call.device, logger: call.context.logger, now: now)
        // The shop's policy as it is now (docs/API.md §13.3): a shortened lifetime ends an
        // older session here, a requirement restricts or frees it.
        let policy = try await policies.cached(companyId: rotated.user.companyId)
        if now >= rotated.sessionStart + policy.sessionMaxLifetime(isMobile: rotated.isMobile, settings: settings) {
            let (session, device) = (rotated.sessionId, call.device)
            _ = try await revocation.transaction {
                try await $0.revoke(session: session, reason: "policy_session_lifetime", device: device, now: now)
            }
            throw APIError.refreshTokenExpired
        }
        let issued = try await issuer.accessToken(
            for: rotated.user, sessionId: rotated.sessionId, isMobile: rotated.isMobile,
            amr: AuthenticationMethods.claim(stored: rotated.amr), policy: policy, now: now)
        return RefreshResponse(
            token: issued.token, refreshToken: rotated.refreshToken, expiresIn: settings.accessTokenTTL,
            enrolmentRequired: issued.standing.requirement, scope: issued.standing.scope)
    }

    @Sendable func me(_ call: RouteCall<EmptyPayload>) async throws -> StaffMeResponse {
        let staff = try call.staff
        return StaffMeResponse(
            user: staff.user.wire(companyStatus: staff.company.companyStatus),
            company: staff.company.wire(serverURL: settings.serverURL), hasPassword: staff.user.passwordHash != nil)
    }

    @Sendable func logout(_ call: RouteCall<EmptyPayload>) async throws -> EmptyPayload {
        let session = try call.staff.claims.sid, device = call.device, now = clock.now()
        // Whether the session was still live does not change the answer.
        _ = try await revocation.transaction { try await $0.revoke(session: session, reason: "logout", device: device, now: now) }
        return EmptyPayload()
    }
}
