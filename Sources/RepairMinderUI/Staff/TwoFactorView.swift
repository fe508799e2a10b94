#if canImport(SwiftUI)
import Combine
import RepairMinderKit
import SwiftUI

/// Login step 3: the emailed code (submitted at the 6th digit), with "resend", or a code from
/// an authenticator app, or a recovery code.
public struct TwoFactorView: View {
    @Bindable var model: TwoFactorViewModel
    private let timer = Timer.publish(every: 1, on: .main, in: .common).autoconnect()

    public init(model: TwoFactorViewModel) {
        self.model = model
    }

    public var body: some View {
        NavigationStack {
            Form {
                Section {
                    CodeField(
                        title: model.usesRecoveryCode ? "Recovery code" : "6-digit code", code: model.code,
                        isRecoveryCode: model.usesRecoveryCode, onChange: model.codeChanged)
                } header: {
                    Text(
                        model.usesRecoveryCode
                            ? "Enter one of your recovery codes"
                            : model.email.map { "Enter the code we emailed to \($0)" } ?? "Enter the code we emailed you")
                } footer: {
                    if model.offersAuthenticator && !model.usesRecoveryCode {
                        Text("You can also type the code from your authenticator app.")
                    }
                }
                Section {
                    if model.usesRecoveryCode {
                        Button("Verify") { Task { await model.submit() } }
                            .disabled(!model.canSubmit)
                    }
                    if model.isLoading { ProgressView() }
                    ErrorMessage(text: model.errorMessage)
                }
                Section {
                    ResendButton(model: model)
                    Toggle("Use a recovery code", isOn: $model.usesRecoveryCode)
                    Button("Cancel", role: .cancel) { model.auth.cancel() }
                }
            }
            .navigationTitle("Verification")
            .onReceive(timer) { _ in model.tick() }
        }
    }
}

#Preview("Two-factor") {
    TwoFactorView(model: TwoFactorViewModel(auth: PreviewSupport.app().staff))
}
#endif
