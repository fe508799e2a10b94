import Foundation
import RepairMinderKit
import RepairMinderModels
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The calls docs/sdk.md's "What an app leans on" shows, compiled so the guide keeps up with
/// the SDK (never run: the tests of each are in AppSDKTests and GuardedCredentialsTests).
enum AppSDKSamples {
    static func ownRequest(api: APIClient, reportsURL: URL) async throws -> URLRequest {
        let token = try await api.validAccessToken(minTTL: 120)
        var request = URLRequest(url: reportsURL)
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        return request
    }

    @MainActor
    static func offlineBanner(app: AppModel) async throws -> String? {
        try await app.staff.restoreSession()
        if case .offline(let me?) = app.staff.state { return "Offline: \(me.user.email), \(me.company.name)" }
        return nil
    }

    @MainActor
    static func authenticatorApp(auth: StaffAuth) async throws {
        let setup = try await auth.startAuthenticatorApp()
        _ = setup.otpauthUrl
        _ = try await auth.confirmAuthenticatorApp(code: "123456")
        auth.acknowledgeRecoveryCodes()
        _ = try await auth.recoveryCodesRemaining()
        try await auth.disableAuthenticatorApp(code: "abcd-2345")
    }

    @MainActor
    static func guardedSession(lock: BiometricLock, api: APIClient) async throws {
        await lock.setEnabled(true)
        if api.staffSessionIsLocked {
            try await api.unlockStaffSession()
        }
    }
}
