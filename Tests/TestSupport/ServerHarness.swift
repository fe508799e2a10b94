import Foundation
import Hummingbird
import HummingbirdTesting
import Logging

@testable import RepairMinderServer

/// The one test server of every suite: a fresh data directory and a fresh database with the
/// demo fixtures loaded (SQLite in the data directory, or a new PostgreSQL database when
/// `REPAIRMINDER_TEST_POSTGRES_URL` is set, `TestPostgres`), the settings every test starts
/// from, one `TestClock` the server reads, and the application started, run and stopped around
/// a test body. The server tests' `TestServer` and the SDK tests' `LiveServer` wrap it with
/// their own clients.
public struct ServerHarness: Sendable {
    public let settings: ServerSettings
    public let clock: TestClock

    /// Defaults that keep tests fast and independent: cheap bcrypt, no rate limits unless a
    /// test turns one on, a data directory of the test's own.
    public static func defaultSettings() -> ServerSettings {
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

    /// A logger that only reports what would crash.
    public static var quietLogger: Logger {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        return logger
    }

    /// Prepares the database of `defaultSettings()` changed by `configure`, with the demo
    /// fixtures (the platform's administrator included). A `runningClock` also moves with the
    /// wall clock (`TestClock`). A `firstInLine` harness is prepared before those already
    /// waiting (`TestPostgres.preparing`).
    public init(
        runningClock: Bool = false, firstInLine: Bool = false, configure: (inout ServerSettings) -> Void = { _ in }
    ) async throws {
        settings = try await TestPostgres.preparing(firstInLine: firstInLine) {
            // Once more after a failure: on PostgreSQL, among hundreds of tests on two cores, a
            // connection can fail to open in time (seen once here, 2026-11-29: a `PSQLError` in
            // one of 746 preparations). A second failure is the test's, with the driver's reason.
            do {
                return try await Self.prepare(configure)
            } catch {
                do {
                    return try await Self.prepare(configure)
                } catch {
                    throw PreparationFailed(reason: String(reflecting: error))
                }
            }
        }
        // Started once the database is ready, not before its wait in line: a test that compares
        // the server's time with the wall clock (PyJWT checking `exp`) starts level with it.
        clock = TestClock(running: runningClock)
    }

    /// A fresh database (on PostgreSQL when the tests have one) with the demo fixtures.
    private static func prepare(_ configure: (inout ServerSettings) -> Void) async throws -> ServerSettings {
        var settings = Self.defaultSettings()
        if TestPostgres.isAvailable { settings.databaseURL = try await TestPostgres.createDatabase() }
        configure(&settings)
        do {
            try Self.writeSigningKeys(for: settings)
            let database = try await Database.openMigrated(settings: settings, logger: Self.quietLogger)
            do {
                try await DemoFixtures.loadAccounts(into: database, bcryptCost: settings.bcryptCost)
            } catch {
                await database.close()
                throw error
            }
            await database.close()
        } catch {
            await Self.remove(settings)
            throw error
        }
        return settings
    }

    /// One ID token key (RS256) for every server of the process: a 2048-bit key takes a tenth
    /// of a second to make, and hundreds of servers would each make their own.
    private static let sharedIDTokenKey = Result { try SigningKeySet.generate(.rs256, activatesAt: 0) }

    /// The key set the server would make at its first start (`SigningKeyFile.loadOrCreate`),
    /// written before it starts, with the process's shared ID token key: a key pair of the
    /// access tokens' algorithm and the HS256 secret it replaces, verifying. A test that names
    /// its own file, or uses HS256 alone, is left as it is.
    private static func writeSigningKeys(for settings: ServerSettings) throws {
        let path = settings.signingKeysPath
        guard settings.jwtAlgorithm != .hs256, !FileManager.default.fileExists(atPath: path) else { return }
        try DataDirectory.create(URL(fileURLWithPath: path).deletingLastPathComponent().path)
        let retiring = settings.jwtSecret.map { [SigningKeySet.symmetric(secret: $0, activatesAt: 0)] } ?? []
        let keys = retiring + [try SigningKeySet.generate(settings.jwtAlgorithm, activatesAt: 0), try sharedIDTokenKey.get()]
        try SigningKeyFile.write(SigningKeySet(keys: keys), to: path)
    }

    /// The test's database could not be prepared, twice: why, in the driver's own words.
    public struct PreparationFailed: Error, CustomStringConvertible {
        public let reason: String
        public var description: String { "the test's database could not be prepared: \(reason)" }
    }

    /// Builds the application on `settings` (the harness's unless given), reading the
    /// harness's clock, and runs `body` against it over Hummingbird's in-process router
    /// transport (or real sockets with `.live`); the application stops when `body` returns.
    public func run(
        _ testing: TestingSetup = .router, settings: ServerSettings? = nil, logger: Logger = quietLogger,
        metricsListening: @escaping @Sendable (Int) async -> Void = { _ in }, _ body: @Sendable @escaping (any TestClientProtocol) async throws -> Void
    ) async throws {
        let app = try await buildApplication(
            settings: settings ?? self.settings, clock: clock.serverClock, mailTransport: nil, logger: logger, mountingAlso: { _ in },
            metricsListening: metricsListening)
        try await run(testing, application: app, body)
    }

    /// Runs `body` against `application`, built by the test on the harness's settings and
    /// clock (with routes of its own, say), and stops it when `body` returns.
    public func run(
        _ testing: TestingSetup = .router, application: some ApplicationProtocol,
        _ body: @Sendable @escaping (any TestClientProtocol) async throws -> Void
    ) async throws {
        try await application.test(testing, body)
    }

    /// Runs `body`, then removes what the server left, whether `body` threw or not.
    public func removingAfterwards(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch {
            await remove()
            throw error
        }
        await remove()
    }

    /// Removes what the server left: its data directory, and its PostgreSQL database.
    public func remove() async { await Self.remove(settings) }

    private static func remove(_ settings: ServerSettings) async {
        try? FileManager.default.removeItem(atPath: settings.dataDirectory)
        if let url = settings.databaseURL { await TestPostgres.dropDatabase(url: url) }
    }

    /// A connection of the test's own to the server's database, for checking what a request
    /// changed; closed when `body` returns.
    public func withDatabase<T: Sendable>(_ body: @Sendable (Database) async throws -> T) async throws -> T {
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
