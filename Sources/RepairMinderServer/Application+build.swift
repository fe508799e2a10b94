import Foundation
import Hummingbird
import Logging
import RepairMinderModels

/// The server's version, reported by `/api/health`.
public let repairMinderVersion = "0.1.0"

/// Builds the Repair Minder API: opens and migrates the database, loads or generates the
/// signing secret, mounts every served route of the table and starts the mail delivery worker
/// (through `mailTransport`, or the one the settings name). The worker stops, then the
/// database closes, after the HTTP server has answered its last request.
public func buildApplication(
    settings: ServerSettings,
    clock: ServerClock = .system,
    mailTransport: (any MailTransport)? = nil,
    logger: Logger = Logger(label: "repairminder")
) async throws -> some ApplicationProtocol {
    try settings.validate()
    let secret = try settings.jwtSecret ?? GeneratedSecret.loadOrCreate(named: "jwt-secret", in: settings.dataDirectory)
    let encryptionKey = try settings.resolvedEncryptionKey()
    let transport = try mailTransport ?? settings.makeMailTransport()
    let metrics = settings.metricsEnabled ? ServerMetrics() : nil
    let database = try await Database.openMigrated(settings: settings, logger: logger, metrics: metrics)
    let hasher = PasswordHasher(cost: settings.bcryptCost)
    let mail = MailQueue(database: database, encryptionKey: encryptionKey)
    let router: Router<AppRequestContext>
    do {
        router = try buildRouter(
            ServerParts(
                settings: settings, database: database, hasher: hasher, jwtSecret: secret, encryptionKey: encryptionKey,
                clock: clock, mail: mail, metrics: metrics))
    } catch {
        await database.close()
        await hasher.shutdown()
        throw error
    }
    var app = Application(
        router: router,
        configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "RepairMinder"),
        logger: logger)
    // Services stop in reverse order, after the HTTP server: the worker, then the database.
    app.addServices(
        ShutdownService(database: database, hasher: hasher),
        MailDeliveryService(queue: mail, transport: transport, settings: settings, clock: clock, logger: logger, metrics: metrics),
        PurgeService(purge: Purge(database: database, settings: settings), clock: clock, logger: logger))
    return app
}

/// What the application is built from: settings, the open database, the secrets, the clock and
/// the mail queue. Everything else is derived from these in `buildRouter`.
struct ServerParts: Sendable {
    let settings: ServerSettings
    let database: Database
    let hasher: PasswordHasher
    let jwtSecret: String
    let encryptionKey: String
    let clock: ServerClock
    let mail: MailQueue
    /// nil when metrics are off.
    var metrics: ServerMetrics? = nil
}

/// Wires each feature with exactly what it needs and mounts the served routes of the table.
func buildRouter(_ parts: ServerParts) throws -> Router<AppRequestContext> {
    let (settings, database, clock) = (parts.settings, parts.database, parts.clock)
    let signer = JWTSigner(secret: parts.jwtSecret, previousSecret: settings.previousJWTSecret)
    // Not the JWT secret: that one rotates (docs/API.md §2.6), and the hashes must outlive it.
    let hashing = SecretHashing(masterKey: parts.encryptionKey)
    // The bearer check's cache, and the one service whose committed revocations clear it.
    let callerCache = StaffCallerCache()
    let revocation = SessionRevocation(database: database, callerCache: callerCache)
    let accounts = AccountStore(database: database)
    let sessions = SessionStore(database: database)
    let customers = CustomerStore(database: database)
    let counters = WindowCounters(database: database)
    let limits = AbuseLimits(counters: counters, settings: settings, clock: clock)
    let codes = EmailedCodes(
        store: EmailedCodeStore(database: database), hashing: hashing, limits: limits, mail: parts.mail, clock: clock,
        lifetime: settings.codeTTL, maxAttempts: settings.maxCodeAttempts,
        minimumDuration: .milliseconds(settings.codeRequestMinimumMilliseconds))
    let authenticatorApp = AuthenticatorApp(
        store: TOTPStore(database: database), secretBox: SecretBox(key: parts.encryptionKey), hashing: hashing)
    let staffIdentity = StaffIdentity(signer: signer, sessions: sessions, accounts: accounts, clock: clock, cache: callerCache)
    // REKI's tokens have keys of their own (derived): neither kind verifies as the other.
    let rekiSigner = signer.derived(for: "reki")
    let rekiSessions = SessionStore(database: database, realm: .reki)
    let rekiUsers = REKIUserStore(database: database)

    let router = Router(context: AppRequestContext.self)
    if let metrics = parts.metrics { router.add(middleware: RequestMetricsMiddleware(metrics: metrics)) }
    router.add(middleware: ClientAddressMiddleware(trustedProxies: try settings.trustedProxyRanges()))
    router.add(middleware: ErrorMiddleware(rekiServed: settings.rekiEnabled))
    router.add(middleware: QuarantineMiddleware(identity: staffIdentity))
    let routes = RouteMounter(
        router: router, decoder: RequestDecoder(limit: settings.maxBodySize),
        // One budget per client IP across staff and customer sign-in.
        ipLimiter: settings.ipRateLimit > 0 ? IPRateLimiter(counters: counters, limit: settings.ipRateLimit, clock: clock) : nil,
        staffIdentity: staffIdentity,
        customerIdentity: CustomerIdentity(signer: signer, customers: customers, accounts: accounts, clock: clock),
        rekiIdentity: settings.rekiEnabled
            ? REKIIdentity(signer: rekiSigner, sessions: rekiSessions, users: rekiUsers, clock: clock) : nil,
        metrics: parts.metrics)

    try PublicController(
        database: database, accounts: accounts, serverURL: settings.serverURL, logoDirectory: settings.dataDirectory,
        metrics: parts.metrics, rekiServed: settings.rekiEnabled)
        .mount(on: routes)
    let passwordPolicy = try PasswordPolicy.bundled()
    let issuer = TokenIssuer(
        signer: signer, accounts: accounts, sessions: sessions, revocation: revocation, settings: settings, clock: clock,
        metrics: parts.metrics)
    StaffLoginController(
        settings: settings, clock: clock, accounts: accounts, hasher: parts.hasher, limits: limits,
        challenges: LoginChallengeStore(database: database), hashing: hashing, mail: parts.mail,
        authenticatorApp: authenticatorApp, issuer: issuer
    ).mount(on: routes)
    MagicLinkController(accounts: accounts, codes: codes, issuer: issuer).mount(on: routes)
    SessionListController(clock: clock, sessions: sessions, revocation: revocation).mount(on: routes)
    RegistrationController(
        database: database, clock: clock, accounts: accounts, store: RegistrationStore(database: database),
        hasher: parts.hasher, policy: passwordPolicy, codes: codes, mail: parts.mail, issuer: issuer
    ).mount(on: routes)
    ActivityController(database: database).mount(on: routes)
    PasswordController(
        clock: clock, accounts: accounts, revocation: revocation, hasher: parts.hasher, policy: passwordPolicy,
        limits: limits, codes: codes
    ).mount(on: routes)
    StaffSessionController(
        settings: settings, clock: clock, revocation: revocation,
        rotation: RefreshTokenRotation<UserRecord>(
            database: database, hashing: hashing, settings: settings, metrics: parts.metrics, revocation: revocation),
        issuer: issuer
    ).mount(on: routes)
    TOTPController(app: authenticatorApp, limits: limits, clock: clock).mount(on: routes)
    CustomerAuthController(
        settings: settings, clock: clock, customers: customers, codes: codes, signer: signer, metrics: parts.metrics
    ).mount(on: routes)
    AccountController(serverURL: settings.serverURL).mount(on: routes)
    if settings.rekiEnabled {
        REKIController(
            database: database, settings: settings, clock: clock, users: rekiUsers, sessions: rekiSessions,
            revocation: revocation,
            rotation: RefreshTokenRotation(
                database: database, hashing: hashing, settings: settings, metrics: parts.metrics, revocation: revocation),
            resets: REKIPasswordResets(database: database, mail: parts.mail), signer: rekiSigner, hasher: parts.hasher,
            policy: passwordPolicy, limits: limits
        ).mount(on: routes)
    }
    PushController(
        tokens: DeviceTokenStore(database: database), preferences: PushPreferencesStore(database: database), clock: clock
    ).mount(on: routes)
    return router
}
