// Declarations as in UserNotifications.framework's UNUserNotificationCenter.h,
// UNNotificationSettings.h, UNNotification.h, UNNotificationRequest.h, UNNotificationContent.h
// and UNNotificationResponse.h (iOS 18 SDK), imported to Swift, and Apple's documentation pages
// of the same names. All are iOS 10 / macOS 10.14; `.ephemeral` is iOS 14 and not on macOS.

/// The central object for managing notification-related activities for your app or app extension.
@available(iOS 10.0, macOS 10.14, *)
open class UNUserNotificationCenter: NSObject {
    /// Returns your app's notification center.
    open class func current() -> UNUserNotificationCenter { standIn() }
    /// The notification center's delegate.
    weak open var delegate: (any UNUserNotificationCenterDelegate)?
    /// Requests a person's authorization to allow local and remote notifications for your app.
    open func requestAuthorization(options: UNAuthorizationOptions = []) async throws -> Bool { standIn() }
    /// Retrieves the notification authorization status for your app.
    open func notificationSettings() async -> UNNotificationSettings { standIn() }
}

/// Constants that specify the types of notification interactions that apps can request.
@available(iOS 10.0, macOS 10.14, *)
public struct UNAuthorizationOptions: OptionSet, @unchecked Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let badge = UNAuthorizationOptions(rawValue: 1 << 0)
    public static let sound = UNAuthorizationOptions(rawValue: 1 << 1)
    public static let alert = UNAuthorizationOptions(rawValue: 1 << 2)
    @available(iOS 12.0, macOS 10.14, *)
    public static let provisional = UNAuthorizationOptions(rawValue: 1 << 6)
}

/// The object for managing notification-related settings and the authorization status of your app.
@available(iOS 10.0, macOS 10.14, *)
open class UNNotificationSettings: NSObject {
    /// The app's ability to schedule and receive local and remote notifications.
    open var authorizationStatus: UNAuthorizationStatus { standIn() }
}

/// Constants indicating whether the app is allowed to schedule notifications.
@available(iOS 10.0, macOS 10.14, *)
public enum UNAuthorizationStatus: Int, @unchecked Sendable {
    case notDetermined = 0, denied = 1, authorized = 2
    @available(iOS 12.0, macOS 10.14, *)
    case provisional = 3
    @available(iOS 14.0, *)
    @available(macOS, unavailable)
    case ephemeral = 4
}

/// Constants indicating how to present a notification in a foreground app.
@available(iOS 10.0, macOS 10.14, *)
public struct UNNotificationPresentationOptions: OptionSet, @unchecked Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let badge = UNNotificationPresentationOptions(rawValue: 1 << 0)
    public static let sound = UNNotificationPresentationOptions(rawValue: 1 << 1)
    @available(iOS 14.0, macOS 11.0, *)
    public static let list = UNNotificationPresentationOptions(rawValue: 1 << 3)
    @available(iOS 14.0, macOS 11.0, *)
    public static let banner = UNNotificationPresentationOptions(rawValue: 1 << 4)
}

/// An interface for processing incoming notifications and responding to notification actions.
@available(iOS 10.0, macOS 10.14, *)
public protocol UNUserNotificationCenterDelegate: NSObjectProtocol {
    /// Asks the delegate how to handle a notification that arrived while the app was running in the foreground.
    func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification) async
        -> UNNotificationPresentationOptions
    /// Asks the delegate to process the user's response to a delivered notification.
    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async
}

// Apple's delegate methods are Objective-C `optional` requirements; defaults stand for that.
extension UNUserNotificationCenterDelegate {
    public func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification) async
        -> UNNotificationPresentationOptions
    { [] }
    public func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {}
}

/// The data for a local or remote notification the system delivers to your app.
@available(iOS 10.0, macOS 10.14, *)
open class UNNotification: NSObject {
    /// The notification request containing the payload and trigger condition for the notification.
    open var request: UNNotificationRequest { standIn() }
}

/// A request to schedule a local notification, which includes the content and trigger conditions.
@available(iOS 10.0, macOS 10.14, *)
open class UNNotificationRequest: NSObject {
    /// The content associated with the notification.
    open var content: UNNotificationContent { standIn() }
}

/// The uneditable content of a notification.
@available(iOS 10.0, macOS 10.14, *)
open class UNNotificationContent: NSObject {
    /// The custom data to associate with the notification.
    open var userInfo: [AnyHashable: Any] { standIn() }
}

/// The user's response to an actionable notification.
@available(iOS 10.0, macOS 10.14, *)
open class UNNotificationResponse: NSObject {
    /// The notification to which the user responded.
    open var notification: UNNotification { standIn() }
}
