import Foundation
import Observation
import RepairMinderModels

/// The staff sign-in state machine (docs/API.md §2, §11): password → second factor → signed in,
/// magic link → code → (second factor →) signed in, or a passkey alone; session restore at
/// launch; logout. It follows the client's
/// session state: when the session ends elsewhere (a refused refresh), it returns to
/// `.signedOut` by itself; and what the shop's security policy asks of the session
/// (`enrolment`, docs/API.md §13.3), updated at every sign-in and refresh.
@MainActor @Observable
public final class StaffAuth {
    /// Where sign-in stands.
    public enum State: Equatable, Sendable {
        case signedOut
        /// The password was right; a second factor is needed for this login challenge.
        case awaitingSecondFactor(LoginChallengeResponse)
        /// A magic-link code was sent to this email.
        case awaitingMagicCode(email: String)
        case signedIn(StaffMeResponse)
        /// Credentials are stored but the server could not be reached to confirm them: the
        /// staff member and company as the last confirmed session had them (nil when this
        /// device never saw one confirmed), so the app can say who is signed in.
        case offline(StaffMeResponse?)
    }

    public private(set) var state: State = .signedOut {
        didSet { rememberProfile() }
    }
    /// What the shop's security policy asks of this session (docs/API.md §13.3), as its sign-in
    /// or latest refresh said (`APIClient.enrolmentStatus`): restricted, the app shows the
    /// enrolment screen instead of its tabs; in the grace period, a banner with the deadline.
    public private(set) var enrolment: EnrolmentStatus
    /// The recovery codes of an authenticator app just enabled, until the person says they kept
    /// them (`acknowledgeRecoveryCodes()`): the app keeps the enrolment screen up meanwhile,
    /// whatever a refresh says of the session, so they are never hidden before being read.
    public internal(set) var recoveryCodesToAcknowledge: [String] = []
    public let api: APIClient
    /// The push token this session registered, unregistered at logout. It is kept in the
    /// credential store, so a logout after a relaunch still unregisters it.
    public var registeredDeviceToken: String? {
        get { sessionDeviceToken ?? (try? api.store.registeredDeviceToken(for: .staff)) }
        set {
            sessionDeviceToken = newValue
            // A store that cannot be written (a locked Keychain) keeps it for this launch only.
            try? api.store.saveRegisteredDeviceToken(newValue, for: .staff)
        }
    }
    @ObservationIgnored private var sessionDeviceToken: String?
    /// Makes and uses passkeys; nil where there is none (then the passkey methods throw
    /// `PasskeyError.unavailable` and the screens do not offer them).
    public let passkeyAuthenticator: (any PasskeyAuthenticator)?

    public init(api: APIClient, passkeyAuthenticator: (any PasskeyAuthenticator)? = nil) {
        self.api = api
        self.passkeyAuthenticator = passkeyAuthenticator
        enrolment = api.enrolmentStatus
        SessionFollower.follow(api, role: .staff) { [weak self] in self?.sessionEnded() }
        // A refresh anywhere (the foreground refresh, one after a 403 FACTOR_ENROLMENT_REQUIRED)
        // may restrict the session or lift its restriction.
        let statuses = api.enrolmentStatuses()
        Task { [weak self] in
            for await status in statuses {
                guard let self else { return }
                if self.enrolment != status { self.enrolment = status }
            }
        }
        let events = api.events
        Task { [weak self] in
            for await event in events {
                guard case .quarantined(let status) = event else { continue }
                guard let self else { return }
                self.shopQuarantined(status)
            }
        }
    }

    /// At launch: signed in if the stored credentials still work, signed out if the server
    /// refused them, `offline` (the session kept) for anything else: no network, 429, 5xx, an
    /// answer it could not read, or the launch being cancelled. A credential store that cannot
    /// be read throws: that is not the same as having no session.
    public func restoreSession() async throws {
        guard try api.hasStoredSession(.staff) else {
            state = .signedOut
            return
        }
        do {
            // A policy was in force at the last sign-in or refresh: ask where the session stands
            // now (the user may have enrolled on another device, or an admin relaxed the policy).
            if api.enrolmentStatus.requirement != nil { try await refreshEnrolment() }
            state = .signedIn(try await api.send(Routes.staffAuth.me))
        } catch let error as APIError where error.isRefusalOfTheSession {
            if case .unauthorized(_, let code) = error { try? await api.signedOut(.staff, reason: .sessionRejected(code: code)) }
            state = .signedOut
        } catch {
            state = .offline(try? api.store.staffProfile())
        }
    }

    /// Keeps the signed-in staff member for an offline launch; forgets them once signed out.
    private func rememberProfile() {
        switch state {
        case .signedIn(let me):
            try? api.store.saveStaffProfile(me)
            api.userRead(.staff(me))
        case .signedOut: try? api.store.delete(.staffProfile)
        case .offline, .awaitingSecondFactor, .awaitingMagicCode: break
        }
    }

    /// The session ended without this machine (a refused refresh): back to sign-in.
    private func sessionEnded() {
        registeredDeviceToken = nil
        switch state {
        case .signedIn, .offline: state = .signedOut
        case .signedOut, .awaitingSecondFactor, .awaitingMagicCode: break
        }
    }

    /// A request was refused because the shop is now pending approval or suspended: the
    /// signed-in state says so, which moves the app to the quarantine screen, whose "Check
    /// again" (`reload()`) reads the company's real status.
    private func shopQuarantined(_ status: APIError.QuarantineStatus) {
        guard case .signedIn(var me) = state else { return }
        me.company.status = status == .suspended ? .suspended : .pendingApproval
        state = .signedIn(me)
    }

    /// Reads the signed-in user and their company again: after an operator approved or
    /// suspended the shop, say ("Check again" on the quarantine screen), or, from `.offline`,
    /// once the network is back ("Try again").
    public func reload() async throws {
        switch state {
        case .signedIn, .offline: state = .signedIn(try await api.send(Routes.staffAuth.me))
        case .signedOut, .awaitingSecondFactor, .awaitingMagicCode: throw SignInFlowError.noLoginInProgress
        }
    }

    /// Login step 1. Emails are trimmed; the server compares them case-insensitively.
    public func login(email: String, password: String) async throws {
        let challenge = try await api.send(
            Routes.staffAuth.login,
            LoginRequest(email: email.trimmingCharacters(in: .whitespacesAndNewlines), password: password))
        state = .awaitingSecondFactor(challenge)
    }

    /// Login step 2: email a code (also "resend code"). For a user with an authenticator app or
    /// passkeys the server sends nothing and says so; that message is returned.
    @discardableResult
    public func requestEmailCode() async throws -> String {
        guard case .awaitingSecondFactor(let challenge) = state else { throw SignInFlowError.noLoginInProgress }
        return try await api.send(
            Routes.staffAuth.requestTwoFactorCode,
            TwoFactorCodeRequest(userId: challenge.userId, email: challenge.email, challengeToken: challenge.challengeToken)
        ).message
    }

    /// Login step 3 with an emailed code, an authenticator code or a recovery code.
    public func verifySecondFactor(code: String) async throws {
        guard case .awaitingSecondFactor(let challenge) = state else { throw SignInFlowError.noLoginInProgress }
        let tokens = try await api.send(
            Routes.staffAuth.verifyTwoFactorCode,
            TwoFactorVerifyRequest(
                userId: challenge.userId, code: code.trimmingCharacters(in: .whitespaces), challengeToken: challenge.challengeToken))
        try await finishSignIn(tokens)
    }

    /// Login step 3 with one of the user's passkeys, answering step 1's passkey options.
    public func verifySecondFactorWithPasskey() async throws {
        guard case .awaitingSecondFactor(let challenge) = state else { throw SignInFlowError.noLoginInProgress }
        guard let options = challenge.passkey else { throw PasskeyError.notOffered }
        let assertion = try await authenticator().signIn(options)
        let tokens = try await api.send(
            Routes.staffAuth.verifyTwoFactorCode,
            TwoFactorVerifyRequest(userId: challenge.userId, passkey: assertion, challengeToken: challenge.challengeToken))
        try await finishSignIn(tokens)
    }

    /// Signs in with a passkey alone (usernameless: the person picks one of this site's).
    public func signInWithPasskey() async throws {
        let authenticator = try authenticator()
        let options = try await api.send(Routes.passkeys.loginOptions)
        let assertion = try await authenticator.signIn(options.publicKey)
        let tokens = try await api.send(
            Routes.passkeys.login, PasskeyLoginRequest(challengeId: options.challengeId, credential: assertion))
        try await finishSignIn(tokens)
    }

    public func requestMagicLink(email: String) async throws {
        let trimmed = email.trimmingCharacters(in: .whitespacesAndNewlines)
        _ = try await api.send(Routes.staffAuth.requestMagicLink, MagicLinkRequest(email: trimmed))
        state = .awaitingMagicCode(email: trimmed)
    }

    /// A magic-link code was asked for earlier (by another run of a script, or before a
    /// relaunch): enter it without asking for another.
    public func expectMagicCode(sentTo email: String) {
        state = .awaitingMagicCode(email: email.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    public func verifyMagicCode(_ code: String) async throws {
        guard case .awaitingMagicCode(let email) = state else { throw SignInFlowError.noLoginInProgress }
        switch try await api.send(Routes.staffAuth.verifyMagicLink, MagicLinkVerifyRequest(email: email, code: code)) {
        case .signedIn(let tokens): try await finishSignIn(tokens)
        // The account has an authenticator app or passkeys: the code stood in for the password.
        case .secondFactorRequired(let challenge): state = .awaitingSecondFactor(challenge)
        }
    }

    /// Abandons a login in progress.
    public func cancel() {
        if case .signedIn = state { return }
        state = .signedOut
    }

    /// Signs out: tells the server (best effort), unregisters this device's push token, and
    /// always clears local state, even when the server cannot be reached.
    public func logout() async {
        if let token = registeredDeviceToken {
            try? await PushRegistration.unregister(token, role: .staff, api: api)
        }
        _ = try? await api.send(Routes.staffAuth.logout)
        registeredDeviceToken = nil
        try? await api.signedOut(.staff, reason: .userInitiated)
        enrolment = .fullAccess
        recoveryCodesToAcknowledge = []
        state = .signedOut
    }

    // MARK: Account lifecycle (docs/API.md §9)

    /// Registers a new shop and its first admin: a code is emailed to `email` (the answer is the
    /// same when the address already has an account: its owner gets a mail without a code).
    /// `verifyRegistration` finishes. Returns the trimmed email the code was sent to.
    @discardableResult
    public func register(companyName: String, firstName: String, lastName: String, email: String, password: String) async throws
        -> String
    {
        let trimmed = email.trimmingCharacters(in: .whitespacesAndNewlines)
        _ = try await api.send(
            Routes.accountLifecycle.register,
            RegisterRequest(
                companyName: companyName.trimmingCharacters(in: .whitespacesAndNewlines),
                firstName: firstName.trimmingCharacters(in: .whitespacesAndNewlines),
                lastName: lastName.trimmingCharacters(in: .whitespacesAndNewlines), email: trimmed, password: password))
        return trimmed
    }

    /// The emailed registration code creates the shop (pending approval) and signs in: the app
    /// then shows the quarantine screen until an operator approves the shop.
    public func verifyRegistration(email: String, code: String) async throws {
        let tokens = try await api.send(
            Routes.accountLifecycle.verifyRegistration,
            RegisterVerifyRequest(email: email.trimmingCharacters(in: .whitespacesAndNewlines), code: code.trimmingCharacters(in: .whitespaces)))
        try await finishSignIn(tokens)
    }

    /// Emails a password reset code, if the address has an account (the answer never says).
    public func requestPasswordReset(email: String) async throws {
        _ = try await api.send(
            Routes.accountLifecycle.forgotPassword, ForgotPasswordRequest(email: email.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    /// Sets a new password with the emailed code. Every session of the account is signed out,
    /// this device's included: sign in again with the new password.
    public func resetPassword(email: String, code: String, newPassword: String) async throws {
        _ = try await api.send(
            Routes.accountLifecycle.resetPassword,
            ResetPasswordRequest(
                email: email.trimmingCharacters(in: .whitespacesAndNewlines), code: code.trimmingCharacters(in: .whitespaces),
                password: newPassword))
        if case .signedIn = state {
            try? await api.signedOut(.staff, reason: .userInitiated)
            state = .signedOut
        }
    }

    /// Sets (no `current` needed when the account has no password) or changes the password.
    /// The other sessions of the account are signed out; this one stays.
    public func changePassword(current: String?, new: String) async throws {
        _ = try await api.send(Routes.accountLifecycle.changePassword, ChangePasswordRequest(currentPassword: current, newPassword: new))
        if let me = try? await api.send(Routes.staffAuth.me) { state = .signedIn(me) }
    }

    /// Deletes the signed-in account for good (docs/API.md §9.5): every device is signed out,
    /// this one included, and the address can be used again. `password` is required when the
    /// account has one; without one, the sign-in must be less than 10 minutes old (the error
    /// `.reauthenticationRequired` says to sign in again). The shop's only active member must
    /// pass `closeShop` (the error `.shopCloseRequired` asks for it), which closes the shop too.
    public func deleteAccount(password: String?, closeShop: Bool = false) async throws {
        _ = try await api.send(
            Routes.accountLifecycle.deleteAccount, DeleteAccountRequest(password: password, closeShop: closeShop ? true : nil))
        registeredDeviceToken = nil
        try? await api.signedOut(.staff, reason: .accountDeleted)
        enrolment = .fullAccess
        recoveryCodesToAcknowledge = []
        state = .signedOut
    }

    /// Everything the server keeps about the signed-in account, as the server sends it (JSON an
    /// app can share or save): its profile, factors, devices and every security event.
    public func exportAccount() async throws -> AccountExport {
        try await api.send(Routes.accountLifecycle.exportAccount)
    }

    /// The account's signed-in devices, newest first; `current` marks this one.
    public func sessions() async throws -> [SessionInfo] {
        try await api.send(Routes.accountLifecycle.sessions)
    }

    /// Signs out one of the account's other devices.
    public func revokeSession(_ id: String) async throws {
        _ = try await api.send(Routes.accountLifecycle.revokeSession, path: [id])
    }

    /// Signs out every other device of the account; how many were signed out.
    @discardableResult
    public func signOutOtherDevices() async throws -> Int {
        try await api.send(Routes.accountLifecycle.logoutOthers).revoked
    }

    /// Page `page` of the account's security events (sign-ins, factor changes), newest first.
    public func activity(page: Int = 1, limit: Int? = nil) async throws -> Page<ActivityEvent> {
        try await api.page(Routes.accountLifecycle.activity, page: page, limit: limit)
    }

    // MARK: Invitations (docs/API.md §12.4)

    /// What an invitation link (`/invite?token=`) offers: the shop, the role, the address.
    public func invitation(token: String) async throws -> InvitationPreview {
        try await api.send(Routes.team.invitation, path: [token])
    }

    /// Joins the shop the invitation is to and signs in; without a password, the account signs
    /// in later by magic link or passkey.
    public func acceptInvitation(token: String, password: String?, firstName: String? = nil, lastName: String? = nil) async throws {
        let tokens = try await api.send(
            Routes.team.acceptInvitation,
            AcceptInvitationRequest(token: token, password: password, firstName: firstName, lastName: lastName))
        try await finishSignIn(tokens)
    }

    // MARK: Passkeys (docs/API.md §11.2)

    /// The signed-in user's passkeys, oldest first.
    public func passkeys() async throws -> [Passkey] {
        try await api.send(Routes.passkeys.list)
    }

    /// Makes a passkey on this device and enrols it under `name` ("iPhone").
    @discardableResult
    public func addPasskey(name: String?) async throws -> Passkey {
        let authenticator = try authenticator()
        let options = try await api.send(Routes.passkeys.registrationOptions)
        let credential = try await authenticator.createPasskey(options.publicKey)
        return try await api.send(
            Routes.passkeys.register, PasskeyRegistrationRequest(challengeId: options.challengeId, name: name, credential: credential))
    }

    public func removePasskey(_ id: String) async throws {
        _ = try await api.send(Routes.passkeys.remove, path: [id])
    }

    private func authenticator() throws -> any PasskeyAuthenticator {
        guard let passkeyAuthenticator else { throw PasskeyError.unavailable }
        return passkeyAuthenticator
    }

    // MARK: The shop's security policy (docs/API.md §13.3)

    /// Refreshes the session to learn where it stands against the shop's policy now: after the
    /// user enrolled the factor their shop requires (`confirmAuthenticatorApp`, `addPasskey`), a
    /// restricted session gets full access at once, without signing in again.
    public func refreshEnrolment() async throws {
        enrolment = try await api.refreshSession()
    }

    private func finishSignIn(_ tokens: StaffTokenResponse) async throws {
        try await api.signedIn(staff: tokens)
        enrolment = api.enrolmentStatus
        state = .signedIn(StaffMeResponse(user: tokens.user, company: tokens.company, hasPassword: true))
        // The token response does not say whether a password is set; /me does.
        if let me = try? await api.send(Routes.staffAuth.me) { state = .signedIn(me) }
    }
}
