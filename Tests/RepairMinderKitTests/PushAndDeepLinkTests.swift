import Foundation
import Logging
import RepairMinderKit
import RepairMinderModels
import RepairMinderServer
import TestSupport
import Testing

/// Push notifications and deep links end to end (issue 17, item 4; seed 003's "Push
/// Notifications" and "Deep Links" rows), against the real server with a fake system.
@MainActor
@Suite struct PushAndDeepLinkTests {
    /// The system side: permission as configured (asking once records the answer, as iOS
    /// does), and the token handed back as iOS would, unless `deliversToken` is false (APNs
    /// has not answered yet).
    final class FakePushSystem: PushSystem, @unchecked Sendable {
        let allows: Bool
        let deliversToken: Bool
        var coordinator: PushCoordinator?
        private let lock = NSLock()
        private var status: PushAuthorizationStatus
        private var currentToken = Data([0xde, 0xad, 0xbe, 0xef])
        private var promptCount = 0, tokenRequestCount = 0

        init(allows: Bool, status: PushAuthorizationStatus = .notDetermined, deliversToken: Bool = true) {
            self.allows = allows
            self.status = status
            self.deliversToken = deliversToken
        }

        /// How many times the person saw the permission prompt.
        var prompts: Int { lock.withLock { promptCount } }
        /// How many times the app asked for the APNs token.
        var tokenRequests: Int { lock.withLock { tokenRequestCount } }
        /// The token the next `registerForRemoteNotifications()` hands back.
        var token: Data {
            get { lock.withLock { currentToken } }
            set { lock.withLock { currentToken = newValue } }
        }

        func requestAuthorization() async throws -> Bool {
            lock.withLock {
                promptCount += 1
                status = allows ? .authorized : .denied
            }
            return allows
        }

        func authorizationStatus() async -> PushAuthorizationStatus { lock.withLock { status } }

        @MainActor func registerForRemoteNotifications() {
            let token = lock.withLock {
                tokenRequestCount += 1
                return currentToken
            }
            guard deliversToken else { return }
            let coordinator = self.coordinator
            Task { @MainActor in await coordinator?.didReceiveDeviceToken(token) }
        }
    }

    /// The device tokens the server holds: token, app type, owner kind.
    static func serverTokens(_ server: LiveServer) async throws -> [[String]] {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let database = try await Database.open(settings: server.settings, logger: logger)
        defer { Task { await database.close() } }
        return try await database.withConnection { db in
            try await db.raw("SELECT device_token, app_type, owner_kind FROM device_tokens ORDER BY device_token").all().map { row in
                [try row.decode(column: "device_token", as: String.self), try row.decode(column: "app_type", as: String.self),
                 try row.decode(column: "owner_kind", as: String.self)]
            }
        }
    }

    @Test func staffTokenRegistersAsStaffAfterSignInAndIsRemovedAtLogout() async throws {
        let server = try await LiveServer()
        try await server.run { url in try await Self.staffPush(server: server, url: url) }
    }

    static func staffPush(server: LiveServer, url: URL) async throws {
        let system = FakePushSystem(allows: true), transport = ObservingTransport()
        let app = AppModel(api: server.client(url, transport: transport), push: system)
        let push = try #require(app.push)
        system.coordinator = push
        // Permission and the token come first (the app asks after its first sign-in, but order
        // does not matter): nothing is registered while signed out.
        await push.requestPermission()
        try await waitUntil { push.deviceToken == "deadbeef" }
        #expect(push.isAuthorized == true)
        #expect(try await Self.serverTokens(server).isEmpty)
        app.roles.select(.staff)
        try await SessionStateTests.signIn(app.staff, server: server)
        try await waitUntil { try await Self.serverTokens(server) == [["deadbeef", "staff", "staff"]] }
        // The server's row is there before the app has read the answer: wait for the app too.
        try await waitUntil { push.registeredRole == .staff }
        await app.staff.logout()
        // Unregistered by the app before its session ended (the server would drop it with the
        // session anyway).
        #expect(transport.count("/api/user/device-token") == 2)
        #expect(try await Self.serverTokens(server).isEmpty)
        try await waitUntil { push.registeredRole == nil }
    }

    @Test func customerTokenRegistersAsCustomerAndIsRemovedAtLogout() async throws {
        let server = try await LiveServer()
        try await server.run { url in try await Self.customerPush(server: server, url: url) }
    }

    static func customerPush(server: LiveServer, url: URL) async throws {
        let system = FakePushSystem(allows: true), transport = ObservingTransport()
        let app = AppModel(api: server.client(url, transport: transport), push: system)
        let push = try #require(app.push)
        system.coordinator = push
        app.roles.select(.customer)
        try await app.customer.requestCode(email: "jane@example.test")
        try await app.customer.verify(code: try await server.latestCode(to: "jane@example.test"))
        // Signed in first, permission after: the token registers as soon as it arrives.
        await push.requestPermission()
        try await waitUntil { try await Self.serverTokens(server) == [["deadbeef", "customer", "customer"]] }
        // The server's row is there before the app has read the answer: wait for the app too.
        try await waitUntil { push.registeredRole == .customer }
        await app.customer.logout()
        #expect(transport.count("/api/customer/device-token") == 2)
        #expect(try await Self.serverTokens(server).isEmpty)
    }

    @Test func aDeniedPermissionRegistersNothing() async throws {
        let server = try await LiveServer()
        try await server.run { url in try await Self.denied(server: server, url: url) }
    }

    static func denied(server: LiveServer, url: URL) async throws {
        let system = FakePushSystem(allows: false)
        let app = AppModel(api: server.client(url), push: system)
        let push = try #require(app.push)
        system.coordinator = push
        try await SessionStateTests.signIn(app.staff, server: server)
        await push.requestPermission()
        // No token was asked of the system, so none can be registered later: nothing to wait for.
        #expect(system.tokenRequests == 0)
        #expect(push.isAuthorized == false)
        #expect(push.deviceToken == nil)
        #expect(try await Self.serverTokens(server).isEmpty)
    }

    @Test func aNotificationTappedWhileSignedOutOpensAfterSignInOnTheRightTab() async throws {
        let server = try await LiveServer()
        try await server.run { url in try await Self.pendingLink(server: server, url: url) }
    }

    static func pendingLink(server: LiveServer, url: URL) async throws {
        let app = AppModel(api: server.client(url), push: FakePushSystem(allows: true))
        let push = try #require(app.push)
        push.didOpenNotification(["type": "new_enquiry", "ticket_id": "t-7"])
        #expect(app.router.pending == .enquiry(ticketId: "t-7"))
        #expect(app.router.destination == nil)
        app.roles.select(.staff)
        try await SessionStateTests.signIn(app.staff, server: server)
        try await waitUntil { app.router.destination == .enquiry(ticketId: "t-7") }
        #expect(app.router.staffTab == .enquiries)
        #expect(app.router.pending == nil)
        // Signed in: a tap goes straight to its tab.
        push.didOpenNotification(["type": "order_status_changed", "order_id": "o-1"])
        #expect(app.router.staffTab == .orders)
        #expect(app.router.destination == .order(orderId: "o-1"))
        // Signing out goes back to the first tab, nothing open.
        await app.staff.logout()
        try await waitUntil { app.router.destination == nil }
        #expect(app.router.staffTab == .dashboard)
    }

    @Test func customersOpenTheirOrderLinksOnTheOrdersTab() async throws {
        let server = try await LiveServer()
        try await server.run { url in try await Self.customerLinks(server: server, url: url) }
    }

    static func customerLinks(server: LiveServer, url: URL) async throws {
        let app = AppModel(api: server.client(url), push: FakePushSystem(allows: true))
        let push = try #require(app.push)
        app.roles.select(.customer)
        try await app.customer.requestCode(email: "jane@example.test")
        try await app.customer.verify(code: try await server.latestCode(to: "jane@example.test"))
        app.router.customerTab = .settings
        // Seed 003's "customer deep link order": the order, on the Orders tab.
        push.didOpenNotification(["type": "order_status_changed", "order_id": "o-5"])
        #expect(app.router.customerTab == .orders)
        #expect(app.router.destination == .order(orderId: "o-5"))
        app.router.customerTab = .settings
        push.didOpenNotification(["type": "quote_approved", "order_id": "o-2", "device_id": "d-3"])
        #expect(app.router.customerTab == .orders)
        #expect(app.router.destination == .device(orderId: "o-2", deviceId: "d-3"))
        // The shop's enquiries are not a customer's screen: nothing moves, and it is not shown.
        push.didOpenNotification(["type": "enquiry_reply", "ticket_id": "t-1"])
        #expect(app.router.destination == .device(orderId: "o-2", deviceId: "d-3"))
        #expect(push.presentation(for: ["type": "enquiry_reply", "ticket_id": "t-1"]) == [])
        // In the foreground: a banner with sound and the badge, unless it is about what is on screen.
        #expect(push.presentation(for: ["type": "order_collected", "order_id": "o-9"]) == [.banner, .sound, .badge, .list])
        #expect(push.presentation(for: ["type": "something_new"]) == [.banner, .badge, .list])
        #expect(push.presentation(for: ["type": "quote_approved", "order_id": "o-2", "device_id": "d-3"]) == [.list])
    }
}
