import Foundation
import RepairMinderModels

/// Invitations (docs/API.md §12.3, §12.4): an admin invites, lists, resends and revokes; the
/// invitee looks at the link's offer and accepts it, which creates their account and signs
/// them in.
struct InvitationController {
    let database: Database
    let store: InvitationStore
    let hasher: PasswordHasher
    let policy: PasswordPolicy
    let issuer: TokenIssuer
    let serverURL: String
    let clock: ServerClock

    func mount(on routes: RouteMounter) {
        routes.on(Routes.team.invitations, use: pending)
        routes.on(Routes.team.invite, use: invite)
        routes.on(Routes.team.resendInvitation, use: resend)
        routes.on(Routes.team.revokeInvitation, use: revoke)
        routes.on(Routes.team.invitation, use: preview)
        routes.on(Routes.team.acceptInvitation, use: accept)
    }

    @Sendable func pending(_ call: RouteCall<EmptyPayload>) async throws -> [Invitation] {
        try await store.pending(companyId: try call.staff.company.id, now: clock.now())
    }

    @Sendable func invite(_ call: RouteCall<InvitationRequest>) async throws -> Invitation {
        try await store.invite(call.body, by: try call.staff, serverURL: serverURL, device: call.device, now: clock.now())
    }

    @Sendable func resend(_ call: RouteCall<EmptyPayload>) async throws -> Invitation {
        try await store.resend(id: try call.parameter("id"), by: try call.staff, serverURL: serverURL, device: call.device, now: clock.now())
    }

    @Sendable func revoke(_ call: RouteCall<EmptyPayload>) async throws -> EmptyPayload {
        try await store.revoke(id: try call.parameter("id"), by: try call.staff, device: call.device, now: clock.now())
        return EmptyPayload()
    }

    @Sendable func preview(_ call: RouteCall<EmptyPayload>) async throws -> InvitationPreview {
        try await store.preview(token: try call.parameter("token"), serverURL: serverURL, now: clock.now())
    }

    /// The password (if any) is checked and hashed before the transaction; the invitation is
    /// used up and the member created inside it, then they are signed in.
    @Sendable func accept(_ call: RouteCall<AcceptInvitationRequest>) async throws -> StaffTokenResponse {
        let body = call.body, device = call.device
        let hash: String?
        if let password = body.password {
            let preview = try await store.preview(token: body.token, serverURL: serverURL, now: clock.now())
            try policy.check(password, email: preview.email)
            hash = try await hasher.hash(password)
        } else {
            hash = nil
        }
        let now = clock.now()
        let userId = try await database.transaction { db in
            try await InvitationStore.accept(
                token: body.token, passwordHash: hash, firstName: body.firstName, lastName: body.lastName, device: device, now: now,
                on: db)
        }
        return try await issuer.signIn(userId: userId, device: device, method: .invitation)
    }
}
