import Foundation
import RepairMinderModels

/// Registers this device's push token with the endpoint of the signed-in role, with the
/// matching `appType` (seed 003: staff and customer apps get different notifications), and
/// takes it off again.
public enum PushRegistration {
    /// The waits between registration attempts unless told otherwise: a phone that just got
    /// its token may have no network yet, and a server restart takes seconds, so a few tries
    /// spread over a minute or so; then the next foreground or sign-in tries again.
    public static let defaultRetryDelays: [Duration] = [.seconds(2), .seconds(10), .seconds(60)]

    /// The APNs token bytes as the hex string the server stores.
    public static func hexString(_ token: Data) -> String { token.map { String(format: "%02x", $0) }.joined() }

    /// One attempt at registering `token` for `role`.
    public static func register(_ token: String, role: AppRole, api: APIClient, platform: PushPlatform = .ios) async throws
        -> RegisteredDeviceToken
    {
        switch role {
        case .staff:
            return try await api.send(
                Routes.push.registerDeviceToken, DeviceTokenRegistration(deviceToken: token, platform: platform, appType: .staff))
        case .customer:
            return try await api.send(
                Routes.push.registerCustomerDeviceToken,
                DeviceTokenRegistration(deviceToken: token, platform: platform, appType: .customer))
        }
    }

    /// Registers `token` for `role`, trying again after each of `retryDelays` when an attempt
    /// fails for a reason that may pass (no network, 429, 5xx). A refused session or request
    /// is not tried again, nor is a cancelled task; the last failure is thrown. The waits are
    /// slept on `clock`.
    public static func register(
        _ token: String, role: AppRole, api: APIClient, retryDelays: [Duration], platform: PushPlatform = .ios, clock: SDKClock = .system
    ) async throws -> RegisteredDeviceToken {
        var delays = retryDelays[...]
        while true {
            do {
                return try await register(token, role: role, api: api, platform: platform)
            } catch {
                guard isWorthRetrying(error), let delay = delays.popFirst() else { throw error }
                try await clock.sleep(delay)
            }
        }
    }

    /// Takes `token` off `role`'s endpoint.
    public static func unregister(_ token: String, role: AppRole, api: APIClient) async throws {
        switch role {
        case .staff: _ = try await api.send(Routes.push.unregisterDeviceToken, DeviceTokenRemoval(deviceToken: token))
        case .customer: _ = try await api.send(Routes.push.unregisterCustomerDeviceToken, DeviceTokenRemoval(deviceToken: token))
        }
    }

    /// Whether another attempt may succeed: the network or the server's load, not the request
    /// or the session, was at fault.
    static func isWorthRetrying(_ error: any Error) -> Bool {
        if error is CancellationError || Task.isCancelled { return false }
        // A transport error the client did not classify may pass too.
        return (error as? APIError)?.isRetryable ?? true
    }
}
