#if canImport(SwiftUI)
import RepairMinderKit
import SwiftUI

/// Settings → "Delete account" (App Review's guideline 5.1.1(v); docs/API.md §9.5): what goes,
/// the password if the account has one, DELETE typed to confirm. Once deleted, the app is back
/// at sign-in with "Your account has been deleted."
struct DeleteAccountView: View {
    @State private var model: DeleteAccountViewModel

    init(model: DeleteAccountViewModel) {
        _model = State(initialValue: model)
    }

    var body: some View {
        Form {
            Section {
                Text("Your account is deleted for good: you are signed out on every device, your sign-in methods are removed and your name and address are erased. Your shop's records keep what was done, without your name.")
            }
            if model.mustCloseShop {
                Section {
                    Label("You are your shop's only active member: deleting your account also closes the shop.", systemImage: "exclamationmark.triangle")
                }
            }
            Section {
                if model.hasPassword {
                    SecureField("Password", text: $model.password)
                        .textContentType(.password)
                }
                TextField("Type \(DeleteAccountViewModel.confirmationWord) to confirm", text: $model.confirmation)
                    .textInputAutocapitalization(.characters)
                    .autocorrectionDisabled()
            }
            SubmitSection(
                title: model.mustCloseShop ? "Delete Account and Close Shop" : "Delete Account", isLoading: model.isLoading,
                isEnabled: model.canSubmit, errorMessage: model.errorMessage, action: model.submit)
            if model.mustSignInAgain {
                Section {
                    Button("Sign In Again") { Task { await model.signInAgain() } }
                }
            }
        }
        .navigationTitle("Delete Account")
    }
}
#endif
