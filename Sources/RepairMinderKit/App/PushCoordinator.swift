import Foundation
import Observation
import RepairMinderModels

/// What the system offers for push notifications; `RepairMinderUI` implements it with
/// UserNotifications and UIKit, tests with a fake.
public protocol PushSystem: Sendable {
    /// Asks the person (once; later calls answer what they chose): true when allowed.
    func requestAuthorization() async throws -> Bool
    /// Asks the system for this device's APNs token; it arrives through
    /// `PushCoordinator.didReceiveDeviceToken(_:)`.
    @MainActor func registerForRemoteNotifications()
}

/// How a notification that arrives while the app is open is shown.
public struct PushPresentation: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let banner = PushPresentation(rawValue: 1)
    public static let sound = PushPresentation(rawValue: 2)
    public static let list = PushPresentation(rawValue: 4)
}

/// Push notifications end to end (seed 003): permission, the APNs token, its registration with
/// the signed-in role's endpoint and `appType` (again after each sign-in), its removal at
/// logout (the auth machines unregister the token they were given before ending the session),
/// and notification taps routed through the `DeepLinkRouter`, kept across sign-in.
@MainActor @Observable
public final class PushCoordinator {
    public let api: APIClient
    public let router: DeepLinkRouter
    private let system: any PushSystem
    private let staff: StaffAuth
    private let customer: CustomerAuth
    /// The APNs token, as the hex string the server stores; nil until the system gives it.
    public private(set) var deviceToken: String?
    /// Whether the person allowed notifications (nil: not asked yet).
    public private(set) var isAuthorized: Bool?
    /// The role the token is registered for now, if any.
    public private(set) var registeredRole: AppRole?
    /// The last registration failure, for a settings screen.
    public private(set) var lastError: String?

    public init(api: APIClient, staff: StaffAuth, customer: CustomerAuth, router: DeepLinkRouter, system: any PushSystem) {
        self.api = api
        self.staff = staff
        self.customer = customer
        self.router = router
        self.system = system
        let states = api.authStates()
        Task { [weak self] in
            for await state in states {
                guard let self else { return }
                await self.follow(state)
            }
        }
    }

    /// Asks for permission, then for the APNs token. Call it after sign-in (seed 003), not at
    /// first launch: the person then knows why the app asks.
    public func requestPermission() async {
        do {
            isAuthorized = try await system.requestAuthorization()
        } catch {
            isAuthorized = false
            lastError = error.localizedDescription
        }
        if isAuthorized == true { system.registerForRemoteNotifications() }
    }

    /// The token the system gave (`application(_:didRegisterForRemoteNotificationsWithDeviceToken:)`):
    /// registered at once for whoever is signed in.
    public func didReceiveDeviceToken(_ token: Data) async {
        deviceToken = PushRegistration.hexString(token)
        if case .signedIn(let role) = api.authState { await register(for: role) }
    }

    /// A notification was tapped: open where it leads, now or after the next sign-in.
    public func didOpenNotification(_ payload: [AnyHashable: Any]) {
        didOpen(DeepLink(payload: payload))
    }

    /// `didOpenNotification` with the payload already read (the delegate reads it where it
    /// receives it: the payload itself cannot cross to the main actor).
    public func didOpen(_ link: DeepLink?) {
        guard let link else { return }
        if case .signedIn(let role) = api.authState { router.open(link, as: role) } else { router.open(link, as: nil) }
    }

    /// A notification arrived while the app is open: shown as a banner with sound, except one
    /// about what is on screen already (it is just a list entry then), or one the signed-in role
    /// has no screen for.
    public func presentation(for payload: [AnyHashable: Any]) -> PushPresentation {
        presentation(for: DeepLink(payload: payload))
    }

    /// `presentation(for:)` with the payload already read; nil for a notification that leads nowhere.
    public func presentation(for link: DeepLink?) -> PushPresentation {
        guard let link else { return [.banner, .list] }
        if case .signedIn(.customer) = api.authState, !link.isCustomerLink { return [] }
        if router.destination == link { return [.list] }
        return [.banner, .sound, .list]
    }

    private func follow(_ state: AuthState) async {
        switch state {
        case .signedIn(let role):
            router.signedIn(as: role)
            await register(for: role)
        case .signedOut:
            // The auth machine removed the token from the server before the session ended (and
            // the server forgets a dead session's tokens anyway).
            registeredRole = nil
            router.reset()
        }
    }

    /// Registers the token with `role`'s endpoint and `appType`, and tells that role's auth
    /// machine, which unregisters it at logout.
    private func register(for role: AppRole) async {
        guard let deviceToken, registeredRole != role else { return }
        do {
            _ = try await PushRegistration.register(deviceToken, role: role, api: api)
            registeredRole = role
            lastError = nil
            switch role {
            case .staff: staff.registeredDeviceToken = deviceToken
            case .customer: customer.registeredDeviceToken = deviceToken
            }
        } catch {
            lastError = (error as? APIError)?.message ?? error.localizedDescription
        }
    }
}
