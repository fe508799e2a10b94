import Foundation
import RepairMinderModels

/// The caller's signed-in devices: list them, sign one out, sign out all the others
/// (docs/API.md §9.4). Revoking works as logout does (§2.9): refresh and access tokens stop.
struct SessionListController {
    let clock: ServerClock
    let sessions: SessionStore
    let revocation: SessionRevocation

    func mount(on routes: RouteMounter) {
        routes.on(Routes.accountLifecycle.sessions, use: list)
        routes.on(Routes.accountLifecycle.revokeSession, use: revoke)
        routes.on(Routes.accountLifecycle.logoutOthers, use: logoutOthers)
    }

    @Sendable func list(_ call: RouteCall<EmptyPayload>) async throws -> [SessionInfo] {
        let staff = try call.staff
        return try await sessions.liveInfo(userId: staff.user.id, callerSession: staff.claims.sid, now: clock.now())
    }

    /// Another user's session, or an unknown or already-ended one, is 404: ids are not probed.
    @Sendable func revoke(_ call: RouteCall<EmptyPayload>) async throws -> EmptyPayload {
        let userId = try call.staff.user.id, session = try call.parameter("id"), device = call.device, now = clock.now()
        let revoked = try await revocation.transaction {
            try await $0.revoke(session: session, ofUser: userId, reason: "revoked_by_user", device: device, now: now)
        }
        guard revoked else { throw APIError.notFound }
        return EmptyPayload()
    }

    @Sendable func logoutOthers(_ call: RouteCall<EmptyPayload>) async throws -> RevokedSessionsResponse {
        let staff = try call.staff
        let now = clock.now(), device = call.device
        let revoked = try await revocation.transaction {
            try await $0.revokeAll(
                ofUser: staff.user.id, keeping: staff.claims.sid, reason: "signed_out_elsewhere", device: device, now: now)
        }
        return RevokedSessionsResponse(revoked: revoked)
    }
}
