/// A shop's own team: members, invitations, roles, leavers and recovery (docs/API.md §12).
/// Every route but the invitee's two needs `users:manage` and reaches only the caller's shop:
/// another shop's member or invitation is 404.
extension Routes {
    public struct Team: RouteFeature {
        public static let name = "Team"
        public let members = Route<EmptyPayload, [TeamMember]>(
            .get, "/api/users", .staff, "The shop's members, newest first", permission: .usersManage,
            format: .paginatedEnvelope, query: [.page, .limit, .memberStatus, .q])
        public let member = Route<EmptyPayload, TeamMember>(
            .get, "/api/users/{id}", .staff, "One member of the shop", permission: .usersManage,
            failures: [.notFound])
        public let update = Route<MemberUpdate, TeamMember>(
            .patch, "/api/users/{id}", .staff, "Change a member's role, names or magic-link sign-in", permission: .usersManage,
            failures: [.notFound, .cannotChangeSelf, .lastAdmin])
        public let deactivate = Route<EmptyPayload, TeamMember>(
            .post, "/api/users/{id}/deactivate", .staff, "Switch a member off: every session ends at once",
            permission: .usersManage, failures: [.notFound, .cannotChangeSelf, .lastAdmin])
        public let reactivate = Route<EmptyPayload, TeamMember>(
            .post, "/api/users/{id}/reactivate", .staff, "Let a deactivated member sign in again", permission: .usersManage,
            failures: [.notFound, .cannotChangeSelf])
        public let archive = Route<EmptyPayload, TeamMember>(
            .post, "/api/users/{id}/archive", .staff, "Archive a member for good (the address stays taken)",
            permission: .usersManage, failures: [.notFound, .cannotChangeSelf, .lastAdmin])
        public let sessions = Route<EmptyPayload, [SessionInfo]>(
            .get, "/api/users/{id}/sessions", .staff, "A member's live sessions, newest first", permission: .usersManage,
            failures: [.notFound])
        public let signOut = Route<EmptyPayload, RevokedSessionsResponse>(
            .post, "/api/users/{id}/sign-out", .staff, "End every session of a member", permission: .usersManage,
            failures: [.notFound])
        public let resetFactors = Route<EmptyPayload, TeamMember>(
            .post, "/api/users/{id}/reset-factors", .staff,
            "Remove a member's authenticator app, recovery codes and passkeys, and end their sessions",
            permission: .usersManage, failures: [.notFound, .cannotChangeSelf])
        public let activity = Route<EmptyPayload, [ActivityEvent]>(
            .get, "/api/users/{id}/activity", .staff, "A member's security events, newest first", permission: .usersManage,
            format: .paginatedEnvelope, query: [.page, .limit], failures: [.notFound])
        public let invitations = Route<EmptyPayload, [Invitation]>(
            .get, "/api/users/invitations", .staff, "The shop's pending invitations, newest first", permission: .usersManage)
        public let invite = Route<InvitationRequest, Invitation>(
            .post, "/api/users/invitations", .staff,
            "Invite someone to the team (the same answer whether or not the address has an account)",
            permission: .usersManage, budgets: [.invitations], successStatus: 201, failures: [.invitationPending])
        public let resendInvitation = Route<EmptyPayload, Invitation>(
            .post, "/api/users/invitations/{id}/resend", .staff, "Send an invitation again with a new link (the old one dies)",
            permission: .usersManage, budgets: [.invitations], failures: [.notFound])
        public let revokeInvitation = Route<EmptyPayload, EmptyPayload>(
            .delete, "/api/users/invitations/{id}", .staff, "Revoke an invitation: its link dies", permission: .usersManage,
            failures: [.notFound])
        public let invitation = Route<EmptyPayload, InvitationPreview>(
            .get, "/api/auth/invitations/{token}", .none, "What an invitation link offers, without using it up",
            budgets: [.clientIP], failures: [.invitationInvalid])
        public let acceptInvitation = Route<AcceptInvitationRequest, StaffTokenResponse>(
            .post, "/api/auth/invitations/accept", .none, "Join the shop: creates the account and signs in",
            budgets: [.clientIP], failures: [.invitationInvalid, .weakPassword])
    }
    /// Team: the routes of this feature.
    public static let team = Team()
}
