#if canImport(SwiftUI)
import RepairMinderKit
import SwiftUI

/// The launch could not read the saved sign-in (a Keychain locked until the device is unlocked):
/// said as such, never as "signed out". Coming back to the foreground tries again by itself.
struct CredentialsUnreadableView: View {
    let app: AppModel

    var body: some View {
        ContentUnavailableView {
            Label("Sign-in unavailable", systemImage: "lock.iphone")
        } description: {
            Text(AppModel.credentialsUnreadableMessage)
        } actions: {
            Button("Try Again") { Task { await app.retryReadingCredentials() } }
        }
    }
}
#endif
