import Foundation
import RepairMinderKit
import RepairMinderModels
import RepairMinderServer
import TestSupport
import Testing

/// Who is signed in, as a stream and an event (`APIClient.signedInUsers()`,
/// `AuthEvent.userUpdated`), and the foreground refresh following the network path
/// (`NetworkPathMonitoring`), against the real server.
@MainActor
@Suite struct SignedInUserAndNetworkTests {
    /// A network path a test switches by hand.
    final class FakeNetworkPath: NetworkPathMonitoring, Sendable {
        private let pair = AsyncStream.makeStream(of: NetworkPathStatus.self)
        func statuses() -> AsyncStream<NetworkPathStatus> { pair.stream }
        func send(_ status: NetworkPathStatus) { pair.continuation.yield(status) }
    }

    @Test func theSignedInUserIsStreamedAndAnUpdateAnnounced() async throws {
        let server = try await LiveServer()
        try await server.run { url in try await Self.followTheUser(server, url) }
    }

    private static func followTheUser(_ server: LiveServer, _ url: URL) async throws {
        let api = server.client(url)
        #expect(api.signedInUser == nil)
        var users = api.signedInUsers().makeAsyncIterator()
        #expect(await users.next() == .some(nil))
        let events = api.events
        let engineer = StaffAuth(api: api)
        try await engineer.login(email: DemoFixtures.engineerEmail, password: DemoFixtures.engineerPassword)
        try await engineer.requestEmailCode()
        try await engineer.verifySecondFactor(code: try await server.latestCode(to: DemoFixtures.engineerEmail))
        let signedIn = try #require(await users.next() ?? nil)
        #expect(signedIn.email == DemoFixtures.engineerEmail)
        #expect(signedIn.role == .staff)
        #expect(api.signedInUser == signedIn)

        // An admin renames them; the app reads the user again: one update, with the new name.
        let admin = StaffAuth(api: server.client(url))
        try await SessionStateTests.signIn(admin, server: server)
        guard case .staff(let me) = signedIn else { Issue.record("not a staff user"); return }
        _ = try await TeamClient(api: admin.api).update(me.user.id, MemberUpdate(firstName: "Elias"))
        try await engineer.reload()
        guard case .staff(let renamed)?? = await users.next() else { Issue.record("no update"); return }
        #expect(renamed.user.firstName == "Elias")
        try await engineer.reload()  // the same again: nothing announced
        await engineer.logout()
        #expect(await users.next() == .some(nil))
        #expect(api.signedInUser == nil)

        var updates: [String] = []
        for await event in events {
            switch event {
            case .userUpdated(.staff(let me)): updates.append(me.user.firstName ?? "")
            case .signedOut: break
            default: continue
            }
            if case .signedOut = event { break }
        }
        #expect(updates == ["Eli", "Elias"])
    }

    @Test func refreshesPauseWhileThePathIsGone() async throws {
        let server = try await LiveServer()
        try await server.run { url in try await Self.followThePath(server, url) }
    }

    private static func followThePath(_ server: LiveServer, _ url: URL) async throws {
        let network = FakeNetworkPath()
        let app = AppModel(api: server.client(url), network: network)
        network.send(.satisfied)
        app.roles.select(.staff)
        await app.launch()
        try await SessionStateTests.signIn(app.staff, server: server)
        app.sceneBecameActive()
        #expect(app.isKeepingSessionFresh)
        #expect(!app.isOffline)

        network.send(.unsatisfied)
        try await waitUntil("offline") { app.isOffline }
        #expect(!app.isKeepingSessionFresh)
        // Coming to the foreground while offline starts nothing either.
        app.sceneMovedToBackground()
        app.sceneBecameActive()
        #expect(!app.isKeepingSessionFresh)

        network.send(.satisfied)
        try await waitUntil("back online") { !app.isOffline && app.isKeepingSessionFresh }
        // In the background, the path coming back starts nothing.
        app.sceneMovedToBackground()
        network.send(.unsatisfied)
        try await waitUntil("offline again") { app.isOffline }
        network.send(.satisfied)
        try await waitUntil("online again") { !app.isOffline }
        #expect(!app.isKeepingSessionFresh)
    }
}
