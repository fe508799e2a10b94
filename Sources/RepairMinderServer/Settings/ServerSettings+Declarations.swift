import Logging

extension ServerSettings {
    /// Every setting an operator can give, in the order help and docs/configuration.md list them. Each is
    /// a flag (`--data-dir`), an environment variable (`REPAIRMINDER_DATA_DIR`) and a key of the
    /// `--config` file (`data-dir`); durations are seconds. Defaults are docs/API.md §7's.
    public static let declarations: [Setting] = [
        .text("host", default: "127.0.0.1", help: "Address to listen on.") { $0.host = $1 },
        .number("port", default: 8080, help: "Port to listen on.") { $0.port = $1 },
        .text(
            "data-dir", default: "./.repairminder", alsoFor: ["migrate", "seed"],
            help: "Directory for the SQLite database, generated secrets, logos and the development outbox."
        ) { $0.dataDirectory = $1 },
        .text(
            "database-url", default: "<data-dir>/repairminder.sqlite", secret: true, alsoFor: ["migrate", "seed"],
            help: "`postgres://user:password@host:5432/db` (add `?sslmode=require` for TLS), `sqlite:///path/file.sqlite` or a file path."
        ) { $0.databaseURL = $1 },
        .number(
            "database-pool-size", default: 10, alsoFor: ["migrate", "seed"],
            help: "Database connections per server instance (PostgreSQL; SQLite uses at most 4)."
        ) { $0.databasePoolSize = $1 },
        .choice(
            "sqlite-synchronous", default: "full", alsoFor: ["migrate", "seed"],
            help: "SQLite durability: `full`, every commit survives a power loss (a logout, a revoked token, a used code stays done; PostgreSQL's `synchronous_commit = on`), or `normal`, faster, but a power loss can undo the last commits."
        ) { (settings, value: SQLiteSynchronous) in settings.sqliteSynchronous = value },
        .choice(
            "jwt-algorithm", default: "ES256",
            help: "How access tokens are signed: `ES256` or `EdDSA` with a key pair of `--signing-keys` (published at `/.well-known/jwks.json` for other services), or `HS256` with `--jwt-secret`."
        ) { (settings, value: SigningKeyAlgorithm) in settings.jwtAlgorithm = value },
        .text(
            "signing-keys", default: "<data-dir>/signing-keys.json",
            help: "The signing key set, a JWK Set file with the private keys (mode 0600). Generated once in development; with `--env production` it must exist (`repairminder keys rotate` creates it)."
        ) { $0.signingKeys = $1 },
        .text(
            "jwt-secret", default: "generated into the data dir with HS256", secret: true,
            help: "HS256 signing secret, at least 32 bytes; required with `--env production` and `HS256`. With a key pair algorithm, tokens it signed keep verifying until they expire."
        ) { $0.jwtSecret = $1 },
        .text(
            "jwt-previous-secret", secret: true,
            help: "The HS256 secret before a rotation: its tokens stay valid until they expire."
        ) { $0.previousJWTSecret = $1 },
        .text(
            "encryption-key", default: "generated into the data dir", secret: true,
            help: "Encrypts TOTP secrets and queued mail at rest; at least 32 bytes, required with `--env production`."
        ) { $0.encryptionKey = $1 },
        .text(
            "encryption-previous-key", secret: true,
            help: "The encryption key before a rotation: what it sealed still opens and its codes still verify, while `repairminder keys rotate-encryption` seals everything again under `--encryption-key`."
        ) { $0.previousEncryptionKey = $1 },
        .text(
            "public-url", default: "http://<host>:<port>",
            help: "The URL clients reach the server at (links in mail, logo URLs); required with `--env production`."
        ) { $0.publicURL = $1 },
        .choice(
            "env", default: "development",
            help: "`development` generates missing secrets and may write mail to a file; `production` refuses to."
        ) { (settings, value: ServerSettings.Environment) in settings.environment = value },
        .number("bcrypt-cost", default: 12, alsoFor: ["seed"], help: "Password hashing cost, 4 to 31.") { $0.bcryptCost = $1 },
        .number("access-token-ttl", default: 900, help: "Access token lifetime.") { $0.accessTokenTTL = $1 },
        .number("refresh-token-ttl-web", default: 604_800, note: "7 days", help: "Refresh token lifetime for browsers, sliding.") {
            $0.refreshTokenTTLWeb = $1
        },
        .number(
            "refresh-token-ttl-mobile", default: 7_776_000, note: "90 days",
            help: "Refresh token lifetime for mobile User-Agents, sliding."
        ) { $0.refreshTokenTTLMobile = $1 },
        .number(
            "session-max-lifetime-web", default: 2_592_000, note: "30 days",
            help: "How long a browser session lasts from its sign-in, however often it is refreshed; then `REFRESH_TOKEN_EXPIRED`."
        ) { $0.sessionMaxLifetimeWeb = $1 },
        .number(
            "session-max-lifetime-mobile", default: 31_536_000, note: "365 days",
            help: "The same for mobile User-Agents."
        ) { $0.sessionMaxLifetimeMobile = $1 },
        .number("code-ttl", default: 600, help: "Emailed code lifetime.") { $0.codeTTL = $1 },
        .number(
            "customer-session-ttl-web", default: 604_800, note: "7 days", help: "Customer token lifetime for browsers."
        ) { $0.customerSessionTTLWeb = $1 },
        .number(
            "customer-session-ttl-mobile", default: 7_776_000, note: "90 days",
            help: "Customer token lifetime for mobile User-Agents."
        ) { $0.customerSessionTTLMobile = $1 },
        .number("max-code-attempts", default: 5, help: "Wrong codes allowed per code or login challenge.") { $0.maxCodeAttempts = $1 },
        .number(
            "max-body-size", default: 65_536, note: "64 KiB",
            help: "Largest request body in bytes, 1024 to 1048576; a larger one is 413 PAYLOAD_TOO_LARGE."
        ) { $0.maxBodySize = $1 },
        .number(
            "refresh-reuse-grace", default: 10, help: "Seconds a rotated refresh token may be retried (a lost response)."
        ) { $0.refreshReuseGrace = $1 },
        .number(
            "code-resend-interval", default: 30, help: "Minimum seconds between code emails to one address or challenge; 0 = off."
        ) { $0.codeResendInterval = $1 },
        .number(
            "code-emails-per-hour", default: 10,
            help: "Code emails per address and client network (IPv4 /24, IPv6 /64) per hour, 5 times that per address from all networks; a login challenge sends at most 5; 0 = off."
        ) { $0.codeEmailsPerHour = $1 },
        .number(
            "ip-rate-limit", default: 60,
            help: "Requests per minute per client IP on the sign-in routes (login, 2FA, magic link, refresh, customer code); 0 = off."
        ) { $0.ipRateLimit = $1 },
        .number(
            "login-failure-limit", default: 10,
            help: "Failed password logins per account and client network per 15 minutes, 5 times that per account from all networks; 0 = off."
        ) { $0.loginFailureLimit = $1 },
        .number(
            "second-factor-failure-limit", default: 10,
            help: "Wrong second-factor codes (emailed, authenticator, recovery) per staff user per hour, across logins; a right password does not reset it; 0 = off."
        ) { $0.secondFactorFailureLimit = $1 },
        .number(
            "wrong-code-limit", default: 10,
            help: "Wrong emailed codes per address and client network per hour, across every code sent to it (a new code does not reset it), 5 times that per address from all networks; 0 = off."
        ) { $0.wrongCodeLimit = $1 },
        .number(
            "passkeys-per-user", default: 20,
            help: "Passkeys one staff member may have; beyond, enrolment answers 409 PASSKEY_LIMIT (every sign-in loads them all)."
        ) { $0.passkeysPerUser = $1 },
        .number(
            "passkey-enrolments-per-minute", default: 10,
            help: "Passkey enrolments a staff member may start a minute (each stores a challenge; at most 5 stay open); 0 = off."
        ) { $0.passkeyEnrolmentsPerMinute = $1 },
        .number(
            "invitations-per-day", default: 50,
            help: "Invitation mails (sent and resent) a shop may send a day; beyond, 429 with Retry-After; 0 = off."
        ) { $0.invitationsPerDay = $1 },
        .number(
            "code-request-min-ms", default: 150,
            help: "The least time in milliseconds a request that emails a code takes (magic link, customer code, reset, registration), so an address with an account answers as fast as one without."
        ) { $0.codeRequestMinimumMilliseconds = $1 },
        .flag(
            "require-challenge-token", default: false,
            help: "Login steps 2 and 3 must send step 1's `challengeToken` (the SDK and CLI always do; seed clients do not)."
        ) { $0.requireChallengeToken = $1 },
        .list(
            "trusted-proxies",
            help: "Addresses or CIDR ranges (`10.0.0.0/8,fd00::/8`) of your reverse proxies: only from them is `X-Forwarded-For` believed (the rightmost address that is not a trusted proxy). It decides the client IP of the per-IP limits (IPv6 counted per /64), login challenge binding, session addresses and whose `X-Request-Id` is kept."
        ) { $0.trustedProxies = $1 },
        .number(
            "purge-retention", default: 604_800, note: "7 days",
            help: "How long an expired or revoked session, refresh token, login challenge or emailed code is kept before the hourly purge deletes it."
        ) { $0.purgeRetention = $1 },
        .text(
            "metrics-address",
            help: "Serve Prometheus metrics at `GET /metrics` on this `HOST:PORT`, a listener of its own (never the API port). Keep it private: the counts differ for addresses with and without an account."
        ) { $0.metricsAddress = $1 },
        .number(
            "drain-delay", default: 0,
            help: "Seconds from a SIGTERM to the listener closing: `/readyz` answers 503 meanwhile, so a load balancer stops sending requests first (5 to 10 behind one)."
        ) { $0.drainDelay = $1 },
        .text(
            "webauthn-rp-id", default: "the public URL's host, or localhost without one",
            help: "The domain passkeys belong to (WebAuthn's relying party id); an IP address is refused with `--env production`."
        ) { $0.webauthnRPID = $1 },
        .list(
            "webauthn-origins", default: "the public URL's origin, or http://localhost:PORT without one",
            help: "Origins passkey ceremonies may come from, each on the relying party id's domain (an iOS app's is `https://<rp id>`)."
        ) { $0.webauthnOrigins = $1 },
        .list(
            "apple-app-ids",
            help: "`TEAMID.bundle.id` of the iOS apps that `/.well-known/apple-app-site-association` lets use this domain's passkeys and open its reset links."
        ) { $0.appleAppIds = $1 },
        .flag(
            "reki", default: true,
            help: "Serve REKI's contract under `/auth/*` and its reset link's page `/reset-password` (docs/API.md §10); `false`: those paths answer 404."
        ) { $0.rekiEnabled = $1 },
        .choice(
            "log-format", default: "text",
            help: "`text`, one readable line per event, or `json`, one JSON object per line for a log collector."
        ) { (settings, value: LogFormat) in settings.logFormat = value },
        .choice(
            "log-level", default: "info",
            help: "The least severe events logged (`--verbose` is `debug`)."
        ) { (settings, value: Logger.Level) in settings.logLevel = value },
        .flag(
            "access-log", default: true,
            help: "One log line per request: method, route pattern, status, duration, request id (never a body, token, code or query value)."
        ) { $0.accessLog = $1 },
        .choice(
            "mail-transport", default: "smtp with --smtp-url, else outbox",
            help: "How mail leaves: `smtp`, or `outbox` (`<data-dir>/outbox.jsonl`, development). `--env production` needs `smtp`, or `outbox` named explicitly."
        ) { (settings, value: MailTransportKind) in settings.mailTransport = value },
        .text(
            "smtp-url", secret: true,
            help: "`smtp://user:password@host:587` (STARTTLS required), `smtps://user:password@host:465`, or `smtp://127.0.0.1:25?tls=none` for a relay on this machine."
        ) { $0.smtpURL = $1 },
        .text(
            "mail-from",
            help: "The sender of every email, like `Repair Minder <no-reply@example.com>`; required with `--smtp-url`."
        ) { $0.mailFrom = $1 },
        .text(
            "smtp-ca-file", default: "the system's",
            help: "PEM file of certificates to trust for the mail server instead of the system's (a private CA)."
        ) { $0.smtpCAFile = $1 },
        .number(
            "mail-retry-limit", default: 86_400, note: "24 h", help: "How long a message keeps being retried before it is marked failed."
        ) { $0.mailRetryLimit = $1 },
        .number(
            "mail-retention", default: 86_400, note: "24 h", help: "How long the encrypted body of a sent or failed message is kept."
        ) { $0.mailRetention = $1 },
    ]

    /// The settings `command` reads: all of them for `serve` and `config`.
    public static func declarations(for command: String) -> [Setting] {
        ["serve", "config"].contains(command) ? declarations : declarations.filter { $0.alsoFor.contains(command) }
    }
}
