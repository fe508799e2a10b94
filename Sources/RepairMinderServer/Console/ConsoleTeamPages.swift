import Foundation
import Hummingbird
import RepairMinderModels

/// The shop admin's Team pages (docs/API.md §15.6, §12): the members, one member (their role,
/// deactivate or reactivate, sign out everywhere, reset sign-in methods), pending invitations
/// and inviting. Every change is the API's own handler, called as the signed-in admin.
struct ConsoleTeamPages: Sendable {
    let console: Console
    let team: TeamController
    let invitations: InvitationController

    func mount(on pages: ConsoleMounting) {
        pages.get("/team") { try await list($0) }
        pages.get("/team/invite") { try await inviteForm($0, problem: nil, values: nil) }
        pages.post("/team/invite") { try await invite($0, $1) }
        pages.get("/team/invitations/:id/revoke") { try await confirmRevoke($0) }
        pages.post("/team/invitations/:id/revoke") { page, _ in try await revokeInvitation(page) }
        pages.post("/team/invitations/:id/resend") { page, _ in
            _ = try await console.call(Routes.team.resendInvitation, page, body: EmptyPayload(), invitations.resend)
            return console.redirect("/team?notice=resent")
        }
        pages.get("/team/:id") { try await member($0) }
        pages.post("/team/:id/role") { try await changeRole($0, $1) }
        for action in MemberAction.allCases {
            pages.get("/team/:id/\(action.rawValue)") { try await confirm(action, $0) }
            pages.post("/team/:id/\(action.rawValue)") { page, _ in try await apply(action, page) }
        }
    }

    // MARK: The list

    struct ListPage {
        let members: [Row]
        let invitations: [InvitationRow]
        /// Stored, not computed: templates read values by reflection, which sees only stored ones.
        let hasInvitations: Bool
        let q: String
        let pager: ConsoleListing.Pager
        let empty: Bool
    }

    struct Row {
        let id: String
        let name: String
        let email: String
        let role: String
        let status: String
        let lastLogin: String
    }

    struct InvitationRow {
        let id: String
        let name: String
        let email: String
        let role: String
        let expiresAt: String
    }

    private func list(_ page: ConsolePageRequest) async throws -> Response {
        let (members, pagination) = try await console.call(Routes.team.members, page, team.members)
        let pending = try await console.call(Routes.team.invitations, page, body: EmptyPayload(), invitations.pending)
        let q = page.query("q") ?? ""
        let view = ListPage(
            members: members.map(Self.row), invitations: pending.map(Self.invitationRow), hasInvitations: !pending.isEmpty, q: q,
            pager: ConsoleListing.pager(pagination, path: "/team", query: ["q": q]), empty: members.isEmpty)
        return console.templates.page("team", page.view("Team", current: "\(Console.root)/team", page: view))
    }

    static func row(_ member: TeamMember) -> Row {
        let user = member.user
        return Row(
            id: user.id, name: displayName(user), email: user.email, role: ConsoleListing.roleName(user.role),
            status: member.archived ? "Archived" : user.isActive ? "Active" : "Deactivated", lastLogin: user.lastLogin.map(ConsoleDates.readable) ?? "Never")
    }

    static func invitationRow(_ invitation: Invitation) -> InvitationRow {
        InvitationRow(
            id: invitation.id, name: "\(invitation.firstName) \(invitation.lastName)", email: invitation.email,
            role: ConsoleListing.roleName(invitation.role), expiresAt: ConsoleDates.readable(invitation.expiresAt))
    }

    static func displayName(_ user: StaffUser) -> String {
        CustomerClient.displayName(firstName: user.firstName, lastName: user.lastName, email: user.email)
    }

    // MARK: Inviting

    struct InvitePage {
        let email: String
        let firstName: String
        let lastName: String
        let roles: [ConsoleListing.Option]
    }

    private func inviteForm(_ page: ConsolePageRequest, problem: String?, values: ConsoleForm?, status: HTTPResponse.Status = .ok) async throws
        -> Response
    {
        try page.require(Routes.team.invite.erased)
        let view = InvitePage(
            email: values?.text("email") ?? "", firstName: values?.text("firstName") ?? "", lastName: values?.text("lastName") ?? "",
            roles: ConsoleListing.roleOptions(selected: values.map { UserRole(rawValue: $0.text("role")) } ?? .engineer))
        return console.templates.page(
            "team-invite", page.view("Invite a member", current: "\(Console.root)/team", page: view, problem: problem), status: status)
    }

    private func invite(_ page: ConsolePageRequest, _ form: ConsoleForm) async throws -> Response {
        let body = InvitationRequest(
            email: form.text("email"), firstName: form.text("firstName"), lastName: form.text("lastName"), role: form.text("role"))
        do {
            _ = try await console.call(Routes.team.invite, page, body: body, invitations.invite)
        } catch let error as APIError where error.status.code < 500 && error.code != .rateLimited && error.status != .forbidden {
            return try await inviteForm(page, problem: error.message, values: form, status: error.status)
        }
        return console.redirect("/team?notice=invited")
    }

    /// Asks before an invitation's link dies; the question names it (from the pending list, so
    /// only an admin of its shop sees it).
    private func confirmRevoke(_ page: ConsolePageRequest) async throws -> Response {
        let pending = try await console.call(Routes.team.invitations, page, body: EmptyPayload(), invitations.pending)
        guard let invitation = pending.first(where: { $0.id == page.parameter("id") }) else { throw APIError.notFound }
        let confirmation = ConsoleListing.Confirmation(
            question: "Revoke the invitation of \(invitation.email)?",
            consequence: "The link in their mail stops working. You can invite them again later.",
            action: "\(Console.root)/team/invitations/\(invitation.id)/revoke", button: "Revoke", back: "\(Console.root)/team")
        return console.templates.page("confirm", page.view(confirmation.question, current: "\(Console.root)/team", page: confirmation))
    }

    private func revokeInvitation(_ page: ConsolePageRequest) async throws -> Response {
        _ = try await console.call(Routes.team.revokeInvitation, page, body: EmptyPayload(), invitations.revoke)
        return console.redirect("/team?notice=saved")
    }

    // MARK: One member

    struct MemberPage {
        let id: String
        let name: String
        let email: String
        let role: String
        let roles: [ConsoleListing.Option]
        let active: Bool
        /// Archived: final, so nothing can be changed (no role, no action).
        let archived: Bool
        let lastLogin: String
        let methods: String
        let isSelf: Bool
        /// Their signed-in devices (`GET /api/users/{id}/sessions`).
        let sessions: [ConsoleAccountPages.Session]
        let hasSessions: Bool
    }

    private func member(_ page: ConsolePageRequest) async throws -> Response {
        let member = try await console.call(Routes.team.member, page, body: EmptyPayload(), team.member)
        let sessions = try await console.call(Routes.team.sessions, page, body: EmptyPayload(), team.memberSessions)
        let user = member.user
        var methods: [String] = []
        if member.hasPassword { methods.append("password") }
        if member.totpEnabled { methods.append("authenticator app") }
        if member.passkeyCount > 0 { methods.append("\(member.passkeyCount) passkey\(member.passkeyCount == 1 ? "" : "s")") }
        let view = MemberPage(
            id: user.id, name: Self.displayName(user), email: user.email, role: ConsoleListing.roleName(user.role),
            roles: ConsoleListing.roleOptions(selected: user.role), active: user.isActive, archived: member.archived,
            lastLogin: user.lastLogin.map(ConsoleDates.readable) ?? "Never",
            methods: methods.isEmpty ? "emailed codes only" : methods.joined(separator: ", "), isSelf: user.id == page.staff.user.id,
            sessions: sessions.map(ConsoleAccountPages.Session.init), hasSessions: !sessions.isEmpty)
        return console.templates.page("team-member", page.view(view.name, current: "\(Console.root)/team", page: view))
    }

    private func changeRole(_ page: ConsolePageRequest, _ form: ConsoleForm) async throws -> Response {
        _ = try await console.call(Routes.team.update, page, body: MemberUpdate(role: form.text("role")), team.update)
        return console.redirect("/team/\(page.parameter("id"))?notice=role")
    }

    /// What can be done to a member from their page, each after a confirmation.
    enum MemberAction: String, CaseIterable {
        case deactivate, reactivate
        case signOut = "sign-out"
        case resetFactors = "reset-sign-in"

        var button: String {
            switch self {
            case .deactivate: "Deactivate"
            case .reactivate: "Reactivate"
            case .signOut: "Sign out everywhere"
            case .resetFactors: "Reset sign-in methods"
            }
        }

        func question(_ name: String) -> String {
            switch self {
            case .deactivate: "Deactivate \(name)?"
            case .reactivate: "Reactivate \(name)?"
            case .signOut: "Sign \(name) out everywhere?"
            case .resetFactors: "Reset \(name)'s sign-in methods?"
            }
        }

        var consequence: String {
            switch self {
            case .deactivate: "They are signed out at once, on every device, and cannot sign in until an admin reactivates them."
            case .reactivate: "They can sign in again with their existing password and methods."
            case .signOut: "Every session of theirs ends now; they can sign in again."
            case .resetFactors:
                "Their authenticator app, recovery codes and passkeys are removed and every session ends: for someone who lost their phone."
            }
        }

        var notice: String {
            switch self {
            case .deactivate: "deactivated"
            case .reactivate: "reactivated"
            case .signOut: "signed-out-member"
            case .resetFactors: "saved"
            }
        }
    }

    private func confirm(_ action: MemberAction, _ page: ConsolePageRequest) async throws -> Response {
        let member = try await console.call(Routes.team.member, page, body: EmptyPayload(), team.member)
        let id = page.parameter("id"), name = Self.displayName(member.user)
        let confirmation = ConsoleListing.Confirmation(
            question: action.question(name), consequence: action.consequence, action: "\(Console.root)/team/\(id)/\(action.rawValue)",
            button: action.button, back: "\(Console.root)/team/\(id)")
        return console.templates.page("confirm", page.view(action.question(name), current: "\(Console.root)/team", page: confirmation))
    }

    private func apply(_ action: MemberAction, _ page: ConsolePageRequest) async throws -> Response {
        switch action {
        case .deactivate: _ = try await console.call(Routes.team.deactivate, page, body: EmptyPayload(), team.deactivate)
        case .reactivate: _ = try await console.call(Routes.team.reactivate, page, body: EmptyPayload(), team.reactivate)
        case .signOut: _ = try await console.call(Routes.team.signOut, page, body: EmptyPayload(), team.signOut)
        case .resetFactors: _ = try await console.call(Routes.team.resetFactors, page, body: EmptyPayload(), team.resetFactors)
        }
        return console.redirect("/team/\(page.parameter("id"))?notice=\(action.notice)")
    }
}

/// Times as the console shows them: the API's ISO 8601 instants, in UTC, to the minute.
enum ConsoleDates {
    static func readable(_ iso: String) -> String {
        guard iso.count >= 16 else { return iso }
        return iso.prefix(10) + " " + iso.dropFirst(11).prefix(5) + " UTC"
    }
}
