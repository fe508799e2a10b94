#if canImport(SwiftUI)
import RepairMinderKit
import SwiftUI

/// The biometric lock's screen (`BiometricLock`): Face ID or Touch ID before the session is
/// used, asked at once when shown; or sign out instead.
struct LockedView: View {
    let app: AppModel

    var body: some View {
        ContentUnavailableView {
            Label("Repair Minder is locked", systemImage: "lock")
        } description: {
            Text("Unlock with \(app.lock?.biometryName ?? "Face ID") to continue.")
            ErrorMessage(text: app.lock?.problem)
        } actions: {
            Button("Unlock") { Task { await app.unlock() } }
            Button("Sign Out", role: .destructive) { Task { await app.signOutFromLock() } }
        }
        .task { await app.unlock() }
    }
}
#endif
