#if canImport(SwiftUI)
import RepairMinderKit
import RepairMinderModels
import SwiftUI

/// Settings → "Sign-in requirements", for admins (docs/API.md §13.1): what the shop's staff
/// must set up to sign in, the grace period to do it in, whether a magic link signs them in,
/// and how long their sessions last. "Save" sends only what changed.
struct SecurityPolicyView: View {
    @State private var model: SecurityPolicyViewModel

    init(client: SecurityPolicyClient) {
        _model = State(initialValue: SecurityPolicyViewModel(client: client))
    }

    var body: some View {
        Form {
            Section {
                Picker("Required", selection: $model.requiredFactor) {
                    ForEach(SecurityPolicyViewModel.requiredFactors, id: \.rawValue) { factor in
                        Text(SecurityPolicyViewModel.title(of: factor)).tag(factor)
                    }
                }
                if model.requiredFactor != .notRequired {
                    Stepper(
                        "Grace period: \(SecurityPolicyText.days(model.enrolmentGraceDays))", value: $model.enrolmentGraceDays,
                        in: SecurityPolicyViewModel.graceDays)
                }
            } header: {
                Text("Beyond a password")
            } footer: {
                Text(model.requiredFactorExplanation)
            }
            Section {
                Toggle("Allow magic links", isOn: $model.allowMagicLink)
            } footer: {
                Text("A magic link signs someone in with a code emailed to them instead of their password.")
            }
            Section {
                Stepper(
                    "On the web: \(SecurityPolicyText.days(model.sessionMaxWebDays))", value: $model.sessionMaxWebDays,
                    in: SecurityPolicyText.lifetimeDays)
                Stepper(
                    "In the app: \(SecurityPolicyText.days(model.sessionMaxMobileDays))", value: $model.sessionMaxMobileDays,
                    in: SecurityPolicyText.lifetimeDays)
            } header: {
                Text("Sessions last at most")
            } footer: {
                Text("Counted from each sign-in. A shorter lifetime signs older sessions out at their next refresh.")
            }
            Section {
                Button {
                    Task { await model.save() }
                } label: {
                    HStack {
                        Text("Save")
                        if model.isLoading { Spacer(); ProgressView() }
                    }
                }
                .disabled(!model.canSave)
                if model.change != nil {
                    Button("Discard Changes", role: .destructive) { model.discardChanges() }
                }
                ErrorMessage(text: model.problem ?? model.errorMessage)
            } footer: {
                if let confirmation = model.confirmation {
                    Text(confirmation)
                } else if let lastChanged = model.lastChanged {
                    Text(lastChanged)
                }
            }
        }
        .navigationTitle("Sign-in Requirements")
        .task { await model.load() }
        .refreshable { await model.load() }
    }
}

/// How the sign-in requirements screen writes things.
enum SecurityPolicyText {
    static func days(_ count: Int) -> String { count == 1 ? "1 day" : "\(count) days" }
    /// What the lifetime steppers offer; the server refuses more than its own lifetimes.
    static let lifetimeDays = 1...3650
}
#endif
