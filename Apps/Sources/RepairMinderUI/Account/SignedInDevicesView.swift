#if canImport(SwiftUI)
import RepairMinderKit
import RepairMinderModels
import SwiftUI

/// Settings → "Signed-in devices": where this account is signed in; sign one or all the others out.
struct SignedInDevicesView: View {
    @State private var model: SignedInDevicesViewModel

    init(auth: StaffAuth) {
        _model = State(initialValue: SignedInDevicesViewModel(auth: auth))
    }

    var body: some View {
        List {
            Section {
                ForEach(model.sessions) { session in
                    VStack(alignment: .leading) {
                        Text(session.userAgent ?? (session.isMobile ? "Phone" : "Browser"))
                        Text(details(session)).font(.caption).foregroundStyle(.secondary)
                    }
                    .swipeActions {
                        if !session.current {
                            Button("Sign Out", role: .destructive) { Task { await model.signOut(session) } }
                        }
                    }
                    .accessibilityHint(session.current ? "This device" : "Swipe to sign this device out")
                }
            } footer: {
                ErrorMessage(text: model.errorMessage)
            }
            if model.hasOtherDevices {
                Section {
                    Button("Sign Out All Other Devices", role: .destructive) { Task { await model.signOutOtherDevices() } }
                        .disabled(model.isLoading)
                }
            }
        }
        .navigationTitle("Signed-in Devices")
        .task { await model.load() }
        .refreshable { await model.load() }
    }

    private func details(_ session: SessionInfo) -> String {
        var parts = [session.current ? "This device" : "Signed in \(session.createdAt)"]
        if let address = session.ipAddress { parts.append(address) }
        if let used = session.lastUsedAt, !session.current { parts.append("last used \(used)") }
        return parts.joined(separator: " · ")
    }
}
#endif
