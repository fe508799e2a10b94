#if canImport(SwiftUI)
import RepairMinderKit
import SwiftUI

/// Staff sign-in: email and password, or email only for a magic link.
public struct StaffLoginView: View {
    @Bindable var model: StaffLoginViewModel
    let onSwitchRole: @MainActor () -> Void

    public init(model: StaffLoginViewModel, onSwitchRole: @escaping @MainActor () -> Void) {
        self.model = model
        self.onSwitchRole = onSwitchRole
    }

    public var body: some View {
        NavigationStack {
            Form {
                Section {
                    Picker("Sign in with", selection: $model.mode) {
                        Text("Password").tag(StaffLoginViewModel.Mode.password)
                        Text("Email code").tag(StaffLoginViewModel.Mode.magicLink)
                    }
                    .pickerStyle(.segmented)
                    EmailField(text: $model.email)
                    if model.mode == .password {
                        SecureField("Password", text: $model.password)
                            .textContentType(.password)
                    }
                } footer: {
                    if model.mode == .magicLink {
                        Text("We'll email you a 6-digit code.")
                    }
                }
                SubmitSection(
                    title: model.mode == .password ? "Sign In" : "Email Me a Code", isLoading: model.isLoading, isEnabled: model.canSubmit,
                    errorMessage: model.errorMessage, action: model.submit)
                if model.offersPasskey {
                    Section {
                        Button("Sign in with a passkey") { Task { await model.signInWithPasskey() } }
                            .disabled(model.isLoading)
                    } footer: {
                        Text("No email or password needed: Face ID, Touch ID or your security key.")
                    }
                }
                Section {
                    NavigationLink("Forgot password?") { ForgotPasswordView(auth: model.auth) }
                    NavigationLink("Register a new shop") { RegistrationView(auth: model.auth) }
                    Button("I'm a customer", action: onSwitchRole)
                }
            }
            .navigationTitle("Staff Sign In")
            .onSubmit { Task { await model.submit() } }
        }
    }
}

#if !SWIFTUI_STAND_IN  // #Preview is a macro Xcode implements (StandIns/README.md)
#Preview("Staff login") {
    StaffLoginView(model: StaffLoginViewModel(auth: PreviewSupport.app().staff), onSwitchRole: {})
}
#endif
#endif
