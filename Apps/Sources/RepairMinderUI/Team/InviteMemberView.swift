#if canImport(SwiftUI)
import RepairMinderKit
import RepairMinderModels
import SwiftUI

/// The invite form, as a sheet: address, names, role. The invitee is emailed a link that
/// works once, for 7 days.
struct InviteMemberView: View {
    @State private var model: InviteMemberViewModel
    @Environment(\.dismiss) private var dismiss

    init(team: TeamClient) {
        _model = State(initialValue: InviteMemberViewModel(team: team))
    }

    var body: some View {
        NavigationStack {
            Form {
                Section {
                    TextField("Email", text: $model.email)
                        .textContentType(.emailAddress)
                        .keyboardType(.emailAddress)
                        .textInputAutocapitalization(.never)
                    TextField("First name", text: $model.firstName)
                    TextField("Last name", text: $model.lastName)
                    Picker("Role", selection: $model.role) {
                        ForEach(InviteMemberViewModel.roles, id: \.rawValue) { role in
                            Text(TeamText.role(role)).tag(role)
                        }
                    }
                } footer: {
                    if let sent = model.sent {
                        Text("Invitation sent to \(sent.email). The link works once, for 7 days.")
                    } else {
                        ErrorMessage(text: model.errorMessage)
                    }
                }
                Section {
                    Button("Send Invitation") { Task { await model.send() } }
                        .disabled(!model.canSend || model.sent != nil)
                }
            }
            .navigationTitle("Invite")
            .toolbar {
                ToolbarItem(placement: .cancellationAction) { Button(model.sent == nil ? "Cancel" : "Done") { dismiss() } }
            }
        }
    }
}
#endif
