#if canImport(SwiftUI)
import Combine
import RepairMinderKit
import SwiftUI

/// "Enter the code we emailed to …": the staff magic link and the customer code alike,
/// submitted at the 6th digit, with "resend" after its cooldown.
public struct EmailCodeView<Model: EmailCodeEntry>: View {
    let model: Model
    private let timer = Timer.publish(every: 1, on: .main, in: .common).autoconnect()

    public init(model: Model) {
        self.model = model
    }

    public var body: some View {
        NavigationStack {
            Form {
                Section {
                    CodeField(title: "6-digit code", code: model.code) { await model.codeChanged($0) }
                    if model.isLoading { ProgressView() }
                    ErrorMessage(text: model.errorMessage)
                } header: {
                    Text(model.email.map { "Enter the code we emailed to \($0)" } ?? "Enter the code we emailed you")
                }
                Section {
                    ResendButton(model: model)
                    Button("Cancel", role: .cancel) { model.cancel() }
                }
            }
            .navigationTitle("Check Your Email")
            .onReceive(timer) { _ in model.tick() }
        }
    }
}

/// "Resend code", counting down while the server would refuse another code.
struct ResendButton<Model: ResendableCode>: View {
    let model: Model

    var body: some View {
        Button(model.resendCooldown > 0 ? "Resend code (\(model.resendCooldown) s)" : "Resend code") {
            Task { await model.resend() }
        }
        .disabled(model.resendCooldown > 0 || model.isLoading)
        .accessibilityHint("Emails you a new code")
    }
}

/// The staff magic-link code screen (seed 000).
public typealias MagicLinkCodeView = EmailCodeView<MagicCodeViewModel>

/// The customer's code screen (seed 003).
public typealias CustomerMagicCodeView = EmailCodeView<CustomerCodeViewModel>

#if !SWIFTUI_STAND_IN  // #Preview is a macro Xcode implements (StandIns/README.md)
#Preview("Magic code") {
    MagicLinkCodeView(model: MagicCodeViewModel(auth: PreviewSupport.app().staff))
}
#endif

#if !SWIFTUI_STAND_IN  // #Preview is a macro Xcode implements (StandIns/README.md)
#Preview("Customer code") {
    CustomerMagicCodeView(model: CustomerCodeViewModel(auth: PreviewSupport.app().customer))
}
#endif
#endif
