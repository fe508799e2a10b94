import Foundation
import Hummingbird
import Logging
import RepairMinderModels

/// The server's version, reported by `/api/health`.
public let repairMinderVersion = "0.1.0"

/// Builds the Repair Minder API: opens and migrates the database, loads or generates the
/// signing secret, and wires every route. The database is closed when the application stops.
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
    let database = try await Database.openMigrated(settings: settings, logger: logger)
    let services = AuthServices(
        settings: settings, database: database, jwtSecret: secret, encryptionKey: encryptionKey, clock: clock,
        mailer: mailer ?? OutboxMailer(dataDirectory: settings.dataDirectory, logger: logger))
    let router: Router<AppRequestContext>
    do {
        router = try buildRouter(services: services)
    } catch {
        await database.close()
        await services.hasher.shutdown()
        throw error
    }
    var app = Application(
        router: router,
        configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "RepairMinder"),
        logger: logger)
    app.addServices(ShutdownService(database: database, hasher: services.hasher))
    return app
}

func buildRouter(services: AuthServices) throws -> Router<AppRequestContext> {
    let router = Router(context: AppRequestContext.self)
    router.add(middleware: ErrorMiddleware())
    router.add(middleware: QuarantineMiddleware(services: services))
    try PublicController(services: services).addRoutes(to: router)
    // One budget per client IP across staff and customer sign-in.
    let limiter = IPRateLimiter(limitPerMinute: services.settings.ipRateLimit, clock: services.clock)
    func authGroup(_ path: RouterPath) -> RouterGroup<AppRequestContext> {
        let group = router.group(path)
        if services.settings.ipRateLimit > 0 { group.add(middleware: IPRateLimitMiddleware(limiter: limiter)) }
        return group
    }
    let staffAuth = authGroup("api/auth")
    StaffAuthController(services: services).addRoutes(to: staffAuth)
    TOTPController(services: services).addRoutes(to: staffAuth)
    CustomerAuthController(services: services).addRoutes(to: authGroup("api/customer/auth"))
    AccountController(services: services).addRoutes(to: router)
    PushController(services: services).addRoutes(to: router)
    return router
}
