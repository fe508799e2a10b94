#if canImport(SwiftUI)
import RepairMinderKit
import SwiftUI

/// "Forgot password": the email, then the emailed code and a new password.
public struct ForgotPasswordView: View {
    @State private var model: ForgotPasswordViewModel
    @Environment(\.dismiss) private var dismiss

    public init(auth: StaffAuth) {
        _model = State(initialValue: ForgotPasswordViewModel(auth: auth))
    }

    public var body: some View {
        Form {
            if model.isDone {
                Section {
                    Label("Your password has been reset. Sign in with it.", systemImage: "checkmark.circle")
                    Button("Back to Sign In") { dismiss() }
                }
            } else if model.codeRequested {
                Section {
                    TextField("Code from the email", text: $model.code)
                        .textContentType(.oneTimeCode)
                        #if os(iOS) || SWIFTUI_STAND_IN  // the stand-ins are iOS's SDK: type-checked on Linux too
                        .keyboardType(.numberPad)
                        #endif
                    SecureField("New password", text: $model.newPassword)
                        .textContentType(.newPassword)
                } footer: {
                    Text(model.passwordHint ?? "If \(model.email) has an account, a code is on its way. Every device will be signed out.")
                }
                SubmitSection(
                    title: "Reset Password", isLoading: model.isLoading, isEnabled: model.canReset,
                    errorMessage: model.errorMessage, action: model.reset)
            } else {
                Section {
                    EmailField(text: $model.email)
                } footer: {
                    Text("We'll email you a code to set a new password.")
                }
                SubmitSection(
                    title: "Email Me a Code", isLoading: model.isLoading, isEnabled: model.canRequest,
                    errorMessage: model.errorMessage, action: model.requestCode)
            }
        }
        .navigationTitle("Forgot Password")
    }
}

#if !SWIFTUI_STAND_IN  // #Preview is a macro Xcode implements (StandIns/README.md)
#Preview("Forgot password") {
    NavigationStack { ForgotPasswordView(auth: PreviewSupport.app().staff) }
}
#endif
#endif
