import Foundation
import RepairMinderModels

/// A signed-in staff member's session: refresh, who am I, logout (docs/API.md §2.7–§2.9).
struct StaffSessionController {
    let settings: ServerSettings
    let clock: ServerClock
    let revocation: SessionRevocation
    let rotation: RefreshTokenRotation<UserRecord>
    let issuer: TokenIssuer

    func mount(on routes: RouteMounter) {
        routes.on(Routes.staffAuth.refresh, use: refresh)
        routes.on(Routes.staffAuth.me, use: me)
        routes.on(Routes.staffAuth.logout, use: logout)
    }

    @Sendable func refresh(_ call: RouteCall<RefreshRequest>) async throws -> RefreshResponse {
        let presented = call.body.refreshToken
        let now = clock.now()
        let rotated = try await rotation.rotate(presented, device: call.device, now: now)
        let token = try await issuer.accessToken(for: rotated.user, sessionId: rotated.sessionId, isMobile: rotated.isMobile, now: now)
        return RefreshResponse(token: token, refreshToken: rotated.refreshToken, expiresIn: settings.accessTokenTTL)
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
