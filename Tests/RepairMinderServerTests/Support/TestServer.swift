import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import RepairMinderModels
import TestSupport
import Testing

@testable import RepairMinderServer

/// A clock tests move by hand; a `running` one also moves with the wall clock (for the mail
/// queue's retries, which wait in real time).
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Double
    private let running: Bool
    private let started = Date()

    init(start: Double = Date().timeIntervalSince1970, running: Bool = false) {
        current = start
        self.running = running
    }

    var now: Double { lock.withLock { current + (running ? Date().timeIntervalSince(started) : 0) } }
    func advance(by seconds: Double) { lock.withLock { current += seconds } }
    var serverClock: ServerClock { ServerClock { [self] in now } }
}

/// A server on a fresh data directory and a fresh database with the demo fixtures loaded, for
/// one test: SQLite in the data directory, or a new PostgreSQL database when
/// `REPAIRMINDER_TEST_POSTGRES_URL` is set (`TestPostgres`).
struct TestServer {
    let settings: ServerSettings
    let clock: ManualClock

    /// Defaults that keep tests fast and independent: cheap bcrypt, no rate limits unless a
    /// test turns one on.
    static func defaultSettings() -> ServerSettings {
        var settings = ServerSettings()
        settings.dataDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("repairminder-tests-\(UUID().uuidString)").path
        settings.bcryptCost = 4
        settings.ipRateLimit = 0
        settings.loginFailureLimit = 0
        settings.secondFactorFailureLimit = 0
        settings.wrongCodeLimit = 0
        // Sends answer as soon as they are done (EnumerationTimingTests turns the floor back on).
        settings.codeRequestMinimumMilliseconds = 0
        settings.codeResendInterval = 0
        settings.codeEmailsPerHour = 0
        settings.jwtSecret = "test-secret-that-is-at-least-32-bytes-long"
        // Many servers run at once on one PostgreSQL: a few connections each are plenty.
        settings.databasePoolSize = 4
        // Mail retries within a second, not minutes.
        settings.mailRetryBaseDelay = 0.1
        settings.mailRetryMaxDelay = 0.5
        return settings
    }

    init(runningClock: Bool = false, configure: (inout ServerSettings) -> Void = { _ in }) async throws {
        clock = ManualClock(running: runningClock)
        self.settings = try await TestPostgres.preparing {
            var settings = Self.defaultSettings()
            if TestPostgres.isAvailable { settings.databaseURL = try await TestPostgres.createDatabase() }
            configure(&settings)
            let database = try await Database.openMigrated(settings: settings, logger: Self.quietLogger)
            do {
                _ = try await FixtureLoader(database: database, bcryptCost: settings.bcryptCost).load(DemoFixtures.file)
            } catch {
                await database.close()
                throw error
            }
            await database.close()
            return settings
        }
    }

    static var quietLogger: Logger {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        return logger
    }

    /// Runs `body` against the application over Hummingbird's in-process router transport
    /// (or real sockets with `.live`), then removes the data directory and the database.
    func run(
        _ testing: TestingSetup = .router, logger: Logger = quietLogger, mountingAlso extra: (RouteMounter) -> Void = { _ in },
        _ body: @Sendable @escaping (TestClient) async throws -> Void
    ) async throws {
        try await removingAfterwards {
            let metricsPort = MetricsPort()
            let app = try await buildApplication(
                settings: settings, clock: clock.serverClock, mailTransport: nil, logger: logger, mountingAlso: extra,
                metricsListening: metricsPort.set)
            try await withMailbox { mailbox in
                try await app.test(testing) { client in
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
        try await removingAfterwards {
            for (settings, body) in [(settings, before), (changed, after)] {
                let app = try await buildApplication(settings: settings, clock: clock.serverClock, logger: Self.quietLogger)
                try await withMailbox { mailbox in
                    try await app.test(.router) { client in
                        try await body(TestClient(client: client, settings: settings, mailbox: mailbox))
                    }
                }
            }
        }
    }

    /// Runs `body` against two instances of the server on the same database, each on real
    /// sockets with its own connection pool: what a load balancer in front of two processes
    /// sees. They share the data directory (so the outbox) and the secrets, as deployments must.
    func runTwoInstances(_ body: @Sendable @escaping (TestClient, TestClient) async throws -> Void) async throws {
        try await removingAfterwards {
            let first = try await buildApplication(settings: settings, clock: clock.serverClock, logger: Self.quietLogger)
            let second = try await buildApplication(settings: settings, clock: clock.serverClock, logger: Self.quietLogger)
            try await withMailbox { mailbox in
                try await first.test(.live) { a in
                    try await second.test(.live) { b in
                        try await body(
                            TestClient(client: a, settings: settings, mailbox: mailbox),
                            TestClient(client: b, settings: settings, mailbox: mailbox))
                    }
                }
            }
        }
    }

    /// Runs `body`, then removes what the server left, whether `body` threw or not.
    private func removingAfterwards(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch {
            await remove()
            throw error
        }
        await remove()
    }

    /// Removes what the server left: its data directory, and its PostgreSQL database.
    func remove() async {
        try? FileManager.default.removeItem(atPath: settings.dataDirectory)
        if let url = settings.databaseURL { await TestPostgres.dropDatabase(url: url) }
    }

    /// The server's mail queue, read through a database handle of the test's own (one for the
    /// whole test: opening one per read would cost a PostgreSQL connection each time).
    private func withMailbox(_ body: @Sendable (MailQueue) async throws -> Void) async throws {
        let keys = try settings.resolvedEncryptionKeys()
        try await withDatabase { database in try await body(MailQueue(database: database, encryptionKeys: keys)) }
    }

    /// A second connection to the server's database, for checking what a request changed.
    func withDatabase<T: Sendable>(_ body: @Sendable (Database) async throws -> T) async throws -> T {
        let database = try await Database.open(settings: settings, logger: Self.quietLogger)
        do {
            let result = try await body(database)
            await database.close()
            return result
        } catch {
            await database.close()
            throw error
        }
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

    /// The port, waiting up to 10 s for the listener to bind.
    func wait() async throws -> Int {
        for _ in 0..<1000 {
            if let port = lock.withLock({ port }) { return port }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw CancellationError()
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
