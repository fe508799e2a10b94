import Foundation
import Logging
import RepairMinderKit
import RepairMinderModels
import RepairMinderServer
import TestSupport
import Testing

/// Rows of seed 003's test table that the other suites do not cover, and the code screens'
/// resend (issue 17, items 5 and 7), through the app model against the real server. (Push and
/// deep links: `PushAndDeepLinkTests`; staff rows: `AuthStateMachineTests`, `AppLayerTests`.)
@MainActor
@Suite struct Seed003TableTests {
    /// "Invalid customer code: enter wrong code → error message shown."
    @Test func invalidCustomerCodeShowsTheServersMessage() async throws {
        let server = try await LiveServer()
        try await server.run { url in try await Self.invalidCode(server: server, url: url) }
    }

    static func invalidCode(server: LiveServer, url: URL) async throws {
        let app = AppModel(api: server.client(url))
        app.roles.select(.customer)
        await app.launch()
        try await app.customer.requestCode(email: "jane@example.test")
        let screen = CustomerCodeViewModel(auth: app.customer)
        #expect(screen.email == "jane@example.test")
        let right = try await server.latestCode(to: "jane@example.test")
        await screen.codeChanged(right == "000000" ? "111111" : "000000")
        #expect(screen.errorMessage == "Invalid or expired code")
        #expect(screen.code.isEmpty)
        #expect(app.screen == .customerCode)
    }

    /// "Customer session persistence: force quit, reopen → still logged in as customer."
    @Test func aCustomerSessionSurvivesARelaunch() async throws {
        let server = try await LiveServer()
        try await server.run { url in try await Self.customerRelaunch(server: server, url: url) }
    }

    static func customerRelaunch(server: LiveServer, url: URL) async throws {
        let store = InMemoryCredentialStore()
        let app = AppModel(api: server.client(url, store: store))
        app.roles.select(.customer)
        try await app.customer.requestCode(email: "jane@example.test")
        try await app.customer.verify(code: try await server.latestCode(to: "jane@example.test"))
        let relaunched = AppModel(api: server.client(url, store: store))
        #expect(relaunched.api.authState == .signedIn(.customer))
        await relaunched.launch()
        #expect(relaunched.screen == .customerMain)
        guard case .signedIn(let me) = relaunched.customer.state else { Issue.record("not restored"); return }
        #expect(me.client.email == "jane@example.test")
    }

    /// The code screens show where the code went and resend it after the cooldown; a 429's
    /// `Retry-After` becomes the cooldown.
    @Test func codeScreensResendAfterTheCooldown() async throws {
        let server = try await LiveServer { $0.codeResendInterval = 30 }
        try await server.run { url in try await Self.resend(server: server, url: url) }
    }

    static func resend(server: LiveServer, url: URL) async throws {
        let app = AppModel(api: server.client(url))
        try await app.staff.requestMagicLink(email: "engineer@acme.test")
        let screen = MagicCodeViewModel(auth: app.staff)
        #expect(screen.email == "engineer@acme.test")
        #expect(screen.resendCooldown == 30)
        await screen.resend()  // still cooling down: nothing is sent
        #expect(try await Mailbox.messages(to: "engineer@acme.test", settings: server.settings).count == 1)
        for _ in 0..<30 { screen.tick() }
        // The server's own spacing is measured on its clock, which has not moved: 429.
        await screen.resend()
        #expect(screen.errorMessage?.hasPrefix("Too many requests") == true)
        #expect((1...30).contains(screen.resendCooldown))
        server.clock.advance(by: 30)
        for _ in 0..<30 { screen.tick() }
        await screen.resend()
        #expect(screen.errorMessage == nil)
        #expect(screen.resendCooldown == 30)
        #expect(try await Mailbox.messages(to: "engineer@acme.test", settings: server.settings).count == 2)
    }

    /// A shop pending approval shows the quarantine screen; once approved, "Check again" opens the app.
    @Test func aQuarantinedShopShowsItsScreenUntilApproved() async throws {
        let server = try await LiveServer()
        try await server.run { url in try await Self.quarantine(server: server, url: url) }
    }

    static func quarantine(server: LiveServer, url: URL) async throws {
        let app = AppModel(api: server.client(url))
        app.roles.select(.staff)
        await app.launch()
        try await app.staff.login(email: "owner@pending.test", password: "pending password")
        try await app.staff.requestEmailCode()
        try await app.staff.verifySecondFactor(code: try await server.latestCode(to: "owner@pending.test"))
        #expect(app.screen == .staffQuarantined)
        try await app.staff.reload()
        #expect(app.screen == .staffQuarantined)
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let database = try await Database.open(settings: server.settings, logger: logger)
        let company = try await database.companies().first { $0.status == "pending_approval" }
        _ = try await database.setCompanyStatus(try #require(company).id, to: .active, actor: "tests")
        await database.close()
        try await app.staff.reload()
        #expect(app.screen == .staffMain)
    }

    /// A shop suspended during a session: the next refused request (403 `ACCOUNT_SUSPENDED`)
    /// moves the app to the quarantine screen; reactivated, "Check again" returns to the app.
    @Test func aShopSuspendedMidSessionMovesToQuarantine() async throws {
        let server = try await LiveServer()
        try await server.run { url in try await Self.suspendedMidSession(server: server, url: url) }
    }

    static func suspendedMidSession(server: LiveServer, url: URL) async throws {
        let app = AppModel(api: server.client(url))
        app.roles.select(.staff)
        await app.launch()
        try await SessionStateTests.signIn(app.staff, server: server)
        #expect(app.screen == .staffMain)
        guard case .signedIn(let me) = app.staff.state else { throw APIError.notSignedIn }
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let database = try await Database.open(settings: server.settings, logger: logger)
        _ = try await database.setCompanyStatus(me.company.id, to: .suspended, actor: "tests")
        await #expect(throws: APIError.quarantined(status: .suspended, message: "Your account has been suspended. Please contact support.")) {
            _ = try await app.api.send(Routes.push.deviceTokens)
        }
        try await waitUntil { app.screen == .staffQuarantined }
        guard case .signedIn(let quarantined) = app.staff.state else { throw APIError.notSignedIn }
        #expect(quarantined.company.status == .suspended)
        // Still signed in (the quarantine screen can check again and sign out).
        #expect(app.api.authState == .signedIn(.staff))
        _ = try await database.setCompanyStatus(me.company.id, to: .active, actor: "tests")
        await database.close()
        try await app.staff.reload()
        #expect(app.screen == .staffMain)
    }
}
