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
/// `draining` turns readiness off at a shutdown (`Draining.service`, run after the application).
public func buildApplication(
    settings: ServerSettings,
    clock: ServerClock = .system,
    mailTransport: (any MailTransport)? = nil,
    logger: Logger = Logger(label: "repairminder"),
    draining: Draining = Draining()
) async throws -> some ApplicationProtocol {
    try await buildApplication(
        settings: settings, clock: clock, mailTransport: mailTransport, logger: logger, draining: draining, mountingAlso: { _ in })
}

/// `buildApplication`, with routes of a test's own (`mountingAlso`) beside the table's, and
/// told the port the metrics listener bound (`metricsListening`).
func buildApplication(
    settings: ServerSettings, clock: ServerClock, mailTransport: (any MailTransport)?, logger: Logger, draining: Draining = Draining(),
    mountingAlso extra: (RouteMounter) -> Void, metricsListening: @escaping @Sendable (Int) async -> Void = { _ in }
) async throws -> some ApplicationProtocol {
    try settings.validate()
    let jwtSecret = try TokenSigner.jwtSecret(for: settings)
    let signer = try await TokenSigner(
        keys: TokenSigner.keys(for: settings, jwtSecret: jwtSecret, now: clock.now()), issuer: settings.serverURL)
    let transport = try mailTransport ?? settings.makeMailTransport()
    let metricsAddress = settings.metricsAddress.flatMap(ListenAddress.init)
    let metrics = metricsAddress == nil ? nil : ServerMetrics()
    let database = try await Database.openMigrated(settings: settings, logger: logger, metrics: metrics)
    let encryptionKeys: EncryptionKeys
    do {
        if settings.environment == .production, try await DemoFixtures.areLoaded(in: database) {
            throw SettingsError(
                "this database holds the demo accounts of serve --demo, whose passwords are published; --env production refuses it: start from a new database (or a backup taken before --demo)"
            )
        }
        // Checked before a key is generated: a data directory restored without its key must
        // not get a new one that opens nothing.
        try await EncryptionKeyCheck.requireOpening(database, with: try settings.existingEncryptionKeys())
        encryptionKeys = try settings.resolvedEncryptionKeys()
    } catch {
        await database.close()
        throw error
    }
    let hasher = PasswordHasher(cost: settings.bcryptCost)
    let mail = MailQueue(database: database, encryptionKeys: encryptionKeys)
    let router: Router<AppRequestContext>
    do {
        // The pages a mail links to, and the mails' HTML: a bundle without them refuses to start.
        _ = try PageTemplates.bundled.get()
        router = try buildRouter(
            ServerParts(
                settings: settings, database: database, hasher: hasher, signer: signer, encryptionKeys: encryptionKeys,
                clock: clock, mail: mail, metrics: metrics, consoleTemplates: try await ConsoleTemplates.bundled(), draining: draining),
            mountingAlso: extra)
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
    if settings.jwtAlgorithm != .hs256 {
        app.addServices(
            SigningKeyRefreshService(
                signer: signer, settings: settings, jwtSecret: jwtSecret, clock: clock, logger: logger,
                interval: settings.signingKeysRefreshInterval))
    }
    if let metrics, let metricsAddress {
        app.addServices(
            MetricsListener.application(
                metrics: metrics, mail: mail, address: metricsAddress, logger: logger, listening: metricsListening))
    }
    return app
}

/// What the application is built from: settings, the open database, the token signer and the
/// encryption key, the clock and the mail queue. Everything else is derived from these in
/// `buildRouter`.
struct ServerParts: Sendable {
    let settings: ServerSettings
    let database: Database
    let hasher: PasswordHasher
    let signer: TokenSigner
    let encryptionKeys: EncryptionKeys
    let clock: ServerClock
    let mail: MailQueue
    /// nil when metrics are off.
    var metrics: ServerMetrics? = nil
    /// The web console's templates and assets, read from the bundle once.
    var consoleTemplates: ConsoleTemplates
    /// Whether a shutdown began (readiness answers 503 from then on).
    var draining = Draining()
}

/// Wires each feature with exactly what it needs and mounts the served routes of the table.
func buildRouter(_ parts: ServerParts, mountingAlso extra: (RouteMounter) -> Void = { _ in }) throws -> Router<AppRequestContext> {
    let (settings, database, clock) = (parts.settings, parts.database, parts.clock)
    let signer = parts.signer
    // Not the JWT secret: that one rotates (docs/API.md §2.6), and the hashes must outlive it.
    let hashing = SecretHashing(keys: parts.encryptionKeys)
    // The bearer check's cache, and the one service whose committed revocations clear it.
    let callerCache = StaffCallerCache()
    let policies = SecurityPolicyStore(database: database, cache: ShopPolicyCache())
    let revocation = SessionRevocation(database: database, callerCache: callerCache)
    let accounts = AccountStore(database: database)
    let sessions = SessionStore(database: database)
    let customers = CustomerStore(database: database)
    let counters = WindowCounters(database: database)
    let limits = AbuseLimits(counters: counters, settings: settings, clock: clock)
    let codes = EmailedCodes(
        store: EmailedCodeStore(database: database), hashing: hashing, mail: parts.mail, clock: clock,
        lifetime: settings.codeTTL, maxAttempts: settings.maxCodeAttempts,
        minimumDuration: .milliseconds(settings.codeRequestMinimumMilliseconds))
    let authenticatorApp = AuthenticatorApp(
        store: TOTPStore(database: database), secretBox: SecretBox(keys: parts.encryptionKeys), hashing: hashing)
    let staffCallers = StaffCallers(sessions: sessions, accounts: accounts, cache: callerCache, policies: policies)
    let staffIdentity = StaffIdentity(signer: signer, lookup: staffCallers, clock: clock)
    let rekiSessions = SessionStore(database: database, realm: .reki)
    let rekiUsers = REKIUserStore(database: database)

    let router = Router(context: AppRequestContext.self)
    let trustedProxies = try settings.trustedProxyRanges()
    // Outermost: the request id and the access log see every answer as the client gets it.
    router.add(middleware: RequestLogMiddleware(trustedProxies: trustedProxies, accessLog: settings.accessLog))
    // Its headers go on every answer, the error envelopes included.
    router.add(middleware: ResponseHeadersMiddleware())
    if let metrics = parts.metrics { router.add(middleware: RequestMetricsMiddleware(metrics: metrics)) }
    router.add(middleware: ClientAddressMiddleware(trustedProxies: trustedProxies))
    let mounted = MountedRoutes()
    router.add(middleware: ErrorMiddleware(rekiServed: settings.rekiEnabled, mounted: mounted))
    router.add(middleware: QuarantineMiddleware(identity: staffIdentity))
    let guards = RouteGuards(
        decoder: RequestDecoder(limit: settings.maxBodySize), limits: limits, staffIdentity: staffIdentity,
        customerIdentity: CustomerIdentity(
            signer: signer, lookup: CustomerCallers(customers: customers, accounts: accounts), clock: clock),
        rekiIdentity: settings.rekiEnabled
            ? REKIIdentity(signer: signer, lookup: REKICallers(sessions: rekiSessions, users: rekiUsers), clock: clock) : nil)
    let routes = RouteMounter(router: router, mounted: mounted, guards: guards, metrics: parts.metrics)

    try PublicController(
        database: database, accounts: accounts, serverURL: settings.serverURL, logoDirectory: settings.dataDirectory,
        signer: signer, rekiServed: settings.rekiEnabled, appleAppIds: settings.appleAppIds, settings: settings,
        draining: parts.draining)
        .mount(on: routes)
    let passwordPolicy = try PasswordPolicy.bundled()
    let issuer = TokenIssuer(
        signer: signer, accounts: accounts, sessions: sessions, revocation: revocation, settings: settings, clock: clock,
        metrics: parts.metrics, policies: policies)
    let passkeys = PasskeyStore(database: database, maximumPerUser: settings.passkeysPerUser)
    let relyingParty = WebAuthnRelyingParty(
        id: settings.relyingPartyID, name: AuthenticatorApp.issuer, origins: Set(settings.relyingPartyOrigins))
    let passkeyAssertions = PasskeyAssertions(store: passkeys, relyingParty: relyingParty)
    let loginChallenges = LoginChallengeStore(database: database)
    let secondFactor = SecondFactorChallenge(
        settings: settings, clock: clock, challenges: loginChallenges, authenticatorApp: authenticatorApp, passkeys: passkeys,
        relyingParty: relyingParty, accounts: accounts)
    let staffLogin = StaffLoginController(
        settings: settings, clock: clock, accounts: accounts, hasher: parts.hasher, challenges: loginChallenges,
        hashing: hashing, mail: parts.mail, authenticatorApp: authenticatorApp, secondFactor: secondFactor,
        passkeys: passkeyAssertions, issuer: issuer, revocation: revocation, policies: policies)
    staffLogin.mount(on: routes)
    let magicLink = MagicLinkController(accounts: accounts, codes: codes, secondFactor: secondFactor, issuer: issuer, policies: policies)
    magicLink.mount(on: routes)
    let passkeyController = PasskeyController(
        clock: clock, store: passkeys, relyingParty: relyingParty, assertions: passkeyAssertions, issuer: issuer)
    passkeyController.mount(on: routes)
    let sessionList = SessionListController(clock: clock, sessions: sessions, revocation: revocation)
    sessionList.mount(on: routes)
    RegistrationController(
        database: database, clock: clock, accounts: accounts, store: RegistrationStore(database: database),
        hasher: parts.hasher, policy: passwordPolicy, codes: codes, mail: parts.mail, issuer: issuer
    ).mount(on: routes)
    let activity = ActivityController(database: database)
    activity.mount(on: routes)
    let team = TeamController(
        database: database, store: TeamStore(database: database, revocation: revocation), sessions: sessions, mail: parts.mail,
        clock: clock)
    team.mount(on: routes)
    let invitations = InvitationController(
        database: database, store: InvitationStore(database: database, mail: parts.mail), hasher: parts.hasher,
        policy: passwordPolicy, issuer: issuer, serverURL: settings.serverURL, clock: clock)
    invitations.mount(on: routes)
    let passwords = PasswordController(
        clock: clock, accounts: accounts, revocation: revocation, hasher: parts.hasher, policy: passwordPolicy, codes: codes)
    passwords.mount(on: routes)
    StaffSessionController(
        settings: settings, clock: clock, revocation: revocation,
        rotation: RefreshTokenRotation<UserRecord>(
            database: database, hashing: hashing, settings: settings, metrics: parts.metrics, revocation: revocation),
        issuer: issuer, policies: policies
    ).mount(on: routes)
    let securityPolicy = SecurityPolicyController(store: policies, settings: settings, clock: clock)
    securityPolicy.mount(on: routes)
    let clients = ClientController(
        store: ClientStore(database: database), portal: ClientPortal(database: database, mail: parts.mail, serverURL: settings.serverURL),
        clock: clock)
    clients.mount(on: routes)
    PortalPage.mount(on: routes)
    let platformAdmin = PlatformAdminController(
        administration: PlatformAdministration(database: database), users: PlatformUsers(database: database, revocation: revocation),
        audit: PlatformAudit(database: database), database: database, clock: clock)
    platformAdmin.mount(on: routes)
    let oauthApps = OAuthAppStore(database: database)
    let grants = OAuthGrantStore(database: database, revocation: revocation)
    let appsController = OAuthAppController(store: oauthApps, grants: grants, clock: clock)
    appsController.mount(on: routes)
    let totp = TOTPController(app: authenticatorApp, clock: clock)
    totp.mount(on: routes)
    CustomerAuthController(
        settings: settings, clock: clock, customers: customers, codes: codes, signer: signer, metrics: parts.metrics
    ).mount(on: routes)
    AccountController(serverURL: settings.serverURL).mount(on: routes)
    if settings.rekiEnabled {
        let reki = REKIController(
            database: database, settings: settings, clock: clock, users: rekiUsers, sessions: rekiSessions,
            revocation: revocation,
            rotation: RefreshTokenRotation(
                database: database, hashing: hashing, settings: settings, metrics: parts.metrics, revocation: revocation),
            resets: REKIPasswordResets(database: database, mail: parts.mail), signer: signer, hasher: parts.hasher,
            policy: passwordPolicy)
        reki.mount(on: routes)
        // The page the reset mail links to: HTML for browsers, so beside the table (see its type).
        REKIResetPageController(reki: reki).mount(on: routes)
    }
    let (deviceTokens, pushPreferences) = (DeviceTokenStore(database: database), PushPreferencesStore(database: database))
    PushController(tokens: deviceTokens, preferences: pushPreferences, clock: clock).mount(on: routes)
    let ownAccount = AccountDeletionController(
        settings: settings, clock: clock, deletion: AccountDeletion(revocation: revocation), hasher: parts.hasher,
        database: database, sessionList: sessionList, passkeys: passkeyController, totp: totp, tokens: deviceTokens,
        preferences: pushPreferences)
    ownAccount.mount(on: routes)
    // The web console: HTML for browsers over the same controllers, so beside the table.
    let console = Console(
        templates: parts.consoleTemplates, sessions: ConsoleSessionStore(database: database), callers: staffCallers, guards: guards,
        settings: settings, clock: clock, metrics: parts.metrics)
    let consoleSignIn = ConsoleSignIn(
        console: console, login: staffLogin, signer: signer, policies: policies, revocation: revocation, magicLink: magicLink,
        passwords: passwords)
    // The page the invitation mail links to: HTML for browsers, so beside the table (see its
    // type); joining there without a password signs in to the console, as the app's accept does.
    InvitationPageController(invitations: invitations, settings: settings) { userId, device, request in
        let tokens = try await issuer.signIn(userId: userId, device: device, method: .invitation, factors: [.emailedCode])
        return try await consoleSignIn.start(tokens, request, landing: "/account?notice=joined")
    }.mount(on: routes)
    ConsoleController(
        console: console,
        signIn: consoleSignIn,
        team: ConsoleTeamPages(console: console, team: team, invitations: invitations),
        shops: ConsoleShopPages(console: console, platform: platformAdmin),
        platform: ConsolePlatformPages(console: console, platform: platformAdmin),
        account: ConsoleAccountPages(
            console: console, sessionList: sessionList, password: passwords, activity: activity,
            authenticator: ConsoleAuthenticatorPages(console: console, controller: totp),
            passkeys: ConsolePasskeyPages(console: console, controller: passkeyController), ownAccount: ownAccount,
            connectedApps: appsController),
        clients: ConsoleClientPages(console: console, clients: clients),
        policy: ConsolePolicyPages(console: console, policies: securityPolicy, team: team),
        apps: ConsoleAppPages(console: console, controller: appsController)
    ).mount(on: router)
    // The OpenID Connect provider (docs/API.md §16): OAuth's own shapes (forms, redirects,
    // RFC 6749's errors), so beside the table.
    OAuthAuthorizeController(console: console, apps: oauthApps, grants: grants, issuer: settings.serverURL)
        .mount(on: router)
    OAuthTokenController(
        apps: oauthApps, grants: grants, accounts: accounts, signer: signer,
        rotation: RefreshTokenRotation(database: database, hashing: hashing, settings: settings, metrics: parts.metrics, revocation: revocation),
        limits: limits, settings: settings, clock: clock
    ).mount(on: router)
    OAuthDiscoveryController(console: console, apps: oauthApps, signer: signer, revocation: revocation, issuer: settings.serverURL)
        .mount(on: router)
    extra(routes)
    // A route the table serves that no controller mounted stops the start, naming it: a client
    // would otherwise meet a 404 the contract does not have. (REKI's routes are off with --reki false.)
    let rekiRoutes = Set(Routes.reki.routes.map(\.description))
    let unmounted = mounted.missing(from: Routes.served.filter { settings.rekiEnabled || !rekiRoutes.contains($0.description) })
    guard unmounted.isEmpty else { throw UnmountedRoutes(routes: unmounted.map { $0.description }) }
    return router
}

/// Routes of the table that the server was built without.
struct UnmountedRoutes: Error, CustomStringConvertible {
    let routes: [String]
    var description: String { "the route table serves \(routes.joined(separator: ", ")), which no controller mounted" }
}
