#if canImport(SwiftUI)
import RepairMinderKit
import SwiftUI

/// The code of a staff magic link, submitted at the 6th digit.
public struct MagicLinkCodeView: View {
    let model: MagicCodeViewModel

    public init(model: MagicCodeViewModel) {
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

#Preview("Magic code") {
    MagicLinkCodeView(model: MagicCodeViewModel(auth: PreviewSupport.app().staff))
}
#endif
