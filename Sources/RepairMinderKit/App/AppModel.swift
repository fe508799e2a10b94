import Foundation
import Observation

/// The whole app's sign-in state in one place: which role was chosen, the two auth state
/// machines on one `APIClient`, and which screen that means. The SwiftUI root view only
/// switches on `screen`, so this logic is tested on Linux too.
///
/// It follows the client's session state (`APIClient.authStates()`): when a session ends
/// without the person asking (a refused refresh, a customer token refused or expired), the
/// auth machines return to sign-in, so `screen` does, and `notice` says why, once.
@MainActor @Observable
public final class AppModel {
    /// The screen the app should show.
    public enum Screen: Equatable, Sendable {
        case launching
        case roleSelection
        case staffLogin, staffSecondFactor, staffMagicCode, staffMain
        /// Signed in, but the shop is pending approval or suspended (docs/API.md §4).
        case staffQuarantined
        /// Signed in, but the session is restricted until the user enrols the factor the shop
        /// requires (docs/API.md §13.3): the enrolment screen instead of the tabs. Once they
        /// have, `StaffAuth.refreshEnrolment()` lifts it and the screen is `staffMain`.
        case staffEnrolment
        case customerLogin, customerCode, customerCompanySelection, customerMain
        /// The biometric lock is on and the session waits for Face ID or Touch ID (`unlock()`).
        case locked
        /// The credential store could not be read at launch (the Keychain of a device not
        /// unlocked since it started): whether there is a session is unknown, so neither role
        /// selection nor sign-in is shown. Say `credentialsUnreadableMessage`; "Try again" is
        /// `retryReadingCredentials()` (the app does it by itself when it becomes active).
        case credentialsUnreadable
    }

    /// What `.credentialsUnreadable` tells the person.
    public static let credentialsUnreadableMessage = "Could not read your sign-in. Unlock your device, then try again."

    public let api: APIClient
    public let roles: RoleSelectionViewModel
    public let staff: StaffAuth
    public let customer: CustomerAuth
    /// The tabs and the detail a notification opened; the tab views bind to it.
    public let router: DeepLinkRouter
    /// Push notifications, when the app gave a `PushSystem` (the iOS app does).
    public let push: PushCoordinator?
    /// The app configuration, refreshed from the server at each launch (when the app gave one).
    public let config: ConfigStore?
    /// The opt-in Face ID / Touch ID lock (when the app gave one).
    public let lock: BiometricLock?
    /// The launch waits for `unlock()` before it restores the session.
    @ObservationIgnored private var restoreAfterUnlock = false
    public private(set) var hasLaunched = false
    /// Why the session just ended, when the person did not ask for it: show it once, then
    /// call `dismissNotice()`.
    public private(set) var notice: String?
    /// The stored session could not be restored for another reason than an unreadable store
    /// (which is `.credentialsUnreadable`): say it over the screen.
    public private(set) var launchProblem: String?
    /// The credential store could not be read at launch (`Screen.credentialsUnreadable`).
    public private(set) var credentialsUnreadable = false
    @ObservationIgnored private var keepingFresh: Task<Void, Never>?
    /// The device has no usable network path (`NetworkPathMonitoring`): the foreground refresh
    /// waits for it. Screens may say so ("You're offline").
    public private(set) var isOffline = false
    /// Whether the app is in the foreground (`appBecameActive` until `appWillResignActive`).
    @ObservationIgnored private var isActive = false
    /// What the foreground refresh reads the time from and sleeps on.
    @ObservationIgnored private let clock: SDKClock

    /// - Parameter passkeys: makes and uses passkeys (`PlatformPasskeyAuthenticator`); nil: the
    ///   screens do not offer them.
    ///   `config`: the app configuration, fetched from the server at launch. `lock`: asks for
    ///   Face ID or Touch ID before the stored session is used (when the person turned it on).
    ///   `clock`: the time and the sleeping of the foreground refresh (and of push registration's
    ///   retries); the wall clock unless a test moves one by hand. `network`: the device's network
    ///   path (`SystemNetworkPathMonitor` in an app): refreshes pause while it is unsatisfied.
    public init(
        api: APIClient, push system: (any PushSystem)? = nil, passkeys: (any PasskeyAuthenticator)? = nil, config: ConfigStore? = nil,
        lock: BiometricLock? = nil, clock: SDKClock = .system, network: (any NetworkPathMonitoring)? = nil
    ) {
        self.api = api
        self.clock = clock
        self.config = config
        self.lock = lock
        roles = RoleSelectionViewModel(store: api.store)
        staff = StaffAuth(api: api, passkeyAuthenticator: passkeys)
        customer = CustomerAuth(api: api)
        let (router, staff, customer) = (DeepLinkRouter(), self.staff, self.customer)
        self.router = router
        push = system.map { PushCoordinator(api: api, staff: staff, customer: customer, router: router, system: $0, clock: clock) }
        // Locked before anything can use the stored session: the client replays its state to
        // each listener as soon as this initialiser returns, and push would act on it.
        if let lock {
            lock.attach(api)
            lock.lockAtLaunch(hasSession: storedSessionOfChosenRole)
            push?.isPaused = lock.isLocked
        }
        let states = api.authStates()
        Task { [weak self] in
            for await state in states {
                guard let self else { return }
                if let notice = state.notice { self.notice = notice }
            }
        }
        if let paths = network?.statuses() {
            Task { [weak self] in
                for await status in paths {
                    guard let self else { return }
                    self.networkPathChanged(to: status)
                }
            }
        }
    }

    /// Offline: the foreground refresh stops (its tries would fail). Back online: in the
    /// foreground, an `.offline` session is checked and the refresh starts again at once.
    private func networkPathChanged(to status: NetworkPathStatus) {
        let offline = status == .unsatisfied
        guard offline != isOffline else { return }
        isOffline = offline
        if offline {
            keepingFresh?.cancel()
            keepingFresh = nil
        } else if isActive, hasLaunched || lock == nil, lock?.isLocked != true {
            Task { await recheckOffline() }
            keepFresh()
        }
    }

    /// Restores the chosen role's session (after Face ID when the lock is on), fetches the app
    /// configuration without waiting for it, and asks for the push token when notifications
    /// were allowed before (never the permission itself: that waits for a sign-in); call once
    /// when the app starts.
    public func launch() async {
        if let config {
            // Offline, the bundled or cached copy stays in use; the next launch asks again.
            Task { try? await config.refresh() }
        }
        guard readsStoredSession() else {
            hasLaunched = true
            return
        }
        if lock?.isLocked == true {
            // The APNs token may be fetched (it needs no session); its registration waits.
            await push?.appLaunched()
            restoreAfterUnlock = true
            hasLaunched = true
            return
        }
        await push?.appLaunched()
        await restoreChosenSession()
        hasLaunched = true
        // The scene became active before the launch finished: start what the foreground does.
        if isActive { appBecameActive() }
    }

    /// Whether the credential store can be read; when it cannot, the launch stops at
    /// `.credentialsUnreadable` rather than showing role selection or sign-in.
    private func readsStoredSession() -> Bool {
        do {
            try roles.reload()
            _ = try api.storedSessionRole()
            credentialsUnreadable = false
        } catch {
            credentialsUnreadable = true
        }
        return !credentialsUnreadable
    }

    /// "Try again" on `.credentialsUnreadable`: reads the credential store again and, once it
    /// can (the device was unlocked), goes on with the launch as if it had just started.
    public func retryReadingCredentials() async {
        guard credentialsUnreadable, readsStoredSession() else { return }
        try? await api.reloadStoredState()
        if let lock {
            lock.lockAtLaunch(hasSession: storedSessionOfChosenRole)
            push?.isPaused = lock.isLocked
        }
        hasLaunched = false
        await launch()
    }

    /// Asks for Face ID or Touch ID; a pass opens the app (restoring the session, at launch).
    /// A staff session guarded by the Keychain (`BiometricLock.guardsCredentials`) is read
    /// here: the Keychain's own prompt is the unlock, so there is one prompt, not two.
    public func unlock() async {
        guard let lock else { return }
        if lock.isLocked, roles.role == .staff, api.staffSessionIsLocked {
            do {
                try await api.unlockStaffSession()
                lock.unlocked()
            } catch {
                lock.unlockFailed(error)
                return
            }
        } else {
            guard await lock.unlock() else { return }
        }
        if restoreAfterUnlock {
            restoreAfterUnlock = false
            await restoreChosenSession()
        }
        await push?.resume()
        if isActive { appBecameActive() }
    }

    /// "Sign out" on the lock screen: the session ends (on the server too), the lock with it.
    public func signOutFromLock() async {
        switch roles.role {
        case .staff: await staff.logout()
        case .customer: await customer.logout()
        case nil: break
        }
        restoreAfterUnlock = false
        lock?.sessionEnded()
        push?.isPaused = false
    }

    private var storedSessionOfChosenRole: Bool {
        guard let role = roles.role else { return false }
        return (try? api.storedSessionRole()) == role
    }

    private func restoreChosenSession() async {
        do {
            switch roles.role {
            case .staff:
                // Guarded without a lock screen: the Keychain asks now.
                if api.staffSessionIsLocked { try await api.unlockStaffSession() }
                try await staff.restoreSession()
            case .customer: try await customer.restoreSession()
            case nil: break
            }
        } catch let error as CredentialAccessError {
            launchProblem = "Your sign-in is locked (\(error)). Sign in again, or restart the app to try Face ID again."
        } catch {
            credentialsUnreadable = true
        }
    }

    /// The app came to the foreground: a session kept offline at launch is checked again, a
    /// push registration that failed is tried again, and from now until
    /// `appWillResignActive()` a staff session is refreshed a minute before its access token
    /// expires, so no request waits for it.
    public func appBecameActive() {
        isActive = true
        if credentialsUnreadable {
            // Coming back may be the unlock the store waited for.
            Task { await retryReadingCredentials() }
            return
        }
        // A refresh the locked device would not let be written is written now (the device is
        // unlocked: the app is in front), whatever the app's own lock decides below.
        try? api.saveUnsavedStaffSession()
        // With a lock, nothing starts before the launch has decided whether it is closed: the
        // launch calls this again when it is done.
        guard hasLaunched || lock == nil else { return }
        if let lock {
            if case .signedIn = api.authState { lock.cameToForeground(hasSession: true) } else { lock.cameToForeground(hasSession: false) }
            // Locked: nothing is sent with the session until `unlock()`.
            if lock.isLocked {
                push?.isPaused = true
                keepingFresh?.cancel()
                keepingFresh = nil
                return
            }
        }
        Task { await recheckOffline() }
        if let push { Task { await push.appBecameActive() } }
        keepFresh()
    }

    /// Refreshes a staff session a minute before each expiry, until the app leaves the
    /// foreground or the network path goes (nothing while it is gone).
    private func keepFresh() {
        keepingFresh?.cancel()
        keepingFresh = nil
        guard !isOffline else { return }
        let (api, clock) = (self.api, self.clock)
        keepingFresh = Task {
            while !Task.isCancelled {
                // Network and server trouble are retried in half a minute; a refused session
                // ends (the state stream says so) and so does this loop.
                let next: Date?
                do { next = try await api.refreshIfNeeded() } catch let error as APIError where error.isRefusalOfTheSession { return } catch { next = clock.now().addingTimeInterval(90) }
                guard let next else { return }
                let wait = min(max(next.timeIntervalSince(clock.now()) - 60, 5), 3600)
                try? await clock.sleep(.seconds(wait))
            }
        }
    }

    /// A session kept `.offline` (the server could not confirm it at launch) is asked about
    /// again: signed in, or signed out if the server now refuses it; still offline otherwise.
    /// Call it when the network comes back too (`appBecameActive()` does on each foreground).
    public func recheckOffline() async {
        if case .offline = staff.state { try? await staff.restoreSession() }
        if case .offline = customer.state { try? await customer.restoreSession() }
    }

    /// The app leaves the foreground: no refresh in the background.
    public func appWillResignActive() {
        isActive = false
        lock?.wentToBackground()
        keepingFresh?.cancel()
        keepingFresh = nil
    }

    /// Whether the foreground refresh is running.
    public var isKeepingSessionFresh: Bool { keepingFresh != nil }

    /// The notice was shown.
    public func dismissNotice() {
        notice = nil
    }

    public var screen: Screen {
        guard hasLaunched else { return .launching }
        if credentialsUnreadable { return .credentialsUnreadable }
        if lock?.isLocked == true, roles.role != nil { return .locked }
        switch roles.role {
        case nil:
            return .roleSelection
        case .staff:
            switch staff.state {
            case .signedOut: return .staffLogin
            case .awaitingSecondFactor: return .staffSecondFactor
            case .awaitingMagicCode: return .staffMagicCode
            case .signedIn(let me) where me.company.status != .active: return .staffQuarantined
            case .signedIn, .offline:
                // Recovery codes just shown stay on screen until acknowledged, even once a refresh lifted the restriction.
                return staff.enrolment.isRestricted || !staff.recoveryCodesToAcknowledge.isEmpty ? .staffEnrolment : .staffMain
            }
        case .customer:
            switch customer.state {
            case .signedOut: return .customerLogin
            case .codeSent: return .customerCode
            case .selectingCompany: return .customerCompanySelection
            case .signedIn, .offline: return .customerMain
            }
        }
    }

    /// Back to the role choice from a login screen ("I'm a customer" / "I'm staff").
    public func switchRole() {
        staff.cancel()
        customer.cancel()
        roles.clear()
    }
}
