#if canImport(SwiftUI)
import RepairMinderKit
import RepairMinderModels
import SwiftUI

/// Settings → "Team", for admins (docs/API.md §12): the members with role and status, a search,
/// the pending invitations (swipe to resend or revoke), and "Invite".
struct TeamView: View {
    @State private var model: TeamViewModel
    @State private var isInviting = false

    init(team: TeamClient) {
        _model = State(initialValue: TeamViewModel(team: team))
    }

    var body: some View {
        List {
            Section {
                TextField("Search by name or email", text: $model.search)
                Picker("Show", selection: $model.status) {
                    Text("Everyone").tag(TeamClient.StatusFilter.all)
                    Text("Active").tag(TeamClient.StatusFilter.active)
                    Text("Deactivated").tag(TeamClient.StatusFilter.deactivated)
                    Text("Archived").tag(TeamClient.StatusFilter.archived)
                }
                Button("Search") { Task { await model.load() } }
            }
            Section("Members") {
                ForEach(model.members) { member in
                    NavigationLink {
                        MemberView(member: member, team: model.team)
                    } label: {
                        VStack(alignment: .leading) {
                            Text(TeamText.name(member.user))
                            Text(TeamText.summary(member)).font(.caption).foregroundStyle(.secondary)
                        }
                    }
                }
            }
            if !model.invitations.isEmpty {
                Section("Invited") {
                    ForEach(model.invitations) { invitation in
                        VStack(alignment: .leading) {
                            Text(invitation.email)
                            Text("\(TeamText.role(invitation.role)) · until \(invitation.expiresAt)").font(.caption).foregroundStyle(.secondary)
                        }
                        .swipeActions {
                            Button("Revoke", role: .destructive) { Task { await model.revoke(invitation) } }
                            Button("Resend") { Task { await model.resend(invitation) } }
                        }
                        .accessibilityHint("Swipe to resend or revoke this invitation")
                    }
                }
            }
            Section {
                Button("Invite Someone") { isInviting = true }
            } footer: {
                ErrorMessage(text: model.errorMessage)
            }
        }
        .navigationTitle("Team")
        .task { await model.load() }
        .refreshable { await model.load() }
        .sheet(isPresented: $isInviting, onDismiss: { Task { await model.load() } }) {
            InviteMemberView(team: model.team)
        }
    }
}

/// How the team screens say things.
enum TeamText {
    static func name(_ user: StaffUser) -> String {
        let name = [user.firstName, user.lastName].compactMap { $0 }.joined(separator: " ")
        return name.isEmpty ? user.email : name
    }

    static func role(_ role: UserRole) -> String {
        switch role {
        case .masterAdmin: "Platform administrator"
        case .admin: "Admin"
        case .seniorEngineer: "Senior engineer"
        case .engineer: "Engineer"
        case .office: "Office"
        case .unknown(let raw): raw
        }
    }

    static func summary(_ member: TeamMember) -> String {
        var parts = [member.user.email, role(member.user.role)]
        if !member.user.isActive { parts.append("deactivated") }
        return parts.joined(separator: " · ")
    }
}
#endif
