#if canImport(SwiftUI)
import RepairMinderKit
import RepairMinderModels
import SwiftUI

/// What the shop requires, set up here (docs/API.md §13.3): shown instead of the tabs while the
/// session is restricted, and as a sheet from the grace banner. It offers an authenticator app
/// and a passkey as the policy allows; once one is set up, the session is refreshed and has
/// full access, without signing in again (the root view then shows the tabs; the sheet closes).
public struct EnrolmentView: View {
    @Bindable var model: EnrolmentViewModel
    /// Shown as the grace banner's sheet: "Later" closes it, and so does success.
    let isSheet: Bool
    @Environment(\.dismiss) private var dismiss

    public init(model: EnrolmentViewModel, isSheet: Bool = false) {
        self.model = model
        self.isSheet = isSheet
    }

    public var body: some View {
        NavigationStack {
            Form {
                Section {
                    Text(model.explanation)
                }
                if !model.recoveryCodes.isEmpty {
                    RecoveryCodesSection(codes: model.recoveryCodes) { Task { await model.finish() } }
                } else {
                    if model.offersAuthenticatorApp { authenticatorAppSection }
                    if model.offersPasskey { passkeySection }
                    if model.needsAnotherDevice {
                        Section {
                            Text("This device cannot make a passkey. Add one from a browser or another device, then tap Check Again.")
                                .foregroundStyle(.secondary)
                        }
                    }
                }
                Section {
                    if model.isLoading { ProgressView() }
                    ErrorMessage(text: model.errorMessage)
                    Button("Check Again") { Task { await model.finish() } }
                        .disabled(model.isLoading)
                    if !isSheet {
                        Button("Sign Out", role: .destructive) { Task { await model.signOut() } }
                    }
                } footer: {
                    Text("Set it up on another device? Check Again picks it up here.")
                }
            }
            .navigationTitle("Secure Your Account")
            .toolbar {
                ToolbarItem(placement: .cancellationAction) {
                    if isSheet { Button("Later") { dismiss() } }
                }
            }
            .onChange(of: model.isFinished) { _, finished in
                if finished, isSheet { dismiss() }
            }
        }
    }

    /// The app: start, then the secret (open in the app, or type it) and the app's code.
    @ViewBuilder private var authenticatorAppSection: some View {
        Section {
            if let setup = model.authenticatorSetup {
                if let url = URL(string: setup.otpauthUrl) {
                    Link("Open in Authenticator App", destination: url)
                }
                VStack(alignment: .leading) {
                    Text("Or type this key into the app:").font(.caption).foregroundStyle(.secondary)
                    Text(EnrolmentViewText.grouped(setup.secret)).font(.headline)
                        .accessibilityLabel("Setup key \(setup.secret)")
                }
                CodeField(title: "6-digit code from the app", code: model.code) { await model.codeChanged($0) }
            } else {
                Button("Set Up an Authenticator App") { Task { await model.startAuthenticatorApp() } }
                    .disabled(model.isLoading)
            }
        } header: {
            Text("Authenticator app")
        } footer: {
            Text("An app such as Google Authenticator or 1Password shows a new 6-digit code every 30 seconds.")
        }
    }

    /// A passkey made on this device (Face ID / Touch ID).
    @ViewBuilder private var passkeySection: some View {
        Section {
            TextField("Name (e.g. iPhone)", text: $model.passkeyName)
            Button("Add a Passkey on This Device") { Task { await model.addPasskey() } }
                .disabled(model.isLoading)
        } header: {
            Text("Passkey")
        } footer: {
            Text("You then sign in with Face ID or Touch ID.")
        }
    }
}

/// The recovery codes of the app just enabled, shown once, and "Continue".
struct RecoveryCodesSection: View {
    let codes: [String]
    let onContinue: @MainActor () -> Void

    var body: some View {
        Section {
            ForEach(codes, id: \.self) { code in
                Text(code).font(.headline.monospacedDigit())
            }
            Button("I Saved Them, Continue", action: onContinue)
        } header: {
            Text("Recovery codes")
        } footer: {
            Text("Each code signs you in once if you lose your phone. Keep them somewhere safe: they are not shown again.")
        }
    }
}

/// How the enrolment screen writes things.
enum EnrolmentViewText {
    /// A setup key in groups of four, for typing.
    static func grouped(_ secret: String) -> String {
        var groups: [String] = []
        var rest = Substring(secret)
        while !rest.isEmpty {
            groups.append(String(rest.prefix(4)))
            rest = rest.dropFirst(4)
        }
        return groups.joined(separator: " ")
    }
}

#if !SWIFTUI_STAND_IN  // #Preview is a macro Xcode implements (StandIns/README.md)
#Preview("Enrolment") {
    EnrolmentView(model: EnrolmentViewModel(auth: PreviewSupport.app().staff))
}
#endif
#endif
