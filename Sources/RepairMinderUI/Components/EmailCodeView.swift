#if canImport(SwiftUI)
import RepairMinderKit
import SwiftUI

/// "Enter the code we emailed you": the staff magic link and the customer code alike,
/// submitted at the 6th digit.
public struct EmailCodeView<Model: EmailCodeEntry>: View {
    let model: Model

    public init(model: Model) {
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
                    Button("Cancel", role: .cancel) { model.cancel() }
                }
            }
            .navigationTitle("Check Your Email")
        }
    }
}

/// The staff magic-link code screen (seed 000).
public typealias MagicLinkCodeView = EmailCodeView<MagicCodeViewModel>

/// The customer's code screen (seed 003).
public typealias CustomerMagicCodeView = EmailCodeView<CustomerCodeViewModel>

#Preview("Magic code") {
    MagicLinkCodeView(model: MagicCodeViewModel(auth: PreviewSupport.app().staff))
}

#Preview("Customer code") {
    CustomerMagicCodeView(model: CustomerCodeViewModel(auth: PreviewSupport.app().customer))
}
#endif
