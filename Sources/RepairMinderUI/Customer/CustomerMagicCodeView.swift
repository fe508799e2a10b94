#if canImport(SwiftUI)
import RepairMinderKit
import SwiftUI

/// The customer's emailed code, submitted at the 6th digit.
public struct CustomerMagicCodeView: View {
    let model: CustomerCodeViewModel

    public init(model: CustomerCodeViewModel) {
        self.model = model
    }

    public var body: some View {
        NavigationStack {
            Form {
                Section("Enter the code we emailed you") {
                    CodeField(title: "6-digit code", code: model.code, onChange: model.codeChanged)
                    if model.isLoading { ProgressView() }
                    ErrorMessage(text: model.errorMessage)
                }
                Section {
                    Button("Cancel", role: .cancel) { model.auth.cancel() }
                }
            }
            .navigationTitle("Check Your Email")
        }
    }
}

#Preview("Customer code") {
    CustomerMagicCodeView(model: CustomerCodeViewModel(auth: PreviewSupport.app().customer))
}
#endif
