/// Asks the person at the device to prove they are its owner: Face ID or Touch ID on an
/// iPhone (`LocalAuthenticationAuthenticator` in RepairMinderUI), a scripted fake in tests.
public protocol DeviceOwnerAuthenticator: Sendable {
    /// "Face ID", "Touch ID", or nil when the device has no enrolled biometrics.
    @MainActor var biometryName: String? { get }
    /// Shows the system prompt with `reason`; true when the person passed it, false when they
    /// cancelled or failed it. Throws only when it cannot be asked at all.
    @MainActor func authenticate(reason: String) async throws -> Bool
}
