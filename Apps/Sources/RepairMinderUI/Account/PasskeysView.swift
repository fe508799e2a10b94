#if canImport(SwiftUI)
import RepairMinderKit
import RepairMinderModels
import SwiftUI

/// Settings → "Passkeys": the account's passkeys (docs/API.md §11); add one made on this
/// device (Face ID / Touch ID), swipe to remove one.
struct PasskeysView: View {
    @State private var model: PasskeysViewModel

    init(auth: StaffAuth) {
        _model = State(initialValue: PasskeysViewModel(auth: auth))
    }

    var body: some View {
        List {
            Section {
                if model.passkeys.isEmpty, !model.isLoading {
                    Text("No passkeys yet. With one, you sign in with Face ID or Touch ID instead of a password and an emailed code.")
                        .foregroundStyle(.secondary)
                }
                ForEach(model.passkeys) { passkey in
                    VStack(alignment: .leading) {
                        Text(passkey.name)
                        Text(details(passkey)).font(.caption).foregroundStyle(.secondary)
                    }
                    .swipeActions {
                        Button("Remove", role: .destructive) { Task { await model.remove(passkey) } }
                    }
                    .accessibilityHint("Swipe to remove this passkey")
                }
            } footer: {
                ErrorMessage(text: model.errorMessage)
            }
            if model.auth.passkeyAuthenticator != nil {
                Section {
                    TextField("Name (e.g. iPhone)", text: $model.newName)
                    Button("Add a Passkey on This Device") { Task { await model.add() } }
                        .disabled(!model.canAdd)
                } footer: {
                    Text("Once you have a passkey, signing in needs it (or your authenticator app): an emailed code alone no longer works.")
                }
            }
        }
        .navigationTitle("Passkeys")
        .task { await model.load() }
        .refreshable { await model.load() }
    }

    private func details(_ passkey: Passkey) -> String {
        var parts = ["Added \(passkey.createdAt)"]
        parts.append(passkey.lastUsedAt.map { "last used \($0)" } ?? "never used")
        if passkey.backedUp { parts.append("synced") }
        return parts.joined(separator: " · ")
    }
}
#endif
