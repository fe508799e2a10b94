#if canImport(SwiftUI)
import RepairMinderKit
import SwiftUI

/// Settings → "Change password" ("Set a password" for an account that has none).
struct ChangePasswordView: View {
    @State private var model: ChangePasswordViewModel

    init(auth: StaffAuth) {
        _model = State(initialValue: ChangePasswordViewModel(auth: auth))
    }

    var body: some View {
        Form {
            Section {
                if model.hasPassword {
                    SecureField("Current password", text: $model.currentPassword)
                        .textContentType(.password)
                }
                SecureField("New password", text: $model.newPassword)
                    .textContentType(.newPassword)
                SecureField("Repeat the new password", text: $model.confirmation)
                    .textContentType(.newPassword)
            } footer: {
                Text(model.passwordHint ?? "At least 8 characters. Your other devices will be signed out.")
            }
            SubmitSection(
                title: model.hasPassword ? "Change Password" : "Set Password", isLoading: model.isLoading,
                isEnabled: model.canSubmit, errorMessage: model.errorMessage, action: model.submit)
            if let message = model.confirmationMessage {
                Section { Label(message, systemImage: "checkmark.circle") }
            }
        }
        .navigationTitle(model.hasPassword ? "Change Password" : "Set a Password")
    }
}
#endif
