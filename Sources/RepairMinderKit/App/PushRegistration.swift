import Foundation
import RepairMinderModels

/// Registers this device's push token with the endpoint of the signed-in role, with the
/// matching `appType` (seed 003: staff and customer apps get different notifications).
public enum PushRegistration {
    /// The APNs token bytes as the hex string the server stores.
    public static func hexString(_ token: Data) -> String { token.map { String(format: "%02x", $0) }.joined() }

    public static func register(_ token: String, role: AppRole, api: APIClient, platform: PushPlatform = .ios) async throws
        -> RegisteredDeviceToken
    {
        switch role {
        case .staff:
            return try await api.send(
                Routes.Push.registerDeviceToken, DeviceTokenRegistration(deviceToken: token, platform: platform, appType: .staff))
        case .customer:
            return try await api.send(
                Routes.Push.registerCustomerDeviceToken,
                DeviceTokenRegistration(deviceToken: token, platform: platform, appType: .customer))
        }
    }
}
