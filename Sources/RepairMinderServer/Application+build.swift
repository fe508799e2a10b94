import Foundation
import Hummingbird
import Logging
import RepairMinderModels

/// The server's version, reported by `/api/health`.
public let repairMinderVersion = "0.1.0"

/// Builds the Repair Minder API: opens and migrates the database, loads or generates the
/// signing secret, and mounts every served route of the table. The database is closed when
/// the application stops.
public func buildApplication(
    settings: ServerSettings,
    clock: ServerClock = .system,
    mailer: (any Mailer)? = nil,
    logger: Logger = Logger(label: "repairminder")
) async throws -> some ApplicationProtocol {
    try settings.validate()
    let secret = try settings.jwtSecret ?? GeneratedSecret.loadOrCreate(named: "jwt-secret", in: settings.dataDirectory)
    let encryptionKey = try settings.encryptionKey
        ?? GeneratedSecret.loadOrCreate(named: "encryption-key", in: settings.dataDirectory)
    let metrics = settings.metricsEnabled ? ServerMetrics() : nil
    let database = try await Database.openMigrated(settings: settings, logger: logger, metrics: metrics)
    let hasher = PasswordHasher(cost: settings.bcryptCost)
    let router: Router<AppRequestContext>
    do {
        router = try buildRouter(
            ServerParts(
                settings: settings, database: database, hasher: hasher, jwtSecret: secret, encryptionKey: encryptionKey,
                clock: clock, mailer: mailer ?? OutboxMailer(dataDirectory: settings.dataDirectory, logger: logger),
                metrics: metrics))
    } catch {
        await database.close()
        await hasher.shutdown()
        throw error
    }
    var app = Application(
        router: router,
        configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "RepairMinder"),
        logger: logger)
    app.addServices(ShutdownService(database: database, hasher: hasher))
    return app
}

/// What the application is built from: settings, the open database, the secrets, the clock and
/// the mailer. Everything else is derived from these in `buildRouter`.
struct ServerParts: Sendable {
    let settings: ServerSettings
    let database: Database
    let hasher: PasswordHasher
    let jwtSecret: String
    let encryptionKey: String
    let clock: ServerClock
    let mailer: any Mailer
    /// nil when metrics are off.
    var metrics: ServerMetrics? = nil
}

/// Wires each feature with exactly what it needs and mounts the served routes of the table.
func buildRouter(_ parts: ServerParts) throws -> Router<AppRequestContext> {
    let (settings, database, clock) = (parts.settings, parts.database, parts.clock)
    let signer = JWTSigner(secret: parts.jwtSecret, previousSecret: settings.previousJWTSecret)
    let hashing = SecretHashing(serverSecret: parts.jwtSecret)
    let accounts = AccountStore(database: database)
    let sessions = SessionStore(database: database)
    let customers = CustomerStore(database: database)
    let counters = WindowCounters(database: database)
    let limits = AbuseLimits(counters: counters, settings: settings, clock: clock)
    let codes = EmailedCodes(
        store: EmailedCodeStore(database: database), hashing: hashing, limits: limits, mailer: parts.mailer, clock: clock,
        lifetime: settings.codeTTL, maxAttempts: settings.maxCodeAttempts)
    let authenticatorApp = AuthenticatorApp(
        store: TOTPStore(database: database), secretBox: SecretBox(key: parts.encryptionKey), hashing: hashing)
    let staffIdentity = StaffIdentity(signer: signer, sessions: sessions, accounts: accounts, clock: clock)

    let router = Router(context: AppRequestContext.self)
    if let metrics = parts.metrics { router.add(middleware: RequestMetricsMiddleware(metrics: metrics)) }
    router.add(middleware: ErrorMiddleware())
    router.add(middleware: QuarantineMiddleware(identity: staffIdentity))
    let routes = RouteMounter(
        router: router, decoder: RequestDecoder(limit: settings.maxBodySize),
        // One budget per client IP across staff and customer sign-in.
        ipLimiter: settings.ipRateLimit > 0 ? IPRateLimiter(counters: counters, limit: settings.ipRateLimit, clock: clock) : nil,
        staffIdentity: staffIdentity,
        customerIdentity: CustomerIdentity(signer: signer, customers: customers, accounts: accounts, clock: clock),
        metrics: parts.metrics)

    try PublicController(database: database, accounts: accounts, serverURL: settings.serverURL, metrics: parts.metrics)
        .mount(on: routes)
    let issuer = TokenIssuer(
        signer: signer, accounts: accounts, sessions: sessions, settings: settings, clock: clock, metrics: parts.metrics)
    StaffLoginController(
        settings: settings, clock: clock, accounts: accounts, hasher: parts.hasher, limits: limits,
        challenges: LoginChallengeStore(database: database), hashing: hashing, mailer: parts.mailer,
        authenticatorApp: authenticatorApp, issuer: issuer
    ).mount(on: routes)
    MagicLinkController(accounts: accounts, codes: codes, issuer: issuer).mount(on: routes)
    StaffSessionController(
        settings: settings, clock: clock, sessions: sessions,
        rotation: RefreshTokenRotation(database: database, hashing: hashing, settings: settings, metrics: parts.metrics),
        issuer: issuer
    ).mount(on: routes)
    TOTPController(app: authenticatorApp, limits: limits, clock: clock).mount(on: routes)
    CustomerAuthController(
        settings: settings, clock: clock, customers: customers, codes: codes, signer: signer, metrics: parts.metrics
    ).mount(on: routes)
    AccountController(serverURL: settings.serverURL).mount(on: routes)
    PushController(
        tokens: DeviceTokenStore(database: database), preferences: PushPreferencesStore(database: database), clock: clock
    ).mount(on: routes)
    return router
}
