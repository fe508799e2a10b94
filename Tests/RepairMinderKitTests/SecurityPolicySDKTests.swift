import ExtrasBase64
import Foundation
import RepairMinderKit
import RepairMinderModels
import TestSupport
import Testing

@testable import RepairMinderServer

/// The shop's security policy (docs/API.md §13) through the SDK, against the real server: an
/// admin's `SecurityPolicyClient` and settings screen, and a member's `EnrolmentStatus`, from
/// the grace period's banner to a restricted session that enrols and gets full access without
/// signing in again.
@MainActor
@Suite struct SecurityPolicySDKTests {
    nonisolated static let site = "https://repairminder.test"

    /// Signs in with password and emailed code.
    static func signedIn(_ auth: StaffAuth, _ server: LiveServer, _ email: String, _ password: String) async throws {
        try await auth.login(email: email, password: password)
        try await auth.requestEmailCode()
        try await auth.verifySecondFactor(code: try await server.latestCode(to: email))
    }

    /// The admin requires `factor` with `graceDays` of grace; the policy as changed. The
    /// deadline is `graceDays` from its `updatedAt`: the demo users were created on the wall
    /// clock, after the test clock started (minutes after, on a loaded machine), so the test
    /// clock is first moved past the wall clock (a deadline counts from the later of the two).
    @discardableResult
    static func require(_ factor: RequiredFactor, graceDays: Int, _ server: LiveServer, _ url: URL) async throws -> SecurityPolicy {
        let admin = StaffAuth(api: server.client(url))
        try await signedIn(admin, server, DemoFixtures.adminEmail, DemoFixtures.adminPassword)
        server.clock.advance(by: max(0, Date().timeIntervalSince(server.clock.date)) + 1)
        return try await SecurityPolicyClient(api: admin.api).update(SecurityPolicyUpdate(requiredFactor: factor, enrolmentGraceDays: graceDays))
    }

    /// The authenticator app's current code for `setup`, on the server's clock.
    static func currentCode(_ setup: TOTPSetupResponse, _ server: LiveServer) throws -> String {
        let generator = TOTPGenerator()
        return generator.code(secret: try Base32.decode(string: setup.secret), step: generator.step(at: server.clock.now))
    }

    @Test func anAdminReadsAndChangesThePolicy() async throws {
        let server = try await LiveServer()
        try await server.run { url in try await Self.anAdminReadsAndChangesThePolicy(server, url) }
    }

    static func anAdminReadsAndChangesThePolicy(_ server: LiveServer, _ url: URL) async throws {
        let admin = StaffAuth(api: server.client(url))
        try await Self.signedIn(admin, server, DemoFixtures.adminEmail, DemoFixtures.adminPassword)
        #expect(SettingsViewModel(staff: admin).canManageSecurityPolicy)
        let client = SecurityPolicyClient(api: admin.api)
        let defaults = try await client.policy()
        #expect(defaults.requiredFactor == .notRequired)
        #expect(defaults.allowMagicLink)
        #expect(defaults.enrolmentGraceDays == 7)
        #expect(defaults.updatedAt == nil && defaults.updatedBy == nil)

        let changed = try await client.update(
            SecurityPolicyUpdate(
                requiredFactor: .passkey, allowMagicLink: false, enrolmentGraceDays: 3,
                sessionMaxLifetimeDays: SessionLifetimeUpdate(web: 10)))
        #expect(changed.requiredFactor == .passkey)
        #expect(!changed.allowMagicLink)
        #expect(changed.enrolmentGraceDays == 3)
        #expect(changed.sessionMaxLifetimeDays.web == 10)
        #expect(changed.sessionMaxLifetimeDays.mobile == defaults.sessionMaxLifetimeDays.mobile)
        #expect(changed.updatedBy?.email == DemoFixtures.adminEmail)
        #expect(try await client.policy() == changed)

        // Out of range: the server's words, naming the field; nothing changes.
        do {
            try await client.update(SecurityPolicyUpdate(enrolmentGraceDays: 31))
            Issue.record("a grace period of 31 days was accepted")
        } catch let error as RepairMinderKit.APIError {
            #expect(error.code == .validationError)
            #expect(error.message.contains("enrolmentGraceDays"), "\(error.message)")
        }
        #expect(try await client.policy() == changed)

        // Another role reads it and may not change it.
        let engineer = StaffAuth(api: server.client(url))
        try await Self.signedIn(engineer, server, DemoFixtures.engineerEmail, DemoFixtures.engineerPassword)
        #expect(!SettingsViewModel(staff: engineer).canManageSecurityPolicy)
        let engineerClient = SecurityPolicyClient(api: engineer.api)
        // The engineer has 3 days' grace to add a passkey: reading works meanwhile.
        #expect(try await engineerClient.policy().requiredFactor == .passkey)
        do {
            try await engineerClient.update(SecurityPolicyUpdate(requiredFactor: .notRequired))
            Issue.record("an engineer changed the policy")
        } catch let error as RepairMinderKit.APIError {
            #expect(error.message == "You do not have permission to do this")
        }
    }

    @Test func theSignInRequirementsScreenSavesOnlyWhatChanged() async throws {
        let server = try await LiveServer()
        try await server.run { url in try await Self.theSignInRequirementsScreenSavesOnlyWhatChanged(server, url) }
    }

    static func theSignInRequirementsScreenSavesOnlyWhatChanged(_ server: LiveServer, _ url: URL) async throws {
        let admin = StaffAuth(api: server.client(url))
        try await Self.signedIn(admin, server, DemoFixtures.adminEmail, DemoFixtures.adminPassword)
        let screen = SecurityPolicyViewModel(client: SecurityPolicyClient(api: admin.api))
        #expect(!screen.canSave)
        await screen.load()
        #expect(screen.policy?.requiredFactor == .notRequired)
        #expect(screen.change == nil)
        #expect(screen.lastChanged == nil)
        #expect(!screen.canSave)

        screen.requiredFactor = .appOrPasskey
        screen.enrolmentGraceDays = 31
        #expect(screen.problem == "The grace period is 0 to 30 days.")
        #expect(!screen.canSave)
        screen.enrolmentGraceDays = 14
        screen.sessionMaxMobileDays = 60
        #expect(screen.change == SecurityPolicyUpdate(
            requiredFactor: .appOrPasskey, enrolmentGraceDays: 14, sessionMaxLifetimeDays: SessionLifetimeUpdate(mobile: 60)))
        #expect(screen.canSave)
        await screen.save()
        #expect(screen.errorMessage == nil)
        #expect(screen.confirmation == "Saved. Signed-in staff follow the new requirements at their next refresh.")
        #expect(screen.change == nil)
        #expect(screen.lastChanged?.hasPrefix("Last changed by admin@acme.test on ") == true)
        let saved = try await SecurityPolicyClient(api: admin.api).policy()
        #expect(saved.requiredFactor == .appOrPasskey && saved.enrolmentGraceDays == 14 && saved.sessionMaxLifetimeDays.mobile == 60)
        #expect(saved.allowMagicLink)

        // A lifetime beyond the server's own: the server's message, and the form keeps the edit.
        screen.sessionMaxWebDays = 10_000
        await screen.save()
        #expect(screen.errorMessage?.contains("sessionMaxLifetimeDays.web") == true, "\(screen.errorMessage ?? "")")
        #expect(screen.sessionMaxWebDays == 10_000)
        screen.discardChanges()
        #expect(screen.change == nil)
    }

    /// The issue's main path: a member of a shop that requires the app or a passkey with no
    /// grace signs in to a restricted session, is refused elsewhere, enrols the app through the
    /// enrolment screen's model and has full access without signing in again.
    @Test func aRestrictedMemberEnrolsTheAppAndGetsFullAccessWithoutSigningInAgain() async throws {
        let server = try await LiveServer()
        try await server.run { url in try await Self.aRestrictedMemberEnrolsTheAppAndGetsFullAccessWithoutSigningInAgain(server, url) }
    }

    static func aRestrictedMemberEnrolsTheAppAndGetsFullAccessWithoutSigningInAgain(_ server: LiveServer, _ url: URL) async throws {
        try await Self.require(.appOrPasskey, graceDays: 0, server, url)
        let transport = ObservingTransport()
        let store = InMemoryCredentialStore()
        let app = AppModel(api: server.client(url, store: store, transport: transport))
        app.roles.select(.staff)
        await app.launch()
        #expect(app.screen == .staffLogin)
        let auth = app.staff
        try await Self.signedIn(auth, server, DemoFixtures.engineerEmail, DemoFixtures.engineerPassword)

        // Signed in, restricted: the SDK says so at once, and the app shows enrolment.
        guard case .signedIn(let me) = auth.state else { Issue.record("not signed in"); return }
        #expect(me.user.email == DemoFixtures.engineerEmail)
        #expect(auth.enrolment.isRestricted)
        #expect(auth.enrolment.methods == [.totp, .passkey])
        #expect(auth.enrolment.deadline != nil)
        #expect(auth.api.enrolmentStatus == auth.enrolment)
        #expect(app.screen == .staffEnrolment)
        #expect(EnrolmentBannerViewModel(auth: auth).text == nil)

        // Another route is refused as restricted, not as a generic error, and a restricted
        // token is not refreshed for it; `me` still answers.
        await #expect(throws: RepairMinderKit.APIError.enrolmentRequired(message: "Your shop requires an authenticator app or a passkey. Set one up to continue.")) {
            _ = try await auth.sessions()
        }
        await #expect(throws: RepairMinderKit.APIError.self) { _ = try await SecurityPolicyClient(api: auth.api).policy() }
        #expect(transport.count("/api/auth/refresh") == 0)
        try await auth.reload()

        // A relaunch knows it before any request (it is kept with the tokens).
        let relaunched = APIClient(baseURL: url, store: store, transport: transport, now: { server.clock.date })
        #expect(relaunched.enrolmentStatus.isRestricted)

        // The enrolment screen: the app (no passkeys on this device), then a refresh.
        let screen = EnrolmentViewModel(auth: auth)
        #expect(screen.offersAuthenticatorApp)
        #expect(!screen.offersPasskey)
        #expect(!screen.needsAnotherDevice)
        #expect(screen.explanation == "Your shop requires an authenticator app or a passkey. Set one up to continue.")
        await screen.finish()
        #expect(!screen.isFinished)
        #expect(screen.errorMessage == "Your shop still requires an authenticator app or a passkey. Set one up first.")
        await screen.startAuthenticatorApp()
        let setup = try #require(screen.authenticatorSetup)
        #expect(setup.otpauthUrl.hasPrefix("otpauth://totp/"))
        let current = try Self.currentCode(setup, server)
        await screen.codeChanged(current == "000000" ? "111111" : "000000")
        #expect(screen.errorMessage != nil)
        #expect(screen.recoveryCodes.isEmpty)
        await screen.codeChanged(current)
        #expect(screen.errorMessage == nil, "\(screen.errorMessage ?? "")")
        #expect(screen.recoveryCodes.count == 10)
        // Still restricted until the refresh: the recovery codes stay on screen meanwhile.
        #expect(app.screen == .staffEnrolment)
        await screen.finish()
        #expect(screen.errorMessage == nil, "\(screen.errorMessage ?? "")")
        #expect(screen.isFinished)
        #expect(auth.enrolment == .fullAccess)
        #expect(auth.api.enrolmentStatus == .fullAccess)
        #expect(app.screen == .staffMain)

        // The refused request works now, in the same session: no second sign-in.
        let sessions = try await auth.sessions()
        #expect(sessions.count == 1)
        #expect(sessions.first?.current == true)
        #expect(transport.count("/api/auth/2fa/verify") == 1)
    }

    /// A tightening reaches a session that signed in with full access: its next request is
    /// refused, the SDK refreshes once, surfaces the restriction, and refreshes no more for it;
    /// a passkey added through the enrolment screen lifts it.
    @Test func aTighteningRestrictsASignedInMemberWhoThenAddsAPasskey() async throws {
        let server = try await LiveServer { $0.publicURL = Self.site }
        try await server.run { url in try await Self.aTighteningRestrictsASignedInMemberWhoThenAddsAPasskey(server, url) }
    }

    static func aTighteningRestrictsASignedInMemberWhoThenAddsAPasskey(_ server: LiveServer, _ url: URL) async throws {
        let transport = ObservingTransport()
        let authenticator = SoftwarePasskeyAuthenticator(origin: Self.site)
        let auth = StaffAuth(api: server.client(url, transport: transport), passkeyAuthenticator: authenticator)
        try await Self.signedIn(auth, server, DemoFixtures.engineerEmail, DemoFixtures.engineerPassword)
        #expect(auth.enrolment == .fullAccess)
        #expect(try await auth.sessions().count == 1)

        try await Self.require(.passkey, graceDays: 0, server, url)
        do {
            _ = try await auth.sessions()
            Issue.record("a session past its deadline was answered")
        } catch let error as RepairMinderKit.APIError {
            #expect(error == .enrolmentRequired(message: "Your shop requires an authenticator app or a passkey. Set one up to continue."))
            #expect(error.code == .factorEnrolmentRequired)
        }
        #expect(transport.count("/api/auth/refresh") == 1)
        #expect(auth.api.enrolmentStatus.isRestricted)
        #expect(auth.api.enrolmentStatus.methods == [.passkey])
        try await waitUntil("StaffAuth follows the refresh") { auth.enrolment.isRestricted }
        await #expect(throws: RepairMinderKit.APIError.self) { _ = try await auth.sessions() }
        #expect(transport.count("/api/auth/refresh") == 1)

        let screen = EnrolmentViewModel(auth: auth)
        #expect(!screen.offersAuthenticatorApp)
        #expect(screen.offersPasskey)
        #expect(screen.explanation == "Your shop requires a passkey. Set one up to continue.")
        screen.passkeyName = " Work phone "
        await screen.addPasskey()
        #expect(screen.errorMessage == nil, "\(screen.errorMessage ?? "")")
        #expect(screen.isFinished)
        #expect(auth.enrolment == .fullAccess)
        // At once: the factors the server read at the refused request above (none) were not
        // kept in its caller cache (`StaffIdentity`).
        #expect(try await auth.passkeys().map(\.name) == ["Work phone"])
        #expect(try await auth.sessions().count == 1)
    }

    /// Within the grace period the session has full access and the SDK reports the deadline
    /// (the banner's); after it, the session is restricted at its next request.
    @Test func withinTheGracePeriodTheSDKReportsTheDeadline() async throws {
        let server = try await LiveServer()
        try await server.run { url in try await Self.withinTheGracePeriodTheSDKReportsTheDeadline(server, url) }
    }

    static func withinTheGracePeriodTheSDKReportsTheDeadline(_ server: LiveServer, _ url: URL) async throws {
        let policy = try await Self.require(.appOrPasskey, graceDays: 1, server, url)
        let app = AppModel(api: server.client(url))
        app.roles.select(.staff)
        await app.launch()
        let auth = app.staff
        try await Self.signedIn(auth, server, DemoFixtures.engineerEmail, DemoFixtures.engineerPassword)
        #expect(auth.enrolment.isInGracePeriod)
        #expect(!auth.enrolment.isRestricted)
        #expect(auth.enrolment.methods == [.totp, .passkey])
        let deadline = try #require(auth.enrolment.deadline)
        // One day from the policy's change.
        let changed = try Date(try #require(policy.updatedAt), strategy: .iso8601)
        #expect(deadline == changed.addingTimeInterval(86_400), "\(deadline)")
        #expect(app.screen == .staffMain)
        let banner = EnrolmentBannerViewModel(auth: auth, locale: Locale(identifier: "en_GB"), timeZone: .gmt)
        #expect(banner.isShown)
        let style = Date.FormatStyle(date: .abbreviated, time: .shortened, locale: Locale(identifier: "en_GB"), timeZone: .gmt)
        #expect(banner.text == "Your shop requires an authenticator app or a passkey by \(deadline.formatted(style)).")
        #expect(try await auth.sessions().count == 1)
        #expect(EnrolmentViewModel(auth: auth).explanation
            == "Your shop requires an authenticator app or a passkey. Set one up now, before your deadline.")

        // The deadline passes: the next request is refused and the app shows enrolment.
        server.clock.advance(by: 86_400)
        await #expect(throws: RepairMinderKit.APIError.self) { _ = try await auth.sessions() }
        try await waitUntil("StaffAuth follows the refresh") { auth.enrolment.isRestricted }
        #expect(app.screen == .staffEnrolment)
        #expect(!banner.isShown)
    }

    /// The status is kept with the stored tokens: a relaunch shows the banner before any request.
    @Test func theBannerReadsTheStoredDeadline() throws {
        let store = InMemoryCredentialStore()
        try store.saveStaff(
            StaffCredentials(
                accessToken: "a", refreshToken: "r", accessTokenExpiresAt: Date().addingTimeInterval(600),
                enrolmentRequired: EnrolmentRequirement(methods: [.passkey], deadline: "2026-12-03T10:00:00Z")))
        let auth = StaffAuth(api: APIClient(baseURL: URL(fileURLWithPath: "/"), store: store))
        #expect(auth.enrolment.isInGracePeriod)
        #expect(auth.enrolment.deadline == Date(timeIntervalSince1970: 1_796_292_000))
        let banner = EnrolmentBannerViewModel(auth: auth, locale: Locale(identifier: "en_GB"), timeZone: .gmt)
        #expect(banner.text == "Your shop requires a passkey by 3 Dec 2026 at 10:00.")
        #expect(EnrolmentText.factors([.totp, .passkey]) == "an authenticator app or a passkey")
    }
}
