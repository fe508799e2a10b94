import Foundation
import RepairMinderKit
import RepairMinderModels
import TestSupport
import Testing

/// Issue 28's push fixes, against the real server with the fake system: permission asked after
/// each sign-in (and the token asked for at launch when it was given before), a token that
/// changes mid-session, a failed registration tried again, and the registered token kept in
/// the credential store so a relaunched app unregisters it at logout.
extension PushAndDeepLinkTests {
    static func tokenPath(_ role: AppRole) -> String {
        role == .staff ? "/api/user/device-token" : "/api/customer/device-token"
    }

    /// The server's rows for `token` registered by `role`'s app.
    static func registered(_ token: String, as role: AppRole) -> [[String]] { [[token, role.rawValue, role.rawValue]] }

    static func signIn(_ app: AppModel, as role: AppRole, server: LiveServer) async throws {
        app.roles.select(role)
        switch role {
        case .staff:
            try await SessionStateTests.signIn(app.staff, server: server)
        case .customer:
            try await app.customer.requestCode(email: "jane@example.test")
            try await app.customer.verify(code: try await server.latestCode(to: "jane@example.test"))
        }
    }

    static func logout(_ app: AppModel, as role: AppRole) async {
        switch role {
        case .staff: await app.staff.logout()
        case .customer: await app.customer.logout()
        }
    }

    static func recordedToken(_ app: AppModel, _ role: AppRole) -> String? {
        role == .staff ? app.staff.registeredDeviceToken : app.customer.registeredDeviceToken
    }

    // MARK: Permission

    @Test(arguments: AppRole.allCases)
    func permissionIsAskedAfterEachSignInNotAtFirstLaunch(role: AppRole) async throws {
        let server = try await LiveServer()
        try await server.run { url in try await Self.askedAfterSignIn(role, server: server, url: url) }
    }

    static func askedAfterSignIn(_ role: AppRole, server: LiveServer, url: URL) async throws {
        let system = FakePushSystem(allows: true)
        let app = AppModel(api: server.client(url), push: system)
        let push = try #require(app.push)
        system.coordinator = push
        // First launch: nothing is asked, nothing registered.
        await app.launch()
        #expect(system.prompts == 0)
        #expect(system.tokenRequests == 0)
        // The app never calls requestPermission(): signing in is enough.
        try await signIn(app, as: role, server: server)
        try await waitUntil { try await serverTokens(server) == registered("deadbeef", as: role) }
        #expect(system.prompts == 1)
        #expect(push.isAuthorized == true)
        try await waitUntil { recordedToken(app, role) == "deadbeef" }
        await logout(app, as: role)
        #expect(try await serverTokens(server).isEmpty)
        // Cleared at logout, in memory and in the store.
        #expect(recordedToken(app, role) == nil)
        #expect(try app.api.store.registeredDeviceToken(for: role) == nil)
        // The next sign-in asks again; the person answered already, so there is no prompt,
        // but the token is asked for and registered again.
        try await signIn(app, as: role, server: server)
        try await waitUntil { try await serverTokens(server) == registered("deadbeef", as: role) }
        try await waitUntil { system.tokenRequests == 2 }
        #expect(system.prompts == 1)
        await logout(app, as: role)
    }

    @Test func aLaunchAfterPermissionWasGivenAsksForTheTokenWithoutAsking() async throws {
        let server = try await LiveServer()
        try await server.run { url in try await Self.launchWithPermission(server: server, url: url) }
    }

    static func launchWithPermission(server: LiveServer, url: URL) async throws {
        let system = FakePushSystem(allows: true, status: .authorized)
        let app = AppModel(api: server.client(url), push: system)
        let push = try #require(app.push)
        system.coordinator = push
        await app.launch()
        #expect(system.tokenRequests == 1)
        #expect(system.prompts == 0)
        #expect(push.isAuthorized == true)
        try await waitUntil { push.deviceToken == "deadbeef" }
        // Signed out: the token waits for a sign-in.
        #expect(try await serverTokens(server).isEmpty)
        try await signIn(app, as: .staff, server: server)
        try await waitUntil { try await serverTokens(server) == registered("deadbeef", as: .staff) }
        #expect(system.prompts == 0)

        // Refused before: launch asks nothing and requests no token.
        let denied = FakePushSystem(allows: false, status: .denied)
        let deniedApp = AppModel(api: server.client(url), push: denied)
        denied.coordinator = deniedApp.push
        await deniedApp.launch()
        #expect(denied.tokenRequests == 0)
        #expect(denied.prompts == 0)
        #expect(deniedApp.push?.isAuthorized == false)
    }

    // MARK: Token changes

    @Test func aTokenThatChangesMidSessionReplacesTheRegisteredOne() async throws {
        let server = try await LiveServer()
        try await server.run { url in try await Self.tokenChange(server: server, url: url) }
    }

    static func tokenChange(server: LiveServer, url: URL) async throws {
        let system = FakePushSystem(allows: true), transport = ObservingTransport()
        let app = AppModel(api: server.client(url, transport: transport), push: system)
        let push = try #require(app.push)
        system.coordinator = push
        let path = tokenPath(.staff)
        try await signIn(app, as: .staff, server: server)
        try await waitUntil { app.staff.registeredDeviceToken == "deadbeef" }
        // APNs hands a new token while signed in (a restore from backup, say).
        system.token = Data([0xca, 0xfe, 0xf0, 0x0d])
        await push.didReceiveDeviceToken(system.token)
        try await waitUntil { try await serverTokens(server) == registered("cafef00d", as: .staff) }
        // The server's row is there before the app has read the answer and taken the old
        // token off: wait for the app too.
        try await waitUntil { app.staff.registeredDeviceToken == "cafef00d" && transport.count("DELETE", path) >= 1 }
        #expect(push.deviceToken == "cafef00d")
        #expect(push.registeredRole == .staff)
        #expect(app.staff.registeredDeviceToken == "cafef00d")
        #expect(try app.api.store.registeredDeviceToken(for: .staff) == "cafef00d")
        #expect(transport.count("POST", path) == 2)
        // The old token was taken off by the app, not left for the session's end.
        #expect(transport.count("DELETE", path) == 1)
        await app.staff.logout()
        #expect(transport.count("DELETE", path) == 2)
        #expect(try await serverTokens(server).isEmpty)
    }

    // MARK: Retries

    @Test func aFailedRegistrationIsTriedAgain() async throws {
        let server = try await LiveServer()
        try await server.run { url in try await Self.retried(server: server, url: url) }
    }

    static func retried(server: LiveServer, url: URL) async throws {
        let system = FakePushSystem(allows: true), transport = ObservingTransport()
        let app = AppModel(api: server.client(url, transport: transport), push: system)
        let push = try #require(app.push)
        system.coordinator = push
        push.retryDelays = [.milliseconds(10), .milliseconds(20), .milliseconds(40)]
        let path = tokenPath(.staff)
        // The server cannot be reached for the first two attempts.
        transport.failNext(path, times: 2)
        try await signIn(app, as: .staff, server: server)
        try await waitUntil { try await serverTokens(server) == registered("deadbeef", as: .staff) }
        try await waitUntil { push.registeredRole == .staff }
        #expect(transport.count("POST", path) == 3)
        #expect(push.lastError == nil)
        #expect(app.staff.registeredDeviceToken == "deadbeef")
    }

    @Test func aRegistrationThatGaveUpIsTriedAgainAtTheNextForeground() async throws {
        let server = try await LiveServer()
        try await server.run { url in try await Self.retriedAtForeground(server: server, url: url) }
    }

    static func retriedAtForeground(server: LiveServer, url: URL) async throws {
        let system = FakePushSystem(allows: true), transport = ObservingTransport()
        let app = AppModel(api: server.client(url, transport: transport), push: system)
        let push = try #require(app.push)
        system.coordinator = push
        push.retryDelays = [.milliseconds(10), .milliseconds(10)]
        let path = tokenPath(.staff)
        // Every attempt of the first round fails: three tries, then it gives up.
        transport.failNext(path, times: 3)
        try await signIn(app, as: .staff, server: server)
        try await waitUntil { push.lastError != nil }
        #expect(transport.count("POST", path) == 3)
        #expect(push.registeredRole == nil)
        #expect(app.staff.registeredDeviceToken == nil)
        #expect(try await serverTokens(server).isEmpty)
        // Back in the foreground, with the server reachable again.
        app.appBecameActive()
        try await waitUntil { try await serverTokens(server) == registered("deadbeef", as: .staff) }
        try await waitUntil { push.lastError == nil }
        app.appWillResignActive()
        #expect(transport.count("POST", path) == 4)
        #expect(push.registeredRole == .staff)
    }

    // MARK: Persistence

    @Test(arguments: AppRole.allCases)
    func aRelaunchedAppUnregistersTheTokenAtLogout(role: AppRole) async throws {
        let server = try await LiveServer()
        try await server.run { url in try await Self.relaunched(role, server: server, url: url) }
    }

    static func relaunched(_ role: AppRole, server: LiveServer, url: URL) async throws {
        let store = InMemoryCredentialStore()
        do {
            let system = FakePushSystem(allows: true)
            let app = AppModel(api: server.client(url, store: store), push: system)
            system.coordinator = app.push
            try await signIn(app, as: role, server: server)
            try await waitUntil { try await serverTokens(server) == registered("deadbeef", as: role) }
            try await waitUntil { try store.registeredDeviceToken(for: role) == "deadbeef" }
        }
        // The app is relaunched on the same store; APNs has not handed this launch's token yet,
        // so only the stored one can say what to unregister.
        let system = FakePushSystem(allows: true, status: .authorized, deliversToken: false)
        let transport = ObservingTransport()
        let app = AppModel(api: server.client(url, store: store, transport: transport), push: system)
        system.coordinator = app.push
        await app.launch()
        #expect(app.screen == (role == .staff ? .staffMain : .customerMain))
        #expect(recordedToken(app, role) == "deadbeef")
        await logout(app, as: role)
        #expect(transport.count("DELETE", tokenPath(role)) == 1)
        #expect(transport.count("POST", tokenPath(role)) == 0)
        #expect(try await serverTokens(server).isEmpty)
        #expect(try store.registeredDeviceToken(for: role) == nil)
        #expect(recordedToken(app, role) == nil)
    }
}
