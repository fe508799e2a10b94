#if canImport(SwiftUI)
import RepairMinderKit
import RepairMinderModels
import SwiftUI

/// One member, for an admin: their role (a picker), how they sign in, and the actions for a
/// leaver or a lost phone; each destructive action asks first.
struct MemberView: View {
    @State private var model: MemberViewModel
    @State private var pending: MemberAction?

    init(member: TeamMember, team: TeamClient) {
        _model = State(initialValue: MemberViewModel(member: member, team: team))
    }

    var body: some View {
        Form {
            Section {
                LabeledText(label: "Email", value: model.member.user.email)
                Picker("Role", selection: Binding(get: { @MainActor in model.member.user.role }, set: { @MainActor role in Task { await model.setRole(role) } })) {
                    ForEach(InviteMemberViewModel.roles, id: \.rawValue) { role in
                        Text(TeamText.role(role)).tag(role)
                    }
                }
                LabeledText(label: "Signs in with", value: signsInWith)
            }
            Section {
                Button("Sign Out Everywhere", role: .destructive) { pending = .signOut }
                Button("Reset Sign-in Methods", role: .destructive) { pending = .resetFactors }
                if model.member.user.isActive {
                    Button("Deactivate", role: .destructive) { pending = .deactivate }
                } else {
                    Button("Reactivate") { Task { await model.reactivate() } }
                }
                Button("Archive", role: .destructive) { pending = .archive }
            } footer: {
                if let notice = model.notice { Text(notice) } else { ErrorMessage(text: model.errorMessage) }
            }
        }
        .navigationTitle(TeamText.name(model.member.user))
        .alert("Are you sure?", isPresented: Binding(get: { @MainActor in pending != nil }, set: { @MainActor shown in if !shown { pending = nil } }), presenting: pending) { action in
            Button(action.title, role: .destructive) { Task { await perform(action) } }
            Button("Cancel", role: .cancel) {}
        } message: { action in
            Text(action.consequence)
        }
    }

    private var signsInWith: String {
        let member = model.member
        var ways: [String] = []
        if member.hasPassword { ways.append("password") }
        if member.totpEnabled { ways.append("authenticator app") }
        if member.passkeyCount > 0 { ways.append(member.passkeyCount == 1 ? "1 passkey" : "\(member.passkeyCount) passkeys") }
        return ways.isEmpty ? "emailed codes" : ways.joined(separator: ", ")
    }

    private func perform(_ action: MemberAction) async {
        switch action {
        case .signOut: await model.signOutEverywhere()
        case .resetFactors: await model.resetSignInMethods()
        case .deactivate: await model.deactivate()
        case .archive: await model.archive()
        }
    }
}

/// A destructive action on a member, with what the confirmation says.
enum MemberAction: Identifiable {
    case signOut, resetFactors, deactivate, archive

    var id: Self { self }

    var title: String {
        switch self {
        case .signOut: "Sign Out Everywhere"
        case .resetFactors: "Reset Sign-in Methods"
        case .deactivate: "Deactivate"
        case .archive: "Archive"
        }
    }

    var consequence: String {
        switch self {
        case .signOut: "Every device of theirs is signed out."
        case .resetFactors: "Their authenticator app, recovery codes and passkeys are removed, and they are signed out. They are emailed how to sign in again."
        case .deactivate: "They are signed out everywhere and cannot sign in until reactivated."
        case .archive: "They can never sign in again, and their address stays taken. This cannot be undone."
        }
    }
}

/// A label and its value on one row.
struct LabeledText: View {
    let label: String
    let value: String

    var body: some View {
        HStack {
            Text(label)
            Spacer()
            Text(value).foregroundStyle(.secondary)
        }
    }
}
#endif
