import Foundation
import Observation
import RepairMinderModels

/// Push notifications end to end (seed 003): permission, asked after each sign-in and never at
/// first launch; the APNs token, asked for at launch when permission was given before; its
/// registration with the signed-in role's endpoint and `appType` (after each sign-in, again
/// when the system hands a new token, tried again when it fails); its removal at logout (the
/// auth machines unregister the token recorded in the credential store, so a later launch
/// still can); and notification taps routed through the `DeepLinkRouter`, kept across sign-in.
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
    /// The last registration failure, for a settings screen; nil once one succeeds.
    public private(set) var lastError: String?
    /// The waits between registration attempts (`PushRegistration.defaultRetryDelays`); after
    /// the last, the next foreground, sign-in or token tries again.
    public var retryDelays: [Duration] = PushRegistration.defaultRetryDelays

    /// A token registered, or being registered, for a role.
    private struct Registration: Equatable {
        let token: String
        let role: AppRole
    }

    /// What this process registered: `registeredRole` alone cannot tell that the token changed.
    @ObservationIgnored private var registered: Registration?
    /// The registration under way (with its retries), so a second trigger for the same token
    /// and role waits for it instead of sending it twice.
    @ObservationIgnored private var inFlight: (id: UUID, registration: Registration, task: Task<Void, Never>)?

    /// Set while the biometric lock is closed (`AppModel`): nothing is sent with the session and
    /// no prompt is shown; `resume()` catches up on the sign-in that arrived meanwhile.
    public var isPaused = false
    @ObservationIgnored private var signInWhilePaused = false

    /// What the waits between registration attempts are slept on.
    @ObservationIgnored private let clock: SDKClock

    /// - Parameter clock: the waits between registration attempts are slept on it (the wall
    ///   clock unless a test moves one by hand).
    public init(
        api: APIClient, staff: StaffAuth, customer: CustomerAuth, router: DeepLinkRouter, system: any PushSystem, clock: SDKClock = .system
    ) {
        self.api = api
        self.clock = clock
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

    /// Asks for permission unless the person already answered, then, when allowed, for the
    /// APNs token. The coordinator calls it after each sign-in (seed 003: not at first launch,
    /// so the person knows why the app asks); a settings screen may call it too.
    public func requestPermission() async {
        switch await system.authorizationStatus() {
        case .authorized: isAuthorized = true
        case .denied: isAuthorized = false
        case .notDetermined:
            do {
                isAuthorized = try await system.requestAuthorization()
            } catch {
                isAuthorized = false
                lastError = error.localizedDescription
            }
        }
        if isAuthorized == true { system.registerForRemoteNotifications() }
    }

    /// At launch (`AppModel.launch()`): when notifications were allowed before, asks for the
    /// token without asking the person anything. APNs may hand a new token at any launch, so
    /// this is done each time.
    public func appLaunched() async {
        switch await system.authorizationStatus() {
        case .authorized:
            isAuthorized = true
            system.registerForRemoteNotifications()
        case .denied: isAuthorized = false
        case .notDetermined: break
        }
    }

    /// The lock opened: what a sign-in starts (registration, the permission question) happens now.
    public func resume() async {
        isPaused = false
        guard signInWhilePaused else { return await registerIfNeeded() }
        signInWhilePaused = false
        startRegistrationIfNeeded()
        await requestPermission()
    }

    /// The app came to the foreground (`AppModel.appBecameActive()`): a registration that
    /// gave up is tried again.
    public func appBecameActive() async {
        await registerIfNeeded()
    }

    /// The token the system gave (`application(_:didRegisterForRemoteNotificationsWithDeviceToken:)`):
    /// registered at once for whoever is signed in, also when it replaces a registered one.
    public func didReceiveDeviceToken(_ token: Data) async {
        deviceToken = PushRegistration.hexString(token)
        await registerIfNeeded()
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

    /// A notification arrived while the app is open: shown as a banner with sound and the
    /// badge, except one about what is on screen already (it is just a list entry then), or
    /// one the signed-in role has no screen for.
    public func presentation(for payload: [AnyHashable: Any]) -> PushPresentation {
        presentation(for: DeepLink(payload: payload))
    }

    /// `presentation(for:)` with the payload already read; nil for a notification that leads nowhere.
    public func presentation(for link: DeepLink?) -> PushPresentation {
        guard let link else { return [.banner, .badge, .list] }
        if case .signedIn(.customer) = api.authState, !link.isCustomerLink { return [] }
        if router.destination == link { return [.list] }
        return [.banner, .sound, .badge, .list]
    }

    private func follow(_ state: AuthState) async {
        switch state {
        case .signedIn(let role):
            router.signedIn(as: role)
            if isPaused {
                signInWhilePaused = true
                return
            }
            // A token from before (this launch's, or one asked for at launch) goes now; the
            // permission request below may bring one too.
            startRegistrationIfNeeded()
            await requestPermission()
        case .signedOut:
            // The auth machine removed the token from the server before the session ended (and
            // the server forgets a dead session's tokens anyway).
            inFlight?.task.cancel()
            inFlight = nil
            signInWhilePaused = false
            registered = nil
            registeredRole = nil
            router.reset()
        case .credentialsUnreadable:
            // Unknown, not ended: nothing to register or to forget until it can be read.
            break
        }
    }

    /// Registers the token for the signed-in role unless that is done or under way, and waits.
    private func registerIfNeeded() async {
        await startRegistrationIfNeeded()?.value
    }

    /// Starts registering the token for the signed-in role, unless that is done already; the
    /// registration under way when it is for this token and role. A registration for another
    /// token or role is cancelled: this one replaces it.
    @discardableResult
    private func startRegistrationIfNeeded() -> Task<Void, Never>? {
        guard !isPaused, let deviceToken, case .signedIn(let role) = api.authState else { return nil }
        let wanted = Registration(token: deviceToken, role: role)
        if registered == wanted { return nil }
        if let inFlight, inFlight.registration == wanted { return inFlight.task }
        inFlight?.task.cancel()
        let id = UUID()
        let task = Task<Void, Never> { [weak self] in await self?.register(wanted, id: id) }
        inFlight = (id, wanted, task)
        return task
    }

    /// Registers `wanted` (with retries), records it with the role's auth machine, which
    /// unregisters it at logout, and takes a token it replaced off the server.
    private func register(_ wanted: Registration, id: UUID) async {
        defer { if inFlight?.id == id { inFlight = nil } }
        do {
            _ = try await PushRegistration.register(wanted.token, role: wanted.role, api: api, retryDelays: retryDelays, clock: clock)
        } catch {
            if !Task.isCancelled { lastError = (error as? APIError)?.message ?? error.localizedDescription }
            return
        }
        // Signed out (or replaced) meanwhile: the logout already unregistered what it knew of,
        // and the server drops the ended session's tokens.
        guard !Task.isCancelled, api.authState == .signedIn(wanted.role) else { return }
        let replaced = recordedToken(for: wanted.role)
        // Recorded before the old token is removed, so a logout meanwhile removes the new one.
        record(wanted.token, for: wanted.role)
        registered = wanted
        registeredRole = wanted.role
        lastError = nil
        // The system replaced the token (a restore, a reinstall, APNs' own rotation): the old
        // one would only collect notifications nobody receives. Best effort: APNs refuses a
        // dead token anyway.
        if let replaced, replaced != wanted.token {
            try? await PushRegistration.unregister(replaced, role: wanted.role, api: api)
        }
    }

    private func recordedToken(for role: AppRole) -> String? {
        switch role {
        case .staff: staff.registeredDeviceToken
        case .customer: customer.registeredDeviceToken
        }
    }

    private func record(_ token: String, for role: AppRole) {
        switch role {
        case .staff: staff.registeredDeviceToken = token
        case .customer: customer.registeredDeviceToken = token
        }
    }
}
