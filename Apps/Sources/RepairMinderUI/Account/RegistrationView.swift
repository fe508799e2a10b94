#if canImport(SwiftUI)
import RepairMinderKit
import SwiftUI

/// "Register a shop": the shop and its first admin, then the emailed code. A success signs in
/// and the app moves to the pending-approval screen by itself.
public struct RegistrationView: View {
    @State private var model: RegistrationViewModel

    public init(auth: StaffAuth) {
        _model = State(initialValue: RegistrationViewModel(auth: auth))
    }

    public var body: some View {
        Form {
            if let email = model.codeSentTo {
                Section {
                    CodeField(title: "Code from the email", code: model.code, onChange: model.codeChanged)
                } footer: {
                    Text("We emailed a 6-digit code to \(email). It expires in 10 minutes.")
                }
                Section {
                    ErrorMessage(text: model.errorMessage)
                    Button("Change the details", action: model.editDetails)
                }
            } else {
                Section("Your shop") {
                    TextField("Shop name", text: $model.companyName)
                        .textContentType(.organizationName)
                }
                Section {
                    TextField("First name", text: $model.firstName)
                        .textContentType(.givenName)
                    TextField("Last name", text: $model.lastName)
                        .textContentType(.familyName)
                    EmailField(text: $model.email)
                    SecureField("Password", text: $model.password)
                        .textContentType(.newPassword)
                } header: {
                    Text("You, its first admin")
                } footer: {
                    Text(model.passwordHint ?? "At least 8 characters. A new shop is checked by us before it goes live.")
                }
                SubmitSection(
                    title: "Register", isLoading: model.isLoading, isEnabled: model.canSubmit,
                    errorMessage: model.errorMessage, action: model.submit)
            }
        }
        .navigationTitle("Register a Shop")
    }
}

#if !SWIFTUI_STAND_IN  // #Preview is a macro Xcode implements (StandIns/README.md)
#Preview("Register") {
    NavigationStack { RegistrationView(auth: PreviewSupport.app().staff) }
}
#endif
#endif
