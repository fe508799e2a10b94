import Foundation
import RepairMinderKit
import RepairMinderModels
import RepairMinderServer
import TestSupport
import Testing

/// Two processes sharing one session (an app and its notification extension) refresh it at the
/// same moment (issue 52, item 7). Here two SDK instances on one credential store, each with its
/// own lock file descriptor (`flock` locks belong to an open file, so two in one process meet as
/// two processes do): with a shared `RefreshLease` one refresh is spent and both go on; without
/// it, both spend the same refresh token, the second past the server's retry grace (a slow
/// network, a suspended extension), and the server ends the session as a stolen one's.
@MainActor
@Suite struct RefreshLeaseTests {
    struct Outcome {
        let refreshes: Int
        let first: Result<EnrolmentStatus, any Error>
        let second: Result<EnrolmentStatus, any Error>
        let meAfterwards: Bool
    }

    /// The extension's refresh, started from inside the app's.
    final class SecondRefresh: @unchecked Sendable {
        private let lock = NSLock()
        private var task: Task<Result<EnrolmentStatus, any Error>, Never>?

        func start(_ body: @escaping @Sendable () async -> Result<EnrolmentStatus, any Error>) {
            lock.withLock { task = Task { await body() } }
        }

        func result() async -> Result<EnrolmentStatus, any Error>? {
            let task = lock.withLock { self.task }
            return await task?.value
        }
    }

    static func outcome(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> EnrolmentStatus
    ) async -> Result<EnrolmentStatus, any Error> {
        do { return .success(try await body()) } catch { return .failure(error) }
    }

    static func race(server: LiveServer, url: URL, lease: RefreshLease?) async throws -> Outcome {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lease-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let appTransport = ObservingTransport(), extensionTransport = ObservingTransport()
        let app = APIClient(
            baseURL: url, store: FileCredentialStore(directory: directory), transport: appTransport, retry: .none, refreshLease: lease)
        let auth = StaffAuth(api: app)
        try await auth.login(email: DemoFixtures.adminEmail, password: DemoFixtures.adminPassword)
        try await auth.requestEmailCode()
        try await auth.verifySecondFactor(code: try await server.latestCode(to: DemoFixtures.adminEmail))
        let extensionAPI = APIClient(
            baseURL: url, store: FileCredentialStore(directory: directory), transport: extensionTransport, retry: .none,
            refreshLease: lease)

        // The app's refresh is about to be sent (it holds the lease, if there is one) when the
        // extension starts its own, and the app waits a moment: a window in which the
        // extension, without a lease, sends the same refresh token.
        let second = SecondRefresh()
        appTransport.beforeSending("/api/auth/refresh") {
            second.start { await Self.outcome { try await extensionAPI.refreshSession() } }
            try await Task.sleep(for: .milliseconds(300))
            // Past the server's 10-second grace for a retried token (docs/API.md §2.7), which
            // covers only a lost answer's retry: later, the same token again is a theft.
            server.clock.advance(by: 11)
        }
        let first = await Self.outcome { try await app.refreshSession() }
        let secondResult = try #require(await second.result())
        let extensionMe = try? await extensionAPI.send(Routes.staffAuth.me), appMe = try? await app.send(Routes.staffAuth.me)
        let me = extensionMe != nil && appMe != nil
        return Outcome(
            refreshes: appTransport.count("/api/auth/refresh") + extensionTransport.count("/api/auth/refresh"), first: first,
            second: secondResult, meAfterwards: me)
    }

    @Test func withALeaseOneRefreshServesBoth() async throws {
        let server = try await LiveServer()
        try await server.run { url in
            let lockFile = FileManager.default.temporaryDirectory.appendingPathComponent("refresh-\(UUID().uuidString).lock")
            defer { try? FileManager.default.removeItem(at: lockFile) }
            let outcome = try await Self.race(server: server, url: url, lease: RefreshLease(file: lockFile))
            #expect(outcome.refreshes == 1)
            #expect((try? outcome.first.get()) != nil, "\(outcome.first)")
            #expect((try? outcome.second.get()) != nil, "\(outcome.second)")
            #expect(outcome.meAfterwards)
        }
    }

    /// What the lease prevents, shown: the same token spent twice ends the session.
    @Test func withoutOneTheSecondRefreshLooksLikeATheft() async throws {
        let server = try await LiveServer()
        try await server.run { url in
            let outcome = try await Self.race(server: server, url: url, lease: nil)
            #expect(outcome.refreshes == 2)
            let failures = [outcome.first, outcome.second].compactMap { result -> APIError? in
                if case .failure(let error as APIError) = result { return error }
                return nil
            }
            #expect(failures.contains { if case .sessionExpired = $0 { true } else { false } }, "\(failures)")
            #expect(!outcome.meAfterwards)
        }
    }
}
