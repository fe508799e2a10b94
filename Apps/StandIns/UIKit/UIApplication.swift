/// An abstract interface for responding to and handling events.
@MainActor @preconcurrency open class UIResponder: NSObject {}

/// An object that manages the content for a rectangular area on the screen.
@MainActor @preconcurrency open class UIView: UIResponder {}

/// The backdrop for your app's user interface and the object that dispatches events to your views.
@MainActor @preconcurrency open class UIWindow: UIView {}

/// An object that represents one instance of your app's user interface.
@MainActor @preconcurrency open class UIScene: UIResponder {}

/// A scene that manages one or more windows for your app.
@MainActor @preconcurrency open class UIWindowScene: UIScene {
    /// The key window for the scene.
    open var keyWindow: UIWindow? { standIn() }
}

/// The centralized point of control and coordination for apps running in iOS.
@MainActor @preconcurrency open class UIApplication: UIResponder {
    /// The singleton app instance.
    open class var shared: UIApplication { standIn() }
    /// The app's currently connected scenes.
    open var connectedScenes: Set<UIScene> { standIn() }
    /// Registers to receive remote notifications through Apple Push Notification service.
    open func registerForRemoteNotifications() { standIn() }

    /// Keys used to access values in the launch options dictionary passed to the delegate.
    public struct LaunchOptionsKey: Hashable, Equatable, RawRepresentable, @unchecked Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
    }
}

/// A set of methods to manage shared behaviors for your app.
@MainActor @preconcurrency public protocol UIApplicationDelegate: NSObjectProtocol {
    /// Tells the delegate that the launch process is almost done and the app is almost ready to run.
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool
    /// Tells the delegate that the app successfully registered with Apple Push Notification service.
    func application(_ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data)
    /// Tells the delegate that Apple Push Notification service cannot successfully complete the registration process.
    func application(_ application: UIApplication, didFailToRegisterForRemoteNotificationsWithError error: any Error)
}

// Apple's delegate methods are Objective-C `optional` requirements; defaults stand for that.
extension UIApplicationDelegate {
    public func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?)
        -> Bool
    { true }
    public func application(_ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data) {}
    public func application(_ application: UIApplication, didFailToRegisterForRemoteNotificationsWithError error: any Error) {}
}
