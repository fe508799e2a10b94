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

    /// The platform's own company takes only `master_admin`s, whom no body can name: its
    /// administrators are invited by the operators (`repairminder admin create`).
    @Sendable func invite(_ call: RouteCall<InvitationRequest>) async throws -> Invitation {
        let staff = try call.staff
        if PlatformOwnCompany.contains(staff.company.id) { throw APIError.platformCompanyTakesOnlyPlatformAdmins }
        return try await store.invite(call.body, by: staff, serverURL: serverURL, device: call.device, now: clock.now())
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

    @Sendable func accept(_ call: RouteCall<AcceptInvitationRequest>) async throws -> StaffTokenResponse {
        let body = call.body
        let userId = try await join(
            token: body.token, password: body.password, firstName: body.firstName, lastName: body.lastName, device: call.device)
        return try await issuer.signIn(userId: userId, device: call.device, method: .invitation, factors: [.emailedCode])
    }

    /// Creates the member of the invitation of `token` (the app's accept, and the page's): the
    /// password (if any) is checked and hashed first, then the invitation is used up and the
    /// member created in one transaction. The new user's id. `offer` is the token's, when the
    /// caller read it already (the page shows it): the password rule needs its address.
    func join(
        token: String, password: String?, firstName: String?, lastName: String?, device: ClientDevice, offer: InvitationPreview? = nil
    ) async throws -> String {
        let hash: String?
        if let password {
            let email: String
            if let offer { email = offer.email } else { email = try await store.preview(token: token, serverURL: serverURL, now: clock.now()).email }
            try policy.check(password, email: email)
            hash = try await hasher.hash(password)
        } else {
            hash = nil
        }
        let now = clock.now()
        return try await database.transaction { db in
            try await InvitationStore.accept(
                token: token, passwordHash: hash, firstName: firstName, lastName: lastName, device: device, now: now, on: db)
        }
    }
}
