import Foundation
import Observation
import RepairMinderModels

/// Settings → "Team" for an admin (docs/API.md §12): the members with their role and status,
/// filtered and searched, and the pending invitations.
@MainActor @Observable
public final class TeamViewModel: AsyncForm {
    public private(set) var members: [TeamMember] = []
    public private(set) var invitations: [Invitation] = []
    public var status: TeamClient.StatusFilter = .all
    public var search = ""
    public var isLoading = false
    public var errorMessage: String?
    public let team: TeamClient

    public init(team: TeamClient) { self.team = team }

    public func load() async {
        await perform {
            members = try await team.members(limit: 100, status: status, matching: search.trimmingCharacters(in: .whitespaces)).items
            invitations = try await team.invitations()
        }
    }

    public func resend(_ invitation: Invitation) async {
        await perform {
            _ = try await team.resend(invitation: invitation.id)
            invitations = try await team.invitations()
        }
    }

    public func revoke(_ invitation: Invitation) async {
        await perform {
            try await team.revoke(invitation: invitation.id)
            invitations = try await team.invitations()
        }
    }
}

/// The invite form: address, names and role; the button is enabled once they are filled in.
@MainActor @Observable
public final class InviteMemberViewModel: AsyncForm {
    public var email = ""
    public var firstName = ""
    public var lastName = ""
    public var role: UserRole = .engineer
    public var isLoading = false
    public var errorMessage: String?
    public private(set) var sent: Invitation?
    public let team: TeamClient

    /// The roles an admin may give (a platform administrator is the operators' to make).
    public static let roles: [UserRole] = UserRole.allCases.filter { $0 != .masterAdmin }

    public init(team: TeamClient) { self.team = team }

    public var canSend: Bool {
        FormValidation.isValidEmail(email) && !firstName.trimmingCharacters(in: .whitespaces).isEmpty
            && !lastName.trimmingCharacters(in: .whitespaces).isEmpty && !isLoading
    }

    public func send() async {
        guard canSend else { return }
        await perform { sent = try await team.invite(email: email, firstName: firstName, lastName: lastName, role: role) }
    }
}

/// One member's screen: role picker and the destructive actions, each confirmed by the screen.
@MainActor @Observable
public final class MemberViewModel: AsyncForm {
    public private(set) var member: TeamMember
    public var isLoading = false
    public var errorMessage: String?
    /// What the last action did, for a line under the buttons ("Signed out 2 sessions").
    public private(set) var notice: String?
    public let team: TeamClient

    public init(member: TeamMember, team: TeamClient) {
        self.member = member
        self.team = team
    }

    public func setRole(_ role: UserRole) async {
        guard role != member.user.role else { return }
        await perform { member = try await team.setRole(of: member.id, to: role) }
    }

    public func deactivate() async { await perform { member = try await team.deactivate(member.id) } }
    public func reactivate() async { await perform { member = try await team.reactivate(member.id) } }
    public func archive() async { await perform { member = try await team.archive(member.id) } }

    public func signOutEverywhere() async {
        await perform {
            let count = try await team.signOut(member.id)
            notice = count == 1 ? "Signed out 1 session." : "Signed out \(count) sessions."
        }
    }

    public func resetSignInMethods() async {
        await perform {
            member = try await team.resetSignInMethods(of: member.id)
            notice = "Sign-in methods reset. They sign in with their password and an emailed code, then set up new ones."
        }
    }
}

/// The screen an invitation link (`/invite?token=`) opens: the shop and role offered, then a
/// password (or none) and join.
@MainActor @Observable
public final class AcceptInvitationViewModel: AsyncForm {
    public let token: String
    public private(set) var offer: InvitationPreview?
    public var password = ""
    /// Join without a password: sign in later by magic link or passkey.
    public var skipPassword = false
    public var isLoading = false
    public var errorMessage: String?
    public let auth: StaffAuth

    public init(token: String, auth: StaffAuth) {
        self.token = token
        self.auth = auth
    }

    public func load() async { await perform { offer = try await auth.invitation(token: token) } }

    public var canJoin: Bool { offer != nil && (skipPassword || password.count >= 8) && !isLoading }

    /// Joins and signs in: the app moves on by its auth state.
    public func join() async {
        guard canJoin else { return }
        await perform { try await auth.acceptInvitation(token: token, password: skipPassword ? nil : password) }
    }
}
