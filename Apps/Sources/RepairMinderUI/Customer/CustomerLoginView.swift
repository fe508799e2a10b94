#if canImport(SwiftUI)
import RepairMinderKit
import SwiftUI

/// The customer portal's sign-in: an email, then a code (no passwords).
public struct CustomerLoginView: View {
    @Bindable var model: CustomerLoginViewModel
    let onSwitchRole: @MainActor () -> Void

    public init(model: CustomerLoginViewModel, onSwitchRole: @escaping @MainActor () -> Void) {
        self.model = model
        self.onSwitchRole = onSwitchRole
    }

    public var body: some View {
        NavigationStack {
            Form {
                Section {
                    EmailField(text: $model.email)
                } footer: {
                    Text("Use the email address your repair shop has for you. We'll email you a 6-digit code.")
                }
                SubmitSection(
                    title: "Email Me a Code", isLoading: model.isLoading, isEnabled: model.canSubmit,
                    errorMessage: model.errorMessage, action: model.submit)
                Section {
                    Button("I work at a repair shop", action: onSwitchRole)
                }
            }
            .navigationTitle("Track Your Repair")
            .onSubmit { Task { await model.submit() } }
        }
    }
}

#if !SWIFTUI_STAND_IN  // #Preview is a macro Xcode implements (StandIns/README.md)
#Preview("Customer login") {
    CustomerLoginView(model: CustomerLoginViewModel(auth: PreviewSupport.app().customer), onSwitchRole: {})
}
#endif
#endif
