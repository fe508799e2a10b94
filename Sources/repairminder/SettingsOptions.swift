import ArgumentParser
import Foundation
import RepairMinderServer

/// The server settings as flags; each falls back to its `REPAIRMINDER_*` environment twin
/// (e.g. `--data-dir` → `REPAIRMINDER_DATA_DIR`), then to the default.
struct SettingsOptions: ParsableArguments {
    @Option(help: "Address to listen on. [env: REPAIRMINDER_HOST] (default: 127.0.0.1)")
    var host: String?
    @Option(help: "Port to listen on. [env: REPAIRMINDER_PORT] (default: 8080)")
    var port: Int?
    @Option(help: "Directory for the SQLite database, generated secrets and the outbox. [env: REPAIRMINDER_DATA_DIR] (default: ./.repairminder)")
    var dataDir: String?
    @Option(help: "postgres://user:password@host:5432/database[?sslmode=require], sqlite:///path/file.sqlite or a file path. [env: REPAIRMINDER_DATABASE_URL] (default: <data-dir>/repairminder.sqlite)")
    var databaseUrl: String?
    @Option(help: "Database connections per server instance, PostgreSQL (SQLite uses at most 4). [env: REPAIRMINDER_DATABASE_POOL_SIZE] (default: 10)")
    var databasePoolSize: Int?
    @Option(help: "SQLite durability: full (every commit survives a power loss) or normal (faster; a power loss can undo the last commits). [env: REPAIRMINDER_SQLITE_SYNCHRONOUS] (default: full)")
    var sqliteSynchronous: String?
    @Option(help: "How access tokens are signed: ES256 or EdDSA (a key pair of --signing-keys, verifiable by other services through /.well-known/jwks.json) or HS256 (--jwt-secret). [env: REPAIRMINDER_JWT_ALGORITHM] (default: ES256)")
    var jwtAlgorithm: String?
    @Option(help: "The signing key set, a JWK Set file with private keys (mode 0600). [env: REPAIRMINDER_SIGNING_KEYS] (default: <data-dir>/signing-keys.json, generated in development; production needs it to exist: repairminder keys rotate creates it)")
    var signingKeys: String?
    @Option(help: "HS256 signing secret, at least 32 bytes; with ES256 or EdDSA, tokens it signed keep verifying until they expire. [env: REPAIRMINDER_JWT_SECRET] (default: generated into the data dir in development with HS256)")
    var jwtSecret: String?
    @Option(help: "Previous signing secret: its tokens stay valid until they expire. [env: REPAIRMINDER_JWT_PREVIOUS_SECRET]")
    var jwtPreviousSecret: String?
    @Option(help: "Key that encrypts secrets at rest (TOTP), at least 32 bytes in production. [env: REPAIRMINDER_ENCRYPTION_KEY] (default: generated into the data dir in development)")
    var encryptionKey: String?
    @Option(help: "The URL clients reach this server at. [env: REPAIRMINDER_PUBLIC_URL] (default: http://<host>:<port>)")
    var publicUrl: String?
    @Option(help: "development or production. [env: REPAIRMINDER_ENV] (default: development)")
    var env: String?
    @Option(help: "bcrypt cost, 4-31. [env: REPAIRMINDER_BCRYPT_COST] (default: 12)")
    var bcryptCost: Int?
    @Option(help: "Access token lifetime, seconds. [env: REPAIRMINDER_ACCESS_TOKEN_TTL] (default: 900)")
    var accessTokenTtl: Int?
    @Option(help: "Refresh token lifetime for browsers, seconds. [env: REPAIRMINDER_REFRESH_TOKEN_TTL_WEB] (default: 604800)")
    var refreshTokenTtlWeb: Int?
    @Option(help: "Refresh token lifetime for mobile apps, seconds. [env: REPAIRMINDER_REFRESH_TOKEN_TTL_MOBILE] (default: 7776000)")
    var refreshTokenTtlMobile: Int?
    @Option(help: "Seconds a browser session may last from its sign-in, however often it is refreshed; then sign in again. [env: REPAIRMINDER_SESSION_MAX_LIFETIME_WEB] (default: 2592000, 30 days)")
    var sessionMaxLifetimeWeb: Int?
    @Option(help: "Seconds a mobile session may last from its sign-in, however often it is refreshed. [env: REPAIRMINDER_SESSION_MAX_LIFETIME_MOBILE] (default: 31536000, 365 days)")
    var sessionMaxLifetimeMobile: Int?
    @Option(help: "Emailed code lifetime, seconds. [env: REPAIRMINDER_CODE_TTL] (default: 600)")
    var codeTtl: Int?
    @Option(help: "Customer session lifetime for browsers, seconds. [env: REPAIRMINDER_CUSTOMER_SESSION_TTL_WEB] (default: 604800)")
    var customerSessionTtlWeb: Int?
    @Option(help: "Customer session lifetime for mobile apps, seconds. [env: REPAIRMINDER_CUSTOMER_SESSION_TTL_MOBILE] (default: 7776000)")
    var customerSessionTtlMobile: Int?
    @Option(help: "Wrong codes allowed per code or login challenge. [env: REPAIRMINDER_MAX_CODE_ATTEMPTS] (default: 5)")
    var maxCodeAttempts: Int?
    @Option(help: "Seconds a rotated refresh token may be retried. [env: REPAIRMINDER_REFRESH_REUSE_GRACE] (default: 10)")
    var refreshReuseGrace: Int?
    @Option(help: "Minimum seconds between code emails to one address or challenge; 0 = off. [env: REPAIRMINDER_CODE_RESEND_INTERVAL] (default: 30)")
    var codeResendInterval: Int?
    @Option(help: "Code emails per address and client network (/24, /64) per hour, five times that per address from all networks; 0 = off. [env: REPAIRMINDER_CODE_EMAILS_PER_HOUR] (default: 10)")
    var codeEmailsPerHour: Int?
    @Option(help: "Requests per minute per client IP on auth endpoints; 0 = off. [env: REPAIRMINDER_IP_RATE_LIMIT] (default: 60)")
    var ipRateLimit: Int?
    @Option(help: "Failed password logins per account and client network per 15 minutes, five times that per account from all networks; 0 = off. [env: REPAIRMINDER_LOGIN_FAILURE_LIMIT] (default: 10)")
    var loginFailureLimit: Int?
    @Option(help: "Wrong second-factor codes (emailed, authenticator, recovery) per staff user per hour, across logins; 0 = off. [env: REPAIRMINDER_SECOND_FACTOR_FAILURE_LIMIT] (default: 10)")
    var secondFactorFailureLimit: Int?
    @Option(help: "Wrong emailed codes per address and client network per hour, across every code sent to it, five times that per address from all networks; 0 = off. [env: REPAIRMINDER_WRONG_CODE_LIMIT] (default: 10)")
    var wrongCodeLimit: Int?
    @Option(help: "The least time in milliseconds a request that emails a code takes, so addresses with and without an account answer alike. [env: REPAIRMINDER_CODE_REQUEST_MIN_MS] (default: 150)")
    var codeRequestMinMs: Int?
    @Option(help: "Login steps 2 and 3 must send step 1's challengeToken: true or false (seed clients do not send it). [env: REPAIRMINDER_REQUIRE_CHALLENGE_TOKEN] (default: false)")
    var requireChallengeToken: Bool?
    @Option(help: "Comma-separated addresses or CIDR ranges of reverse proxies whose X-Forwarded-For names the client (for per-IP limits, challenge binding, session addresses). [env: REPAIRMINDER_TRUSTED_PROXIES] (default: none: the socket's peer is the client)")
    var trustedProxies: String?
    @Option(help: "Seconds an expired or revoked session, token, login challenge or code is kept before the hourly purge deletes it. [env: REPAIRMINDER_PURGE_RETENTION] (default: 604800)")
    var purgeRetention: Int?
    @Option(help: "Serve Prometheus metrics at GET /metrics on this HOST:PORT, a listener of its own (never the API port); keep it private: the counts differ for addresses with and without an account. [env: REPAIRMINDER_METRICS_ADDRESS] (default: none, no metrics)")
    var metricsAddress: String?
    @Option(help: "The domain passkeys are scoped to (WebAuthn's relying party id); an IP address is refused in production. [env: REPAIRMINDER_WEBAUTHN_RP_ID] (default: the public URL's host)")
    var webauthnRpId: String?
    @Option(help: "Comma-separated origins passkey sign-ins may come from, each on the relying party id's domain; an iOS app's is https://<rp id>. [env: REPAIRMINDER_WEBAUTHN_ORIGINS] (default: the public URL's origin)")
    var webauthnOrigins: String?
    @Option(help: "Comma-separated iOS apps (TEAMID.bundle.id) that /.well-known/apple-app-site-association lets use this domain's passkeys and open its reset links. [env: REPAIRMINDER_APPLE_APP_IDS] (default: none)")
    var appleAppIds: String?
    @Option(help: "Serve the REKI app's contract under /auth/* (docs/API.md §10): true or false. [env: REPAIRMINDER_REKI] (default: true)")
    var reki: Bool?
    @Option(help: "Log one line per request (method, route pattern, status, duration, request id; never a body, token or query value): true or false. [env: REPAIRMINDER_ACCESS_LOG] (default: true)")
    var accessLog: Bool?
    @Option(help: "How mail leaves: smtp or outbox (<data-dir>/outbox.jsonl, development). [env: REPAIRMINDER_MAIL_TRANSPORT] (default: smtp with --smtp-url, else outbox; production requires naming outbox)")
    var mailTransport: String?
    @Option(help: "smtp://user:password@host:587 (STARTTLS), smtps://user:password@host:465, or smtp://127.0.0.1:25?tls=none for a relay on this machine. [env: REPAIRMINDER_SMTP_URL]")
    var smtpUrl: String?
    @Option(help: "PEM file of certificates to trust for the mail server instead of the system's (a private CA). [env: REPAIRMINDER_SMTP_CA_FILE]")
    var smtpCaFile: String?
    @Option(help: "The sender of every email, e.g. \"Repair Minder <no-reply@example.com>\"; required with --smtp-url. [env: REPAIRMINDER_MAIL_FROM]")
    var mailFrom: String?
    @Option(help: "Seconds a message keeps being retried before it is marked failed. [env: REPAIRMINDER_MAIL_RETRY_LIMIT] (default: 86400)")
    var mailRetryLimit: Int?
    @Option(help: "Seconds the encrypted body of a sent or failed message is kept. [env: REPAIRMINDER_MAIL_RETENTION] (default: 86400)")
    var mailRetention: Int?

    /// The settings from flags, then environment, then defaults; validated.
    func settings(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> ServerSettings {
        var s = ServerSettings()
        func string(_ flag: String?, _ name: String) -> String? { flag ?? environment["REPAIRMINDER_\(name)"] }
        func int(_ flag: Int?, _ name: String) throws -> Int? {
            if let flag { return flag }
            guard let raw = environment["REPAIRMINDER_\(name)"] else { return nil }
            guard let value = Int(raw.trimmingCharacters(in: .whitespaces)) else {
                throw ValidationError("REPAIRMINDER_\(name) must be a whole number, got \"\(raw)\"")
            }
            return value
        }
        func bool(_ flag: Bool?, _ name: String) throws -> Bool? {
            if let flag { return flag }
            guard let raw = environment["REPAIRMINDER_\(name)"] else { return nil }
            guard let value = Bool(raw.trimmingCharacters(in: .whitespaces).lowercased()) else {
                throw ValidationError("REPAIRMINDER_\(name) must be true or false, got \"\(raw)\"")
            }
            return value
        }
        /// One of an enumeration's values, named by its raw value; `option` names the flag in the message.
        func choice<Value: RawRepresentable & CaseIterable>(_ flag: String?, _ name: String, _ option: String) throws -> Value?
        where Value.RawValue == String {
            guard let raw = string(flag, name) else { return nil }
            guard let value = Value(rawValue: raw) else {
                let allowed = Value.allCases.map(\.rawValue).joined(separator: " or ")
                throw ValidationError("\(option) must be \(allowed), got \"\(raw)\"")
            }
            return value
        }
        if let v = string(host, "HOST") { s.host = v }
        if let v = try int(port, "PORT") { s.port = v }
        if let v = string(dataDir, "DATA_DIR") { s.dataDirectory = v }
        s.databaseURL = string(databaseUrl, "DATABASE_URL")
        if let v = try int(databasePoolSize, "DATABASE_POOL_SIZE") { s.databasePoolSize = v }
        if let v: SQLiteSynchronous = try choice(sqliteSynchronous, "SQLITE_SYNCHRONOUS", "--sqlite-synchronous") { s.sqliteSynchronous = v }
        s.jwtSecret = string(jwtSecret, "JWT_SECRET")
        if let v = try choice(jwtAlgorithm, "JWT_ALGORITHM", "--jwt-algorithm") as SigningKeyAlgorithm? { s.jwtAlgorithm = v }
        s.signingKeys = string(signingKeys, "SIGNING_KEYS")
        s.previousJWTSecret = string(jwtPreviousSecret, "JWT_PREVIOUS_SECRET")
        s.publicURL = string(publicUrl, "PUBLIC_URL")
        s.encryptionKey = string(encryptionKey, "ENCRYPTION_KEY")
        if let v: ServerSettings.Environment = try choice(env, "ENV", "--env") { s.environment = v }
        if let v = try int(bcryptCost, "BCRYPT_COST") { s.bcryptCost = v }
        if let v = try int(accessTokenTtl, "ACCESS_TOKEN_TTL") { s.accessTokenTTL = v }
        if let v = try int(refreshTokenTtlWeb, "REFRESH_TOKEN_TTL_WEB") { s.refreshTokenTTLWeb = v }
        if let v = try int(refreshTokenTtlMobile, "REFRESH_TOKEN_TTL_MOBILE") { s.refreshTokenTTLMobile = v }
        if let v = try int(sessionMaxLifetimeWeb, "SESSION_MAX_LIFETIME_WEB") { s.sessionMaxLifetimeWeb = v }
        if let v = try int(sessionMaxLifetimeMobile, "SESSION_MAX_LIFETIME_MOBILE") { s.sessionMaxLifetimeMobile = v }
        if let v = try int(codeTtl, "CODE_TTL") { s.codeTTL = v }
        if let v = try int(customerSessionTtlWeb, "CUSTOMER_SESSION_TTL_WEB") { s.customerSessionTTLWeb = v }
        if let v = try int(customerSessionTtlMobile, "CUSTOMER_SESSION_TTL_MOBILE") { s.customerSessionTTLMobile = v }
        if let v = try int(maxCodeAttempts, "MAX_CODE_ATTEMPTS") { s.maxCodeAttempts = v }
        if let v = try int(refreshReuseGrace, "REFRESH_REUSE_GRACE") { s.refreshReuseGrace = v }
        if let v = try int(codeResendInterval, "CODE_RESEND_INTERVAL") { s.codeResendInterval = v }
        if let v = try int(codeEmailsPerHour, "CODE_EMAILS_PER_HOUR") { s.codeEmailsPerHour = v }
        if let v = try int(ipRateLimit, "IP_RATE_LIMIT") { s.ipRateLimit = v }
        if let v = try int(loginFailureLimit, "LOGIN_FAILURE_LIMIT") { s.loginFailureLimit = v }
        if let v = try int(secondFactorFailureLimit, "SECOND_FACTOR_FAILURE_LIMIT") { s.secondFactorFailureLimit = v }
        if let v = try int(wrongCodeLimit, "WRONG_CODE_LIMIT") { s.wrongCodeLimit = v }
        if let v = try int(codeRequestMinMs, "CODE_REQUEST_MIN_MS") { s.codeRequestMinimumMilliseconds = v }
        if let v = try bool(requireChallengeToken, "REQUIRE_CHALLENGE_TOKEN") { s.requireChallengeToken = v }
        if let v = try int(purgeRetention, "PURGE_RETENTION") { s.purgeRetention = v }
        func list(_ flag: String?, _ name: String) -> [String]? {
            string(flag, name).map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }
        }
        if let v = string(webauthnRpId, "WEBAUTHN_RP_ID") { s.webauthnRPID = v }
        if let v = list(webauthnOrigins, "WEBAUTHN_ORIGINS") { s.webauthnOrigins = v }
        if let v = list(appleAppIds, "APPLE_APP_IDS") { s.appleAppIds = v }
        if let v = list(trustedProxies, "TRUSTED_PROXIES") { s.trustedProxies = v }
        s.metricsAddress = string(metricsAddress, "METRICS_ADDRESS")
        if let v = try bool(reki, "REKI") { s.rekiEnabled = v }
        if let v = try bool(accessLog, "ACCESS_LOG") { s.accessLog = v }
        s.mailTransport = try choice(mailTransport, "MAIL_TRANSPORT", "--mail-transport")
        s.smtpURL = string(smtpUrl, "SMTP_URL")
        s.smtpCAFile = string(smtpCaFile, "SMTP_CA_FILE")
        s.mailFrom = string(mailFrom, "MAIL_FROM")
        if let v = try int(mailRetryLimit, "MAIL_RETRY_LIMIT") { s.mailRetryLimit = v }
        if let v = try int(mailRetention, "MAIL_RETENTION") { s.mailRetention = v }
        do {
            try s.validate()
        } catch let error as SettingsError {
            throw ValidationError(error.description)
        }
        return s
    }
}
