import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import RepairMinderModels
import TestSupport
import Testing

@testable import RepairMinderServer

/// A server for one test: the shared `ServerHarness` (settings, database, clock) and a
/// `TestClient` that signs in and reads the mail queue.
struct TestServer {
    let harness: ServerHarness
    var settings: ServerSettings { harness.settings }
    var clock: TestClock { harness.clock }

    static func defaultSettings() -> ServerSettings { ServerHarness.defaultSettings() }
    static var quietLogger: Logger { ServerHarness.quietLogger }

    /// A server with the demo fixtures; a `firstInLine` one is prepared before the others
    /// waiting (for a check whose outside party keeps time, a browser's).
    init(runningClock: Bool = false, firstInLine: Bool = false, configure: (inout ServerSettings) -> Void = { _ in }) async throws {
        harness = try await ServerHarness(runningClock: runningClock, firstInLine: firstInLine, configure: configure)
    }

    /// Runs `body` against the application over Hummingbird's in-process router transport
    /// (or real sockets with `.live`), then removes the data directory and the database.
    func run(
        _ testing: TestingSetup = .router, logger: Logger = quietLogger, mountingAlso extra: (RouteMounter) -> Void = { _ in },
        _ body: @Sendable @escaping (TestClient) async throws -> Void
    ) async throws {
        try await harness.removingAfterwards {
            let metricsPort = MetricsPort()
            // Built here, not by the harness: the extra routes are the server's internal type.
            let app = try await buildApplication(
                settings: settings, clock: clock.serverClock, mailTransport: nil, logger: logger, mountingAlso: extra,
                metricsListening: metricsPort.set)
            try await withMailbox { mailbox in
                try await harness.run(testing, application: app) { client in
                    try await body(TestClient(client: client, settings: settings, mailbox: mailbox, metricsPort: metricsPort))
                }
            }
        }
    }

    /// Runs `before` against the server, then `after` against a new server on the same
    /// database and data directory whose settings `change` altered (a key rotation, say).
    func runAcrossRestart(
        changing change: (inout ServerSettings) -> Void,
        _ before: @Sendable @escaping (TestClient) async throws -> Void,
        then after: @Sendable @escaping (TestClient) async throws -> Void
    ) async throws {
        var changed = settings
        change(&changed)
        try await harness.removingAfterwards {
            for (settings, body) in [(settings, before), (changed, after)] {
                try await withMailbox { mailbox in
                    try await harness.run(settings: settings) { client in
                        try await body(TestClient(client: client, settings: settings, mailbox: mailbox))
                    }
                }
            }
        }
    }

    /// Runs `body` against two instances of the server on the same database, each on real
    /// sockets with its own connection pool: what a load balancer in front of two processes
    /// sees. They share the data directory (so the outbox) and the secrets, as deployments must.
    func runTwoInstances(
        logger: Logger = quietLogger, _ body: @Sendable @escaping (TestClient, TestClient) async throws -> Void
    ) async throws {
        // Each instance's lines say which it is (`instance=a`, `instance=b`).
        let (first, second) = (Self.tagged(logger, "a"), Self.tagged(logger, "b"))
        try await harness.removingAfterwards {
            try await withMailbox { mailbox in
                try await harness.run(.live, logger: first) { a in
                    try await harness.run(.live, logger: second) { b in
                        try await body(
                            TestClient(client: a, settings: settings, mailbox: mailbox),
                            TestClient(client: b, settings: settings, mailbox: mailbox))
                    }
                }
            }
        }
    }

    private static func tagged(_ logger: Logger, _ instance: String) -> Logger {
        var tagged = logger
        tagged[metadataKey: "instance"] = "\(instance)"
        return tagged
    }

    /// Removes what the server left: its data directory, and its PostgreSQL database.
    func remove() async { await harness.remove() }

    /// The server's mail queue, read through a database handle of the test's own (one for the
    /// whole test: opening one per read would cost a PostgreSQL connection each time).
    private func withMailbox(_ body: @Sendable (MailQueue) async throws -> Void) async throws {
        let keys = try settings.resolvedEncryptionKeys()
        try await withDatabase { database in try await body(MailQueue(database: database, encryptionKeys: keys)) }
    }

    /// A second connection to the server's database, for checking what a request changed.
    func withDatabase<T: Sendable>(_ body: @Sendable (Database) async throws -> T) async throws -> T {
        try await harness.withDatabase(body)
    }
}

/// Runs `body` `count` times at once and collects the results: for races on single-use things.
func race<T: Sendable>(_ count: Int, _ body: @escaping @Sendable () async throws -> T) async throws -> [T] {
    try await withThrowingTaskGroup(of: T.self) { group in
        for _ in 0..<count { group.addTask(operation: body) }
        return try await group.reduce(into: [T]()) { $0.append($1) }
    }
}

/// A reply decoded for assertions.
struct Reply: Sendable {
    let status: HTTPResponse.Status
    let headers: HTTPFields
    let json: [String: any Sendable]

    var data: [String: any Sendable] { json["data"] as? [String: any Sendable] ?? [:] }
    var code: String? { json["code"] as? String }
    var error: String? { json["error"] as? String }

    func string(_ key: String) -> String? { data[key] as? String }

    /// Checks the failure envelope of docs/API.md §1.
    func expectFailure(_ status: HTTPResponse.Status, _ code: String, _ message: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(self.status == status, "status", sourceLocation: sourceLocation)
        #expect(json["success"] as? Bool == false, "success false", sourceLocation: sourceLocation)
        #expect(self.code == code, "code", sourceLocation: sourceLocation)
        if let message { #expect(self.error == message, "message", sourceLocation: sourceLocation) }
        #expect(json["data"] == nil, sourceLocation: sourceLocation)
    }
}

/// The port the metrics listener bound, once it has.
final class MetricsPort: @unchecked Sendable {
    private let lock = NSLock()
    private var port: Int?

    @Sendable func set(_ port: Int) { lock.withLock { self.port = port } }

    /// The port, once the listener has bound.
    func wait() async throws -> Int {
        try await waitUntil("the metrics listener") { lock.withLock { port } != nil }
        return try #require(lock.withLock { port })
    }
}

/// Requests with JSON bodies and the sign-in steps, over a HummingbirdTesting client.
struct TestClient: Sendable {
    let client: any TestClientProtocol
    let settings: ServerSettings
    /// The server's mail queue: what each request mailed, committed with the request.
    let mailbox: MailQueue
    /// Where the metrics listener (`--metrics-address`, port 0 in tests) ended up.
    var metricsPort = MetricsPort()

    static let browser = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 Safari/605.1.15"
    static let iPhone = "RepairMinder-iOS/1.0 (iPhone; iOS 18.0)"

    func send(
        _ method: HTTPRequest.Method, _ path: String, json: String? = nil, bearer: String? = nil,
        userAgent: String = browser, headers extra: HTTPFields = [:]
    ) async throws -> Reply {
        var headers = extra
        if json != nil, headers[.contentType] == nil { headers[.contentType] = "application/json" }
        if let bearer { headers[.authorization] = "Bearer \(bearer)" }
        headers[.userAgent] = userAgent
        return try await client.execute(
            uri: path, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) }
        ) { response in
            let object = (try? JSONSerialization.jsonObject(with: Data(buffer: response.body))) as? [String: any Sendable] ?? [:]
            return Reply(status: response.status, headers: response.headers, json: object)
        }
    }

    func post(_ path: String, _ body: [String: String], bearer: String? = nil, userAgent: String = browser) async throws -> Reply {
        let data = try JSONSerialization.data(withJSONObject: body)
        return try await send(.post, path, json: String(decoding: data, as: UTF8.self), bearer: bearer, userAgent: userAgent)
    }

    /// Login step 1; returns the user id.
    func login(_ email: String, _ password: String, userAgent: String = browser) async throws -> String {
        let reply = try await post("/api/auth/login", ["email": email, "password": password], userAgent: userAgent)
        #expect(reply.status == .ok)
        return try #require(reply.string("userId"))
    }

    /// Asks for the emailed code and reads it from the outbox.
    func requestCode(userId: String, email: String, userAgent: String = browser) async throws -> String {
        let reply = try await post("/api/auth/2fa/request", ["userId": userId, "email": email], userAgent: userAgent)
        #expect(reply.status == .ok)
        return try await latestCode(to: email)
    }

    /// The customer sign-in: asks for a code and verifies it, choosing `companyName` when the
    /// email has several companies. Returns the token response.
    func customerSignIn(_ email: String, companyName: String? = nil, userAgent: String = browser) async throws -> Reply {
        let request = try await post("/api/customer/auth/request-magic-link", ["email": email])
        #expect(request.status == .ok)
        let code = try await latestCode(to: email)
        var reply = try await post("/api/customer/auth/verify-code", ["email": email, "code": code], userAgent: userAgent)
        if reply.data["requiresCompanySelection"] as? Bool == true {
            let companies = try #require(reply.data["companies"] as? [[String: Any]])
            let chosen = try #require(companies.first { companyName == nil || $0["name"] as? String == companyName })
            let companyId = try #require(chosen["id"] as? String)
            reply = try await post(
                "/api/customer/auth/verify-code", ["email": email, "code": code, "companyId": companyId], userAgent: userAgent)
        }
        #expect(reply.status == .ok)
        return reply
    }

    /// The full staff password sign-in; returns the token response's data.
    func signIn(
        _ email: String = DemoFixtures.adminEmail, _ password: String = DemoFixtures.adminPassword,
        userAgent: String = browser
    ) async throws -> Reply {
        let userId = try await login(email, password, userAgent: userAgent)
        let code = try await requestCode(userId: userId, email: email, userAgent: userAgent)
        let reply = try await post("/api/auth/2fa/verify", ["userId": userId, "code": code], userAgent: userAgent)
        #expect(reply.status == .ok)
        return reply
    }

    /// The six-digit code of the newest mail to `email`.
    func latestCode(to email: String) async throws -> String {
        try #require(Mailbox.code(in: try await mail(to: email).last))
    }

    /// The mail queued to `email`, oldest first (delivered or not: the queue is what a request commits).
    func mail(to email: String) async throws -> [MailMessage] {
        try await mailbox.messages(to: email)
    }
}

extension TokenSigner {
    /// A signer made as the server makes one: a new key pair of `algorithm`, or with `.hs256`
    /// the `secret` (and `previous`, verifying only); for tests that sign or verify themselves.
    static func forTests(
        _ algorithm: SigningKeyAlgorithm = .es256, secret: String? = nil, previous: String? = nil,
        issuer: String = ServerSettings().serverURL
    ) async throws -> TokenSigner {
        if algorithm == .hs256 {
            return try await TokenSigner(keys: .hs256(secret: try #require(secret), previous: previous), issuer: issuer)
        }
        let key = try SigningKeySet.generate(algorithm, activatesAt: 0)
        return try await TokenSigner(
            keys: Keys(signing: key, verifying: [], published: SigningKeySet(keys: [key]).publicJWKS(at: 1, lifetime: 900)),
            issuer: issuer)
    }
}
