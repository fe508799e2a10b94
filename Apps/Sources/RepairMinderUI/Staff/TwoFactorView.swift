#if canImport(SwiftUI)
import Combine
import RepairMinderKit
import SwiftUI

/// Login step 3, with the methods step 1 named (docs/API.md §11.1): the emailed code
/// (submitted at the 6th digit) with "resend" for a user who enrolled nothing; else the code
/// from the authenticator app, a recovery code or a passkey. Nothing says "we emailed you"
/// when nothing was emailed.
public struct TwoFactorView: View {
    @Bindable var model: TwoFactorViewModel
    private let timer = Timer.publish(every: 1, on: .main, in: .common).autoconnect()

    public init(model: TwoFactorViewModel) {
        self.model = model
    }

    public var body: some View {
        NavigationStack {
            Form {
                if model.offersPasskey {
                    Section {
                        Button("Use your passkey") { Task { await model.usePasskey() } }
                            .disabled(model.isLoading)
                    }
                }
                if model.offersEmailedCode || model.offersAuthenticator {
                    Section {
                        CodeField(
                            title: model.usesRecoveryCode ? "Recovery code" : "6-digit code", code: model.code,
                            isRecoveryCode: model.usesRecoveryCode, onChange: model.codeChanged)
                    } header: {
                        Text(header)
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
                    if model.offersEmailedCode { ResendButton(model: model) }
                    if model.offersAuthenticator { Toggle("Use a recovery code", isOn: $model.usesRecoveryCode) }
                    Button("Cancel", role: .cancel) { model.auth.cancel() }
                }
            }
            .navigationTitle("Verification")
            .onReceive(timer) { _ in model.tick() }
        }
    }

    private var header: String {
        if model.usesRecoveryCode { return "Enter one of your recovery codes" }
        if model.offersAuthenticator { return "Enter the code from your authenticator app" }
        return model.email.map { "Enter the code we emailed to \($0)" } ?? "Enter the code we emailed you"
    }
}

#if !SWIFTUI_STAND_IN  // #Preview is a macro Xcode implements (StandIns/README.md)
#Preview("Two-factor") {
    TwoFactorView(model: TwoFactorViewModel(auth: PreviewSupport.app().staff))
}
#endif
#endif
