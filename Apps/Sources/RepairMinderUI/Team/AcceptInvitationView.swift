#if canImport(SwiftUI)
import RepairMinderKit
import RepairMinderModels
import SwiftUI

/// What an invitation link (`/invite?token=…`, a universal link) opens: the shop and the role
/// offered, a password (or none), and "Join". Once joined, the app moves on by its auth state.
struct AcceptInvitationView: View {
    @State private var model: AcceptInvitationViewModel

    init(token: String, auth: StaffAuth) {
        _model = State(initialValue: AcceptInvitationViewModel(token: token, auth: auth))
    }

    var body: some View {
        Form {
            if let offer = model.offer {
                Section {
                    Text("\(offer.company.name) invites you to join its team as \(TeamText.role(offer.role).lowercased()).")
                    LabeledText(label: "Email", value: offer.email)
                }
                Section {
                    Toggle("Sign in without a password", isOn: $model.skipPassword)
                    if !model.skipPassword {
                        SecureField("Password (8 characters or more)", text: $model.password)
                            .textContentType(.newPassword)
                    }
                } footer: {
                    Text(model.skipPassword ? "You will sign in with an emailed code or a passkey." : "You will sign in with this password and a second factor.")
                }
                Section {
                    Button("Join \(offer.company.name)") { Task { await model.join() } }
                        .disabled(!model.canJoin)
                } footer: {
                    ErrorMessage(text: model.errorMessage)
                }
            } else {
                Section {
                    if model.isLoading { ProgressView() } else { ErrorMessage(text: model.errorMessage) }
                }
            }
        }
        .navigationTitle("Invitation")
        .task { await model.load() }
    }
}
#endif
