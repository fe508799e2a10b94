import Foundation
import Hummingbird
import HummingbirdTesting
import RepairMinderKit
import RepairMinderServer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Counts requests per path and can fail chosen paths as if the server were down.
final class ObservingTransport: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private let base = URLSessionTransport()
    private var counts: [String: Int] = [:]
    private var down: Set<String> = []
    private var canned: [String: (Int, String)] = [:]
    private var hooks: [String: @Sendable () async throws -> Void] = [:]
    private var failures: [String: Int] = [:]

    /// Runs `hook` once, just before the next request to `path` is sent.
    func beforeSending(_ path: String, _ hook: @escaping @Sendable () async throws -> Void) {
        lock.withLock { hooks[path] = hook }
    }

    /// Answers `path` with this status and body instead of asking the server.
    func setCanned(_ path: String, status: Int, body: String) {
        lock.withLock { canned[path] = (status, body) }
    }

    func clearCanned(_ path: String) { _ = lock.withLock { canned.removeValue(forKey: path) } }

    func count(_ path: String) -> Int { lock.withLock { counts[path, default: 0] } }
    /// Every request sent, to any path but `/api/config` (public: it needs no session).
    var sessionRequests: Int {
        lock.withLock { counts.filter { !$0.key.contains(" ") && $0.key != "/api/config" }.values.reduce(0, +) }
    }
    /// Requests to `path` with this method ("POST", "DELETE").
    func count(_ method: String, _ path: String) -> Int { lock.withLock { counts[method + " " + path, default: 0] } }

    /// Fails the next `times` requests to `path` as if the server could not be reached.
    func failNext(_ path: String, times: Int) {
        lock.withLock { failures[path] = times }
    }
    func setDown(_ path: String, _ isDown: Bool) {
        lock.withLock {
            if isDown { down.insert(path) } else { down.remove(path) }
        }
    }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let path = request.url?.path ?? ""
        let hook = lock.withLock { hooks.removeValue(forKey: path) }
        if let hook { try await hook() }
        let (isDown, answer) = lock.withLock {
            counts[path, default: 0] += 1
            counts[(request.httpMethod ?? "GET") + " " + path, default: 0] += 1
            let failsNow = failures[path, default: 0] > 0
            if failsNow { failures[path, default: 0] -= 1 }
            return (down.contains(path) || failsNow, canned[path])
        }
        if isDown { throw URLError(.cannotConnectToHost) }
        if let (status, body) = answer, let url = request.url,
            let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: ["Retry-After": "7"])
        {
            return (Data(body.utf8), response)
        }
        return try await base.send(request)
    }
}

/// The real server (the shared `ServerHarness`) on a free loopback port with the demo
/// accounts, and SDK clients for it on the same clock.
struct LiveServer {
    let harness: ServerHarness
    var clock: TestClock { harness.clock }
    var settings: ServerSettings { harness.settings }

    init(configure: @Sendable (inout ServerSettings) -> Void = { _ in }) async throws {
        harness = try await ServerHarness(configure: configure)
    }

    /// Runs `body` with the server listening and a client factory pointing at it.
    func run(_ body: @Sendable @escaping (URL) async throws -> Void) async throws {
        try await harness.removingAfterwards {
            try await harness.run(.live) { client in
                let port = try #require(client.port)
                try await body(try #require(URL(string: "http://127.0.0.1:\(port)")))
            }
        }
    }

    func client(_ baseURL: URL, store: any CredentialStore = InMemoryCredentialStore(), transport: any HTTPTransport = URLSessionTransport())
        -> APIClient
    {
        let clock = self.clock
        return APIClient(baseURL: baseURL, store: store, transport: transport, now: { clock.date })
    }

    /// The newest six-digit code mailed to `email`.
    func latestCode(to email: String) async throws -> String {
        try #require(await Mailbox.latestCode(to: email, settings: settings))
    }
}

/// Auth states as a listener saw them, for tests that follow the session.
@MainActor
final class StateLog {
    private(set) var states: [AuthState] = []
    func append(_ state: AuthState) { states.append(state) }

    /// Waits until `count` states were seen.
    func waitFor(count: Int) async throws {
        try await waitUntil("\(count) states; so far: \(states)") { states.count >= count }
    }
}
