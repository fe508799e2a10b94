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

    public var body: some View {
        NavigationStack {
            ContentUnavailableView {
                Label(status == .suspended ? "Account Suspended" : "Waiting for Approval",
                      systemImage: status == .suspended ? "pause.circle" : "hourglass")
            } description: {
                Text(
                    status == .suspended
                        ? "Your account has been suspended. Please contact support."
                        : "Your account is pending approval. You will be notified when it is activated.")
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
