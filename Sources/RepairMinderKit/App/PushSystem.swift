import Foundation

/// What the system offers for push notifications; `RepairMinderUI` implements it with
/// UserNotifications and UIKit, tests with a fake.
public protocol PushSystem: Sendable {
    /// Asks the person (once; later calls answer what they chose): true when allowed.
    func requestAuthorization() async throws -> Bool
    /// What the person chose so far, read without showing anything: at launch the app
    /// registers for notifications already allowed without asking again.
    func authorizationStatus() async -> PushAuthorizationStatus
    /// Asks the system for this device's APNs token; it arrives through
    /// `PushCoordinator.didReceiveDeviceToken(_:)`.
    @MainActor func registerForRemoteNotifications()
}

/// Whether notifications may be delivered, as the system settings say.
public enum PushAuthorizationStatus: Sendable, Equatable {
    /// Never asked: asking shows the prompt.
    case notDetermined
    /// The person refused (or turned notifications off in Settings).
    case denied
    /// Notifications are delivered (fully, provisionally or for an App Clip's while).
    case authorized
}

/// How a notification that arrives while the app is open is shown.
public struct PushPresentation: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let banner = PushPresentation(rawValue: 1)
    public static let sound = PushPresentation(rawValue: 2)
    public static let list = PushPresentation(rawValue: 4)
    /// The payload's badge count is put on the app icon.
    public static let badge = PushPresentation(rawValue: 8)
}
