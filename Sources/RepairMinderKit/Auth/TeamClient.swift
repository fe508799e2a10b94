import Foundation
import RepairMinderModels

/// A shop's team, for its admins (docs/API.md §12): members, their roles, leavers, recovery, and
/// invitations. Every call needs the `users:manage` permission (`UserRole.may`): an admin's;
/// another role gets `APIError.server` with `FORBIDDEN`.
public struct TeamClient: Sendable {
    public let api: APIClient

    public init(api: APIClient) { self.api = api }

    /// Which members a list shows.
    public enum StatusFilter: String, Sendable, CaseIterable {
        case all, active, deactivated, archived
    }

    /// Page `page` of the shop's members, newest first; `matching` narrows by address and names.
    public func members(page: Int = 1, limit: Int? = nil, status: StatusFilter = .all, matching: String? = nil) async throws -> Page<TeamMember> {
        var filters = [QueryParameter.memberStatus.name: status.rawValue]
        if let matching, !matching.isEmpty { filters[QueryParameter.q.name] = matching }
        return try await api.page(Routes.team.members, page: page, limit: limit, filters: filters)
    }

    public func member(_ id: String) async throws -> TeamMember {
        try await api.send(Routes.team.member, path: [id])
    }

    /// Changes a member's role (at once: their app refreshes into it), names or magic-link sign-in.
    public func update(_ id: String, _ change: MemberUpdate) async throws -> TeamMember {
        try await api.send(Routes.team.update, change, path: [id])
    }

    public func setRole(of id: String, to role: UserRole) async throws -> TeamMember {
        try await update(id, MemberUpdate(role: role.rawValue))
    }

    /// Switches a leaver off: their sessions end at once.
    public func deactivate(_ id: String) async throws -> TeamMember { try await api.send(Routes.team.deactivate, path: [id]) }
    public func reactivate(_ id: String) async throws -> TeamMember { try await api.send(Routes.team.reactivate, path: [id]) }
    /// Final: the member never signs in again.
    public func archive(_ id: String) async throws -> TeamMember { try await api.send(Routes.team.archive, path: [id]) }

    /// Ends every session of the member; how many.
    @discardableResult
    public func signOut(_ id: String) async throws -> Int { try await api.send(Routes.team.signOut, path: [id]).revoked }

    /// A member's signed-in devices, newest first.
    public func sessions(of id: String) async throws -> [SessionInfo] { try await api.send(Routes.team.sessions, path: [id]) }

    /// For someone who lost their phone: removes their authenticator app, recovery codes and
    /// passkeys and signs them out; they sign in with password and emailed code and enrol again.
    public func resetSignInMethods(of id: String) async throws -> TeamMember {
        try await api.send(Routes.team.resetFactors, path: [id])
    }

    /// Page `page` of a member's security events, newest first.
    public func activity(of id: String, page: Int = 1, limit: Int? = nil) async throws -> Page<ActivityEvent> {
        try await api.page(Routes.team.activity, path: [id], page: page, limit: limit)
    }

    /// The pending invitations, newest first.
    public func invitations() async throws -> [Invitation] { try await api.send(Routes.team.invitations) }

    /// Invites `email` to the team as `role` (not `master_admin`). The same answer whether or
    /// not the address has an account somewhere.
    public func invite(email: String, firstName: String, lastName: String, role: UserRole) async throws -> Invitation {
        try await api.send(
            Routes.team.invite,
            InvitationRequest(
                email: email.trimmingCharacters(in: .whitespacesAndNewlines), firstName: firstName, lastName: lastName,
                role: role.rawValue))
    }

    /// Sends the invitation again with a new link (the old one dies).
    public func resend(invitation id: String) async throws -> Invitation {
        try await api.send(Routes.team.resendInvitation, path: [id])
    }

    public func revoke(invitation id: String) async throws {
        _ = try await api.send(Routes.team.revokeInvitation, path: [id])
    }
}
