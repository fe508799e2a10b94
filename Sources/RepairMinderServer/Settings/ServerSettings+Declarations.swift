import Logging

extension ServerSettings {
    /// Every setting an operator can give, in the order help and docs/configuration.md list them. Each is
    /// a flag (`--data-dir`), an environment variable (`REPAIRMINDER_DATA_DIR`) and a key of the
    /// `--config` file (`data-dir`); durations are seconds. Defaults are docs/API.md §7's.
    public static let declarations: [Setting] = [
        .text("host", \.host, help: "Address to listen on."),
        .number("port", \.port, help: "Port to listen on."),
        .text(
            "data-dir", \.dataDirectory, alsoFor: ["migrate", "seed"],
            help: "Directory for the SQLite database, generated secrets, logos and the development outbox."
        ),
        .text(
            "database-url", \.databaseURL, default: "<data-dir>/repairminder.sqlite", secret: true, alsoFor: ["migrate", "seed"],
            help: "`postgres://user:password@host:5432/db` (add `?sslmode=require` for TLS), `sqlite:///path/file.sqlite` or a file path."
        ),
        .number(
            "database-pool-size", \.databasePoolSize, alsoFor: ["migrate", "seed"],
            help: "Database connections per server instance (PostgreSQL; SQLite uses at most 4)."
        ),
        .choice(
            "sqlite-synchronous", \.sqliteSynchronous, alsoFor: ["migrate", "seed"],
            help: "SQLite durability: `full`, every commit survives a power loss (a logout, a revoked token, a used code stays done; PostgreSQL's `synchronous_commit = on`), or `normal`, faster, but a power loss can undo the last commits."
        ),
        .choice(
            "jwt-algorithm", \.jwtAlgorithm,
            help: "How access tokens are signed: `ES256` or `EdDSA` with a key pair of `--signing-keys` (published at `/.well-known/jwks.json` for other services), or `HS256` with `--jwt-secret`."
        ),
        .text(
            "signing-keys", \.signingKeys, default: "<data-dir>/signing-keys.json",
            help: "The signing key set, a JWK Set file with the private keys (mode 0600). Generated once in development; with `--env production` it must exist (`repairminder keys rotate` creates it)."
        ),
        .text(
            "jwt-secret", \.jwtSecret, default: "generated into the data dir with HS256", secret: true,
            help: "HS256 signing secret, at least 32 bytes; required with `--env production` and `HS256`. With a key pair algorithm, tokens it signed keep verifying until they expire."
        ),
        .text(
            "jwt-previous-secret", \.previousJWTSecret, secret: true,
            help: "The HS256 secret before a rotation: its tokens stay valid until they expire."
        ),
        .text(
            "encryption-key", \.encryptionKey, default: "generated into the data dir", secret: true,
            help: "Encrypts TOTP secrets and queued mail at rest; at least 32 bytes, required with `--env production`."
        ),
        .text(
            "encryption-previous-key", \.previousEncryptionKey, secret: true,
            help: "The encryption key before a rotation: what it sealed still opens and its codes still verify, while `repairminder keys rotate-encryption` seals everything again under `--encryption-key`."
        ),
        .text(
            "public-url", \.publicURL, default: "http://<host>:<port>",
            help: "The URL clients reach the server at (links in mail, logo URLs); required with `--env production`."
        ),
        .choice(
            "env", \.environment,
            help: "`development` generates missing secrets and may write mail to a file; `production` refuses to."
        ),
        .number("bcrypt-cost", \.bcryptCost, alsoFor: ["seed"], help: "Password hashing cost, 4 to 31."),
        .number("access-token-ttl", \.accessTokenTTL, help: "Access token lifetime."),
        .number("refresh-token-ttl-web", \.refreshTokenTTLWeb, note: "7 days", help: "Refresh token lifetime for browsers, sliding."),
        .number(
            "refresh-token-ttl-mobile", \.refreshTokenTTLMobile, note: "90 days",
            help: "Refresh token lifetime for mobile User-Agents, sliding."
        ),
        .number(
            "session-max-lifetime-web", \.sessionMaxLifetimeWeb, note: "30 days",
            help: "How long a browser session lasts from its sign-in, however often it is refreshed; then `REFRESH_TOKEN_EXPIRED`."
        ),
        .number(
            "session-max-lifetime-mobile", \.sessionMaxLifetimeMobile, note: "365 days",
            help: "The same for mobile User-Agents."
        ),
        .number("code-ttl", \.codeTTL, help: "Emailed code lifetime."),
        .number(
            "customer-session-ttl-web", \.customerSessionTTLWeb, note: "7 days", help: "Customer token lifetime for browsers."
        ),
        .number(
            "customer-session-ttl-mobile", \.customerSessionTTLMobile, note: "90 days",
            help: "Customer token lifetime for mobile User-Agents."
        ),
        .number("max-code-attempts", \.maxCodeAttempts, help: "Wrong codes allowed per code or login challenge."),
        .number(
            "max-body-size", \.maxBodySize, note: "64 KiB",
            help: "Largest request body in bytes, 1024 to 1048576; a larger one is 413 PAYLOAD_TOO_LARGE."
        ),
        .number(
            "refresh-reuse-grace", \.refreshReuseGrace, help: "Seconds a rotated refresh token may be retried (a lost response)."
        ),
        .number(
            "code-resend-interval", \.codeResendInterval, help: "Minimum seconds between code emails to one address or challenge; 0 = off."
        ),
        .number(
            "code-emails-per-hour", \.codeEmailsPerHour,
            help: "Code emails per address and client network (IPv4 /24, IPv6 /64) per hour, 5 times that per address from all networks; a login challenge sends at most 5; 0 = off."
        ),
        .number(
            "ip-rate-limit", \.ipRateLimit,
            help: "Requests per minute per client IP on the sign-in routes (login, 2FA, magic link, refresh, customer code); 0 = off."
        ),
        .number(
            "login-failure-limit", \.loginFailureLimit,
            help: "Failed password logins per account and client network per 15 minutes, 5 times that per account from all networks; 0 = off."
        ),
        .number(
            "second-factor-failure-limit", \.secondFactorFailureLimit,
            help: "Wrong second-factor codes (emailed, authenticator, recovery) per staff user per hour, across logins; a right password does not reset it; 0 = off."
        ),
        .number(
            "wrong-code-limit", \.wrongCodeLimit,
            help: "Wrong emailed codes per address and client network per hour, across every code sent to it (a new code does not reset it), 5 times that per address from all networks; 0 = off."
        ),
        .number(
            "passkeys-per-user", \.passkeysPerUser,
            help: "Passkeys one staff member may have; beyond, enrolment answers 409 PASSKEY_LIMIT (every sign-in loads them all)."
        ),
        .number(
            "passkey-enrolments-per-minute", \.passkeyEnrolmentsPerMinute,
            help: "Passkey enrolments a staff member may start a minute (each stores a challenge; at most 5 stay open); 0 = off."
        ),
        .number(
            "invitations-per-day", \.invitationsPerDay,
            help: "Invitation mails (sent and resent) a shop may send a day; beyond, 429 with Retry-After; 0 = off."
        ),
        .number(
            "code-request-min-ms", \.codeRequestMinimumMilliseconds,
            help: "The least time in milliseconds a request that emails a code takes (magic link, customer code, reset, registration), so an address with an account answers as fast as one without."
        ),
        .flag(
            "require-challenge-token", \.requireChallengeToken,
            help: "Login steps 2 and 3 must send step 1's `challengeToken` (the SDK and CLI always do; seed clients do not)."
        ),
        .list(
            "trusted-proxies", \.trustedProxies,
            help: "Addresses or CIDR ranges (`10.0.0.0/8,fd00::/8`) of your reverse proxies: only from them is `X-Forwarded-For` believed (the rightmost address that is not a trusted proxy). It decides the client IP of the per-IP limits (IPv6 counted per /64), login challenge binding, session addresses and whose `X-Request-Id` is kept."
        ),
        .number(
            "purge-retention", \.purgeRetention, note: "7 days",
            help: "How long an expired or revoked session, refresh token, login challenge or emailed code is kept before the hourly purge deletes it."
        ),
        .text(
            "metrics-address", \.metricsAddress,
            help: "Serve Prometheus metrics at `GET /metrics` on this `HOST:PORT`, a listener of its own (never the API port). Keep it private: the counts differ for addresses with and without an account."
        ),
        .number(
            "drain-delay", \.drainDelay,
            help: "Seconds from a SIGTERM to the listener closing: `/readyz` answers 503 meanwhile, so a load balancer stops sending requests first (5 to 10 behind one)."
        ),
        .text(
            "webauthn-rp-id", \.webauthnRPID, default: "the public URL's host, or localhost without one",
            help: "The domain passkeys belong to (WebAuthn's relying party id); an IP address is refused with `--env production`."
        ),
        .list(
            "webauthn-origins", \.webauthnOrigins, default: "the public URL's origin, or http://localhost:PORT without one",
            help: "Origins passkey ceremonies may come from, each on the relying party id's domain (an iOS app's is `https://<rp id>`)."
        ),
        .list(
            "apple-app-ids", \.appleAppIds,
            help: "`TEAMID.bundle.id` of the iOS apps that `/.well-known/apple-app-site-association` lets use this domain's passkeys and open its reset links."
        ),
        .flag(
            "reki", \.rekiEnabled,
            help: "Serve REKI's contract under `/auth/*` and its reset link's page `/reset-password` (docs/API.md §10); `false`: those paths answer 404."
        ),
        .choice(
            "log-format", \.logFormat,
            help: "`text`, one readable line per event, or `json`, one JSON object per line for a log collector."
        ),
        .choice(
            "log-level", \.logLevel,
            help: "The least severe events logged (`--verbose` is `debug`)."
        ),
        .flag(
            "access-log", \.accessLog,
            help: "One log line per request: method, route pattern, status, duration, request id (never a body, token, code or query value)."
        ),
        .choice(
            "mail-transport", \.mailTransport, default: "smtp with --smtp-url, else outbox",
            help: "How mail leaves: `smtp`, or `outbox` (`<data-dir>/outbox.jsonl`, development). `--env production` needs `smtp`, or `outbox` named explicitly."
        ),
        .text(
            "smtp-url", \.smtpURL, secret: true,
            help: "`smtp://user:password@host:587` (STARTTLS required), `smtps://user:password@host:465`, or `smtp://127.0.0.1:25?tls=none` for a relay on this machine."
        ),
        .text(
            "mail-from", \.mailFrom,
            help: "The sender of every email, like `Repair Minder <no-reply@example.com>`; required with `--smtp-url`."
        ),
        .text(
            "smtp-ca-file", \.smtpCAFile, default: "the system's",
            help: "PEM file of certificates to trust for the mail server instead of the system's (a private CA)."
        ),
        .number(
            "mail-retry-limit", \.mailRetryLimit, note: "24 h", help: "How long a message keeps being retried before it is marked failed."
        ),
        .number(
            "mail-retention", \.mailRetention, note: "24 h", help: "How long the encrypted body of a sent or failed message is kept."
        ),
    ]

    /// The settings `command` reads: all of them for `serve` and `config`.
    public static func declarations(for command: String) -> [Setting] {
        ["serve", "config"].contains(command) ? declarations : declarations.filter { $0.alsoFor.contains(command) }
    }
}
