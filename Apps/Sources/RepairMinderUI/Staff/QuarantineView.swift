#if canImport(SwiftUI)
import RepairMinderKit
import RepairMinderModels
import SwiftUI

/// Shown to staff whose shop is pending approval or suspended (docs/API.md §4): what that
/// means, "Check again" once an operator acted, and sign out.
public struct QuarantineView: View {
    let auth: StaffAuth
    @State private var isChecking = false
    @State private var problem: String?

    public init(auth: StaffAuth) {
        self.auth = auth
    }

    private var status: CompanyStatus? {
        if case .signedIn(let me) = auth.state { return me.company.status }
        return nil
    }

    /// What the screen says. A status this app does not know (a newer server's) is still a
    /// quarantine (`AppModel.screen`), worded without guessing which kind.
    private var wording: (title: String, symbol: String, message: String) {
        switch status {
        case .suspended:
            ("Account Suspended", "pause.circle", "Your account has been suspended. Please contact support.")
        case .unknown:
            ("Account Not Active", "exclamationmark.circle", "Your account is not active at the moment. Please contact support.")
        case .pendingApproval, .active, nil:
            ("Waiting for Approval", "hourglass", "Your account is pending approval. You will be notified when it is activated.")
        }
    }

    public var body: some View {
        NavigationStack {
            ContentUnavailableView {
                Label(wording.title, systemImage: wording.symbol)
            } description: {
                Text(wording.message)
                ErrorMessage(text: problem)
            } actions: {
                Button {
                    Task {
                        isChecking = true
                        defer { isChecking = false }
                        do { try await auth.reload(); problem = nil } catch { problem = (error as? APIError)?.message }
                    }
                } label: {
                    if isChecking { ProgressView() } else { Text("Check Again") }
                }
                .disabled(isChecking)
                Button("Sign Out", role: .destructive) { Task { await auth.logout() } }
            }
            .navigationTitle("Repair Minder")
        }
    }
}

#if !SWIFTUI_STAND_IN  // #Preview is a macro Xcode implements (StandIns/README.md)
#Preview("Quarantine") {
    QuarantineView(auth: PreviewSupport.app().staff)
}
#endif
#endif
