#if canImport(SwiftUI) && canImport(UIKit) && canImport(UserNotifications)
import AuthenticationServices
import RepairMinderKit
import SwiftUI
import UIKit
import UserNotifications

/// The system side of push notifications (`PushSystem`): the permission prompt, the answer
/// read without one, and APNs registration through UserNotifications and UIKit.
public struct SystemPushNotifications: PushSystem {
    public init() {}

    public func requestAuthorization() async throws -> Bool {
        try await UNUserNotificationCenter.current().requestAuthorization(options: [.alert, .badge, .sound])
    }

    public func authorizationStatus() async -> PushAuthorizationStatus {
        switch await UNUserNotificationCenter.current().notificationSettings().authorizationStatus {
        case .notDetermined: .notDetermined
        case .denied: .denied
        // .authorized, .provisional (delivered quietly) and .ephemeral (an App Clip's) all
        // deliver notifications; .ephemeral is not named because it exists on iOS only.
        default: .authorized
        }
    }

    @MainActor public func registerForRemoteNotifications() {
        UIApplication.shared.registerForRemoteNotifications()
    }
}

/// The app delegate a Repair Minder app adopts (`@UIApplicationDelegateAdaptor`): it owns the
/// `AppModel` with push turned on (the coordinator asks for permission after each sign-in, and
/// for the token at launch when permission was given before), hands the APNs token to the
/// `PushCoordinator`, shows notifications that arrive in the foreground as the coordinator
/// decides, and routes taps (also the one that launched the app) through the deep-link router.
@MainActor
open class RepairMinderAppDelegate: NSObject, UIApplicationDelegate, UNUserNotificationCenterDelegate {
    public let app: AppModel

    /// The API's address and the Keychain store; override `init` to point at another server.
    public override init() {
        let store = Self.credentialStore
        // A reinstalled app starts signed out: the Keychain kept the old session (FirstLaunch).
        _ = try? FirstLaunch.clearCredentialsIfNewInstall(store)
        let transport = Self.transport
        let api = APIClient(baseURL: Self.serverURL, store: store, transport: transport)
        // Passkeys are shown over the key window of the scene in front (ForegroundWindow).
        let passkeys = PlatformPasskeyAuthenticator { ForegroundWindow.keyWindow() }
        // The configuration: bundled, then the server's, cached between launches.
        let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first
        let config = try? ConfigStore(baseURL: Self.serverURL, cacheDirectory: caches, transport: transport)
        // The Face ID / Touch ID lock, off until the person turns it on in Settings.
        let lock = BiometricLock(authenticator: LocalAuthenticationAuthenticator())
        app = AppModel(
            api: api, push: SystemPushNotifications(), passkeys: passkeys, config: config, lock: lock, network: SystemNetworkPathMonitor())
        super.init()
    }

    /// Where the session is kept: the Keychain. (Linux type-checks this file against stand-ins
    /// of Apple's frameworks, StandIns/README.md, and there the SDK has no Keychain store.)
    open class var credentialStore: any CredentialStore {
        #if SWIFTUI_STAND_IN
        InMemoryCredentialStore()
        #else
        KeychainCredentialStore()
        #endif
    }

    /// How every request to the server is sent: a `URLSession`. Override it to pin the server's
    /// certificate (a `URLSession` whose delegate checks the server trust; docs/sdk.md,
    /// "Certificate pinning"), to add a proxy, or to record traffic in a debug build.
    open class var transport: any HTTPTransport {
        URLSessionTransport()
    }

    /// The server, from the app's Info.plist key `RepairMinderServerURL`.
    open class var serverURL: URL {
        (Bundle.main.object(forInfoDictionaryKey: "RepairMinderServerURL") as? String).flatMap(URL.init(string:))
            ?? URL(string: "https://api.repairminder.com")!
    }

    open func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]? = nil
    ) -> Bool {
        UNUserNotificationCenter.current().delegate = self
        return true
    }

    open func application(_ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data) {
        Task { await app.push?.didReceiveDeviceToken(deviceToken) }
    }

    open func application(_ application: UIApplication, didFailToRegisterForRemoteNotificationsWithError error: any Error) {
        // Simulators and devices without a push entitlement end here; the app works without push.
    }

    public nonisolated func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification
    ) async -> UNNotificationPresentationOptions {
        let link = DeepLink(payload: notification.request.content.userInfo)
        let presentation = await MainActor.run { app.push?.presentation(for: link) ?? [.banner, .sound, .list] }
        var options: UNNotificationPresentationOptions = []
        if presentation.contains(.banner) { options.insert(.banner) }
        if presentation.contains(.sound) { options.insert(.sound) }
        if presentation.contains(.list) { options.insert(.list) }
        if presentation.contains(.badge) { options.insert(.badge) }
        return options
    }

    public nonisolated func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {
        let link = DeepLink(payload: response.notification.request.content.userInfo)
        await MainActor.run { app.push?.didOpen(link) }
    }
}
#endif
