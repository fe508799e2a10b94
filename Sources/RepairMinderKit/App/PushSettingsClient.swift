import Foundation
import RepairMinderModels

/// The signed-in staff member's notifications (docs/API.md §5): which kinds they want, and
/// the devices registered to receive them (`PushRegistration` registers this one).
public struct PushSettingsClient: Sendable {
    public let api: APIClient

    public init(api: APIClient) { self.api = api }

    /// The devices registered for the caller's notifications.
    public func devices() async throws -> [RegisteredDeviceToken] {
        try await api.send(Routes.push.deviceTokens)
    }

    /// Which notifications the caller wants.
    public func preferences() async throws -> PushPreferences {
        try await api.send(Routes.push.preferences)
    }

    /// Changes the preferences `change` names and leaves the others; answers them all.
    public func update(_ change: PushPreferencesUpdate) async throws -> PushPreferences {
        try await api.send(Routes.push.updatePreferences, change)
    }
}
