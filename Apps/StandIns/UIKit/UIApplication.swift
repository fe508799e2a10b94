// Declarations as in UIKit.framework's UIResponder.h, UIView.h, UIWindow.h, UIScene.h,
// UIWindowScene.h, UISceneDefinitions.h and UIApplication.h (iOS 18 SDK), imported to Swift
// (`NS_SWIFT_UI_ACTOR` is `@MainActor`), and Apple's documentation pages of the same names.
// UIKit's macOS availability is Mac Catalyst's; the stand-ins name iOS only.

/// An abstract interface for responding to and handling events.
@available(iOS 2.0, *)
@MainActor @preconcurrency open class UIResponder: NSObject {}

/// An object that manages the content for a rectangular area on the screen.
@available(iOS 2.0, *)
@MainActor @preconcurrency open class UIView: UIResponder {}

/// The backdrop for your app's user interface and the object that dispatches events to your views.
@available(iOS 2.0, *)
@MainActor @preconcurrency open class UIWindow: UIView {
    /// A Boolean value that indicates whether the window is the key window for the app.
    open var isKeyWindow: Bool { standIn() }
}

/// An object that represents one instance of your app's user interface.
@available(iOS 13.0, *)
@MainActor @preconcurrency open class UIScene: UIResponder {
    /// The current execution state of the scene.
    open var activationState: UIScene.ActivationState { standIn() }

    /// Constants that indicate the current state of a scene.
    @available(iOS 13.0, *)
    public enum ActivationState: Int, @unchecked Sendable {
        /// The state is unknown.
        case unattached = -1
        /// The scene is in the foreground and receiving events.
        case foregroundActive = 0
        /// The scene is in the foreground but not receiving events.
        case foregroundInactive = 1
        /// The scene is in the background and not onscreen.
        case background = 2
    }
}

/// A scene that manages one or more windows for your app.
@available(iOS 13.0, *)
@MainActor @preconcurrency open class UIWindowScene: UIScene {
    /// The windows associated with the scene.
    open var windows: [UIWindow] { standIn() }
    /// The key window for the scene.
    @available(iOS 15.0, *)
    open var keyWindow: UIWindow? { standIn() }
}

/// The centralized point of control and coordination for apps running in iOS.
@available(iOS 2.0, *)
@MainActor @preconcurrency open class UIApplication: UIResponder {
    /// The singleton app instance.
    open class var shared: UIApplication { standIn() }
    /// The app's currently connected scenes.
    @available(iOS 13.0, *)
    open var connectedScenes: Set<UIScene> { standIn() }
    /// Registers to receive remote notifications through Apple Push Notification service.
    @available(iOS 8.0, *)
    open func registerForRemoteNotifications() { standIn() }

    /// Keys used to access values in the launch options dictionary passed to the delegate.
    public struct LaunchOptionsKey: Hashable, Equatable, RawRepresentable, @unchecked Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
    }
}

/// A set of methods to manage shared behaviors for your app.
@available(iOS 2.0, *)
@MainActor @preconcurrency public protocol UIApplicationDelegate: NSObjectProtocol {
    /// Tells the delegate that the launch process is almost done and the app is almost ready to run.
    @available(iOS 3.0, *)
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool
    /// Tells the delegate that the app successfully registered with Apple Push Notification service.
    @available(iOS 3.0, *)
    func application(_ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data)
    /// Tells the delegate that Apple Push Notification service cannot successfully complete the registration process.
    @available(iOS 3.0, *)
    func application(_ application: UIApplication, didFailToRegisterForRemoteNotificationsWithError error: any Error)
}

// Apple's delegate methods are Objective-C `optional` requirements; defaults stand for that.
// `DelegateMethodNamesTests` holds the screens' delegate methods to these names.
extension UIApplicationDelegate {
    public func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?)
        -> Bool
    { true }
    public func application(_ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data) {}
    public func application(_ application: UIApplication, didFailToRegisterForRemoteNotificationsWithError error: any Error) {}
}
