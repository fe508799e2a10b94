import Foundation
import Logging

/// Everything the server can be configured with. What an operator can set is declared once in
/// `ServerSettings.declarations` (flag, environment variable, config file key, help); the
/// defaults are docs/API.md §7's.
public struct ServerSettings: Sendable {
    /// Where the server runs: development generates missing secrets, production refuses to.
    public enum Environment: String, Sendable, CaseIterable {
        case development
        case production
    }

    public var host = "127.0.0.1"
    public var port = 8080
    /// Holds the SQLite database, generated secrets and the development outbox.
    public var dataDirectory = "./.repairminder"
    /// `postgres://user:password@host:5432/database`, `sqlite:///absolute/path.sqlite` or a plain
    /// file path; nil means `<data-dir>/repairminder.sqlite`.
    public var databaseURL: String?
    /// Connections each server instance keeps at most (PostgreSQL); SQLite uses at most 4.
    public var databasePoolSize = 10
    /// SQLite's durability: `full` (every commit survives a power loss) or `normal` (faster).
    public var sqliteSynchronous = SQLiteSynchronous.full
    /// How access tokens are signed: ES256 or EdDSA with the key set (`signingKeys`), or HS256
    /// with `jwtSecret`.
    public var jwtAlgorithm = SigningKeyAlgorithm.es256
    /// The key set file (a JWK Set with private keys); nil means `<data-dir>/signing-keys.json`,
    /// generated in development when absent.
    public var signingKeys: String?
    /// How often each instance reads the key set again (a rotation, a key's activation).
    var signingKeysRefreshInterval: Duration = .seconds(5)
    /// HS256 signing secret; nil in development means "generate one into the data directory".
    /// With a key pair algorithm, tokens it signed before the switch keep verifying until they expire.
    public var jwtSecret: String?
    /// Tokens signed with this earlier secret stay valid until they expire (key rotation, HS256).
    public var previousJWTSecret: String?
    /// Encrypts secrets at rest (TOTP secrets); nil in development means "generate one into the data directory".
    public var encryptionKey: String?
    /// The encryption key before a rotation: what it sealed still opens, and codes hashed under
    /// it still verify, until `repairminder keys rotate-encryption` has sealed everything again.
    public var previousEncryptionKey: String?
    /// The files the secrets were read from (a `--*-file`, and the config file when it holds a
    /// secret itself), which production requires closed to group and others. Not a setting:
    /// `SettingsLoader` fills it in.
    public var secretFiles: [String] = []
    /// The address clients reach this server at, used to build absolute URLs.
    public var publicURL: String?
    public var environment = Environment.development
    public var bcryptCost = 12
    /// Seconds.
    public var accessTokenTTL = 900
    public var refreshTokenTTLWeb = 7 * 24 * 3600
    public var refreshTokenTTLMobile = 90 * 24 * 3600
    /// Seconds a refreshed session may last in all from its sign-in, however often it is
    /// refreshed (ASVS 3.3.2); then refresh answers `REFRESH_TOKEN_EXPIRED`.
    public var sessionMaxLifetimeWeb = 30 * 24 * 3600
    public var sessionMaxLifetimeMobile = 365 * 24 * 3600
    public var codeTTL = 600
    public var loginChallengeTTL = 600
    public var maxCodeAttempts = 5
    public var refreshReuseGrace = 10
    /// Minimum seconds between code emails to one address or login challenge; 0 turns it off.
    public var codeResendInterval = 30
    /// Code emails per address and client network per hour (five times that per address from
    /// all networks); 0 turns it off.
    public var codeEmailsPerHour = 10
    /// Requests per minute per client IP on auth endpoints; 0 turns it off.
    public var ipRateLimit = 60
    /// Failed password logins per account (email) and client network per 15 minutes (five times
    /// that per account from all networks); 0 turns it off.
    public var loginFailureLimit = 10
    /// Wrong second-factor codes (emailed, TOTP, recovery) per staff user per hour, across login
    /// challenges; 0 turns it off.
    public var secondFactorFailureLimit = 10
    /// Passkeys one staff member may have (docs/API.md §7).
    public var passkeysPerUser = 20
    /// Passkey enrolments a staff member may start a minute; 0 = off.
    public var passkeyEnrolmentsPerMinute = 10
    /// Invitation mails a shop may send a day (docs/API.md §12); 0 = off.
    public var invitationsPerDay = 50
    /// Wrong emailed codes per address and client network per hour, across every code sent to
    /// it (five times that per address from all networks); 0 turns it off.
    public var wrongCodeLimit = 10
    /// The least time, in milliseconds, a request that emails a code takes (magic link, customer
    /// code, reset, registration), so an address with an account answers as fast as one without.
    public var codeRequestMinimumMilliseconds = 150
    /// Login steps 2 and 3 must present step 1's `challengeToken` (docs/API.md §2.3).
    public var requireChallengeToken = false
    /// CIDR ranges (`10.0.0.0/8`, `fd00::/8`) of the proxies whose `X-Forwarded-For` names the
    /// client; empty: the socket's peer is the client.
    public var trustedProxies: [String] = []
    /// Seconds a dead row (expired or revoked session, token, challenge or code) is kept before
    /// the hourly purge deletes it.
    public var purgeRetention = 7 * 24 * 3600
    /// Where Prometheus metrics are served (`HOST:PORT`, a listener of their own, `GET /metrics`);
    /// nil: no metrics are kept or served. Never the API port: keep it private.
    public var metricsAddress: String?
    /// Seconds between the start of a graceful shutdown and the server's listener closing:
    /// `/readyz` answers 503 meanwhile (`Draining`).
    public var drainDelay = 0
    /// The domain passkeys are scoped to (docs/API.md §11.4); nil: the public URL's host (`localhost` without one).
    public var webauthnRPID: String?
    /// The origins a passkey ceremony may come from; empty: the public URL's origin. A native
    /// iOS app's origin is `https://<rp id>` (with the associated domain).
    public var webauthnOrigins: [String] = []
    /// The iOS apps (`TEAMID.bundle.id`) `/.well-known/apple-app-site-association` vouches for.
    public var appleAppIds: [String] = []
    /// Serve REKI's contract under `/auth/*` (docs/API.md §10); off, those paths answer 404.
    public var rekiEnabled = true
    /// One log line per request (method, route pattern, status, duration, request id).
    public var accessLog = true
    /// How log lines are written.
    public enum LogFormat: String, Sendable, CaseIterable {
        /// One readable line per event.
        case text
        /// One JSON object per line, for a log collector.
        case json
    }
    public var logFormat = LogFormat.text
    /// The least severe events logged.
    public var logLevel = Logger.Level.info
    /// Largest accepted request body, in bytes (`--max-body-size`): the one body limit, for the
    /// API's JSON and the reset page's form alike.
    public var maxBodySize = 64 * 1024
    /// The largest `--max-body-size` takes: what Hummingbird's own reads are bounded by.
    public static let maxBodySizeCeiling = 1024 * 1024

    /// How queued mail leaves the server (`MailDeliveryService`).
    public enum MailTransportKind: String, Sendable, CaseIterable {
        /// Appends each message to `<data-dir>/outbox.jsonl`: development only.
        case outbox
        /// Delivers to the mail server of `smtpURL`.
        case smtp
    }

    /// The transport named explicitly; nil means SMTP when `smtpURL` is set, else the outbox.
    public var mailTransport: MailTransportKind?
    /// `smtp://user:password@host:587` (STARTTLS), `smtps://...:465`, or `smtp://127.0.0.1:25?tls=none`.
    public var smtpURL: String?
    /// PEM certificates to trust for the mail server instead of the system's (a private CA).
    public var smtpCAFile: String?
    /// The sender of every message, e.g. `Repair Minder <no-reply@example.com>`; required with SMTP.
    public var mailFrom: String?
    /// Seconds a message keeps being retried before it is marked failed.
    public var mailRetryLimit = 24 * 3600
    /// Seconds the body of a sent or failed message is kept (encrypted) before it is erased.
    public var mailRetention = 24 * 3600
    /// The first retry's delay in seconds; each further retry doubles it (with jitter) up to `mailRetryMaxDelay`.
    public var mailRetryBaseDelay = 2.0
    public var mailRetryMaxDelay = 60.0
    /// Seconds an idle delivery worker waits before looking for due mail again (other instances' mail).
    public var mailPollInterval = 1.0

    /// Customer sessions (no refresh token): lifetime by the client kind at sign-in.
    public var customerSessionTTLWeb = 7 * 24 * 3600
    public var customerSessionTTLMobile = 90 * 24 * 3600

    public init() {}

    /// The base of absolute URLs the server hands out: `publicURL`, or where it listens.
    public var serverURL: String {
        var url = publicURL ?? "http://\(host):\(port)"
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }

    /// The absolute lifetime of a refreshed session (`sessionMaxLifetimeWeb` / `-Mobile`).
    func sessionMaxLifetime(isMobile: Bool) -> Double {
        Double(isMobile ? sessionMaxLifetimeMobile : sessionMaxLifetimeWeb)
    }

    /// The longest any access token lives: a customer token has no refresh, and lives as long
    /// as its session. A replaced signing key verifies for this long.
    public var longestTokenLifetime: Double {
        Double(max(accessTokenTTL, customerSessionTTLWeb, customerSessionTTLMobile))
    }

    /// The passkeys' relying party id: `webauthnRPID`, or the public URL's host; lowercase, as
    /// browsers hash it. In development without a public URL, where the server is reached at
    /// this machine's address (127.0.0.1 by default), `localhost`: browsers refuse an IP address
    /// as a passkey's rp id, and take `localhost` over plain http.
    public var relyingPartyID: String {
        if webauthnRPID == nil, usesLocalhostForPasskeys { return "localhost" }
        return (webauthnRPID ?? URL(string: serverURL)?.host ?? host).lowercased()
    }

    /// The origins passkey ceremonies may come from: `webauthnOrigins`, or the public URL's
    /// origin (`http://localhost:<port>` where the rp id is the development default, `localhost`);
    /// each as a browser serialises it (lowercase, no default port, no trailing slash), or as
    /// given when it is not a URL (`validateWebAuthn` refuses it).
    public var relyingPartyOrigins: [String] {
        if webauthnOrigins.isEmpty, webauthnRPID == nil, usesLocalhostForPasskeys { return ["http://localhost:\(port)"] }
        return (webauthnOrigins.isEmpty ? [serverURL] : webauthnOrigins).map { Self.serialisedOrigin($0) ?? $0 }
    }

    /// No public URL, and the server listens on this machine (a loopback address, `0.0.0.0`,
    /// `::` or `localhost`): the development defaults, where passkeys belong to `localhost`.
    private var usesLocalhostForPasskeys: Bool { publicURL == nil && Self.isLocal(host) }

    /// `url`'s origin as the HTML standard serialises it: `scheme://host[:port]`.
    static func serialisedOrigin(_ url: String) -> String? {
        guard let url = URL(string: url), let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else {
            return nil
        }
        let port = url.port.flatMap { (scheme, $0) == ("https", 443) || (scheme, $0) == ("http", 80) ? nil : $0 }
        return "\(scheme)://\(host.contains(":") ? "[\(host)]" : host)\(port.map { ":\($0)" } ?? "")"
    }

    /// The key set file these settings name.
    public var signingKeysPath: String {
        signingKeys ?? URL(fileURLWithPath: dataDirectory).appendingPathComponent("signing-keys.json").path
    }

    /// The transport queued mail goes out through.
    public var effectiveMailTransport: MailTransportKind { mailTransport ?? (smtpURL == nil ? .outbox : .smtp) }

    /// The encryption key: the configured one, or in development the one generated into the data directory.
    public func resolvedEncryptionKey() throws -> String {
        try encryptionKey ?? GeneratedSecret.loadOrCreate(named: "encryption-key", in: dataDirectory)
    }

    /// The encryption key and the previous one: configured, or in development the data
    /// directory's `encryption-key` and, after `keys rotate-encryption`, `encryption-key.previous`.
    public func resolvedEncryptionKeys() throws -> EncryptionKeys {
        let previous = try previousEncryptionKey ?? (encryptionKey == nil ? GeneratedSecret.loadIfPresent(named: "encryption-key.previous", in: dataDirectory) : nil)
        return EncryptionKeys(current: try resolvedEncryptionKey(), previous: previous)
    }

    /// The encryption keys for a command that seals what a server opens (`admin create`'s mail):
    /// as `resolvedEncryptionKeys`, but nil where none is configured and the data directory has
    /// no generated one. Generating one there would seal with a key no server has.
    public func existingEncryptionKeys() throws -> EncryptionKeys? {
        guard try (encryptionKey ?? GeneratedSecret.loadIfPresent(named: "encryption-key", in: dataDirectory)) != nil else {
            return nil
        }
        return try resolvedEncryptionKeys()
    }

    /// `trustedProxies`, parsed.
    func trustedProxyRanges() throws -> [IPAddressRange] {
        try trustedProxies.map { entry in
            guard let range = IPAddressRange(entry) else {
                throw SettingsError("--trusted-proxies: \"\(entry)\" is not an address or CIDR range (like 10.0.0.0/8 or fd00::/8)")
            }
            return range
        }
    }

    /// The transport these settings name.
    func makeMailTransport() throws -> any MailTransport {
        switch effectiveMailTransport {
        case .outbox: OutboxTransport(dataDirectory: dataDirectory)
        case .smtp: try SMTPTransport(settings: self)
        }
    }

    /// The database this configuration uses.
    public func databaseLocation() throws -> DatabaseLocation {
        guard let url = databaseURL, !url.isEmpty else {
            return .sqlite(path: URL(fileURLWithPath: dataDirectory).appendingPathComponent("repairminder.sqlite").path)
        }
        return try DatabaseLocation(url: url)
    }

    /// Checks the combination of values; production refuses weak or missing secrets.
    public func validate() throws {
        guard (1...65535).contains(port) else { throw SettingsError("--port must be between 1 and 65535") }
        guard (4...31).contains(bcryptCost) else { throw SettingsError("--bcrypt-cost must be between 4 and 31") }
        guard (1024...Self.maxBodySizeCeiling).contains(maxBodySize) else {
            throw SettingsError("--max-body-size must be between 1024 and \(Self.maxBodySizeCeiling) bytes")
        }
        guard (1...1000).contains(passkeysPerUser) else { throw SettingsError("--passkeys-per-user must be between 1 and 1000") }
        for (name, value) in [
            ("--access-token-ttl", accessTokenTTL), ("--refresh-token-ttl-web", refreshTokenTTLWeb),
            ("--refresh-token-ttl-mobile", refreshTokenTTLMobile), ("--session-max-lifetime-web", sessionMaxLifetimeWeb),
            ("--session-max-lifetime-mobile", sessionMaxLifetimeMobile), ("--code-ttl", codeTTL),
            ("--max-code-attempts", maxCodeAttempts), ("--customer-session-ttl-web", customerSessionTTLWeb),
            ("--customer-session-ttl-mobile", customerSessionTTLMobile), ("--purge-retention", purgeRetention),
        ] where value <= 0 {
            throw SettingsError("\(name) must be greater than 0")
        }
        for (name, value) in [
            ("--refresh-reuse-grace", refreshReuseGrace), ("--code-resend-interval", codeResendInterval),
            ("--code-emails-per-hour", codeEmailsPerHour), ("--ip-rate-limit", ipRateLimit),
            ("--login-failure-limit", loginFailureLimit), ("--second-factor-failure-limit", secondFactorFailureLimit),
            ("--wrong-code-limit", wrongCodeLimit), ("--code-request-min-ms", codeRequestMinimumMilliseconds),
            ("--passkey-enrolments-per-minute", passkeyEnrolmentsPerMinute), ("--invitations-per-day", invitationsPerDay),
        ] where value < 0 {
            throw SettingsError("\(name) must not be negative")
        }
        if let encryptionKey, encryptionKey.utf8.count < 32 {
            throw SettingsError("--encryption-key must be at least 32 bytes")
        }
        if let previousEncryptionKey, previousEncryptionKey.utf8.count < 32 {
            throw SettingsError("--encryption-previous-key must be at least 32 bytes")
        }
        if let publicURL, URL(string: publicURL)?.scheme.map({ ["http", "https"].contains($0) }) != true {
            throw SettingsError("--public-url must be an http:// or https:// URL")
        }
        if let jwtSecret, jwtSecret.utf8.count < 32 { throw SettingsError("--jwt-secret must be at least 32 bytes") }
        if environment == .production {
            if jwtAlgorithm == .hs256, jwtSecret == nil {
                throw SettingsError("--env production with --jwt-algorithm HS256 needs --jwt-secret (REPAIRMINDER_JWT_SECRET) of at least 32 bytes")
            }
            if jwtAlgorithm != .hs256, !FileManager.default.fileExists(atPath: signingKeysPath) {
                throw SettingsError(
                    "--env production needs --signing-keys naming an existing key set (\(signingKeysPath) does not exist); create one with: repairminder keys rotate --signing-keys \(signingKeysPath)"
                )
            }
            guard let key = encryptionKey, key.utf8.count >= 32 else {
                throw SettingsError("--env production needs --encryption-key (REPAIRMINDER_ENCRYPTION_KEY) of at least 32 bytes")
            }
            if let previous = previousJWTSecret, previous.utf8.count < 32 {
                throw SettingsError("--env production needs --jwt-previous-secret of at least 32 bytes, or none")
            }
            // Links in mail and logo URLs are built from it: a guessed one points users elsewhere.
            guard let publicURL else {
                throw SettingsError("--env production needs --public-url (REPAIRMINDER_PUBLIC_URL), the address clients reach the server at")
            }
            if let host = URL(string: publicURL)?.host, Self.isLocal(host) {
                throw SettingsError("--public-url must be an address clients can reach, not \(host), with --env production")
            }
            // Tokens, codes and links would cross the network in clear text.
            if URL(string: publicURL)?.scheme?.lowercased() == "http" {
                throw SettingsError("--public-url must be https:// with --env production, not \(publicURL) (behind a TLS proxy, give the address clients use)")
            }
            try Self.requireClosed(secretFiles + (jwtAlgorithm == .hs256 ? [] : [signingKeysPath]))
        }
        _ = try trustedProxyRanges()
        try validateWebAuthn()
        if let metricsAddress {
            guard let address = ListenAddress(metricsAddress) else {
                throw SettingsError("--metrics-address must be HOST:PORT, like 127.0.0.1:9090 or [::1]:9090, not \"\(metricsAddress)\"")
            }
            if address.port == port, address.port != 0 {
                throw SettingsError("--metrics-address must use another port than the API's --port \(port)")
            }
        }
        try validateMail()
        guard (1...1000).contains(databasePoolSize) else { throw SettingsError("--database-pool-size must be between 1 and 1000") }
        _ = try databaseLocation()
    }
}

extension ServerSettings {
    /// Refuses (production) a secret file that its group or others can read or write: one
    /// line naming the file, its mode and the fix.
    static func requireClosed(_ paths: [String]) throws {
        for path in paths {
            var status = stat()
            // A file that cannot be read is reported where it is read, with its own message.
            guard stat(path, &status) == 0 else { continue }
            let mode = status.st_mode & 0o777
            if mode & 0o077 != 0 {
                throw SettingsError(
                    "\(path) holds secrets and is open to group or others (mode \(String(mode, radix: 8))); --env production refuses it: chmod 600 \(path)"
                )
            }
        }
    }

    /// Whether `host` is this machine's loopback for certain: `localhost` or a loopback
    /// address (not a `*.localhost` name, which a resolver may send elsewhere).
    static func isLoopback(_ host: String) -> Bool {
        let name = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]."))
        if ["localhost", "::1", "0:0:0:0:0:0:0:1"].contains(name) { return true }
        let octets = name.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets.allSatisfy { UInt8($0) != nil } && octets.first == "127"
    }

    /// Whether `host` names this machine or every address of it: `localhost`, a loopback address, `0.0.0.0`, `::`.
    static func isLocal(_ host: String) -> Bool {
        let name = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]."))
        return isLoopback(name) || ["0.0.0.0", "::"].contains(name) || name.hasSuffix(".localhost")
    }
}

extension ServerSettings {
    /// Passkeys: every origin is an http(s) origin on the relying party id's domain (WebAuthn
    /// refuses any other); production refuses an IP address as the id (browsers do too).
    func validateWebAuthn() throws {
        let rpId = relyingPartyID.lowercased()
        if let given = webauthnRPID, given.isEmpty || given.contains("/") || given.contains(":") {
            throw SettingsError("--webauthn-rp-id must be a domain name, like repairminder.example.com, not \"\(given)\"")
        }
        // Only a given one: a deployment at an IP address (no passkeys possible: browsers refuse
        // one as the id) still starts, and its passkey ceremonies fail in the browser.
        if environment == .production, webauthnRPID != nil,
            IPAddressRange(rpId.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))) != nil
        {
            throw SettingsError("--webauthn-rp-id must be a domain name with --env production, not the IP address \(rpId)")
        }
        for origin in webauthnOrigins.isEmpty ? relyingPartyOrigins : webauthnOrigins {
            guard let url = URL(string: origin), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
                let host = url.host?.lowercased(), url.path.isEmpty || url.path == "/", url.query == nil
            else {
                throw SettingsError("--webauthn-origins: \"\(origin)\" is not an origin like https://repairminder.example.com")
            }
            guard host == rpId || host.hasSuffix("." + rpId) else {
                throw SettingsError("--webauthn-origins: \(origin) is not on the relying party id's domain \(rpId) (--webauthn-rp-id)")
            }
            if environment == .production, scheme == "http", !Self.isLocal(host) {
                throw SettingsError("--webauthn-origins: \(origin) must be https:// with --env production (http:// is for this machine only)")
            }
        }
        for app in appleAppIds where app.range(of: "^[A-Z0-9]{10}\\.[A-Za-z0-9.-]+$", options: .regularExpression) == nil {
            throw SettingsError("--apple-app-ids: \"\(app)\" is not TEAMID.bundle.id (a 10-character team id, like ABCDE12345.com.example.app)")
        }
    }

    /// Mail: SMTP needs its URL and a sender; production refuses the development outbox unless
    /// it is asked for by name, so a deployment cannot silently write sign-in codes to a file.
    func validateMail() throws {
        for (name, value) in [("--mail-retry-limit", mailRetryLimit), ("--mail-retention", mailRetention)] where value <= 0 {
            throw SettingsError("\(name) must be greater than 0")
        }
        switch effectiveMailTransport {
        case .smtp:
            guard let smtpURL else { throw SettingsError("--mail-transport smtp needs --smtp-url (REPAIRMINDER_SMTP_URL)") }
            let server = try SMTPServerAddress(url: smtpURL)
            // Codes and sign-in links would cross the network in clear text.
            if environment == .production, server.security == .none, !Self.isLoopback(server.host) {
                throw SettingsError(
                    "--smtp-url: tls=none to \(server.host), not this machine; --env production refuses mail in clear text: use smtps:// or STARTTLS (the default)"
                )
            }
            guard let mailFrom else {
                throw SettingsError("--smtp-url needs --mail-from (REPAIRMINDER_MAIL_FROM), e.g. \"Repair Minder <no-reply@example.com>\"")
            }
            do { _ = try MailAddress(parsing: mailFrom) } catch { throw SettingsError("--mail-from: \(error)") }
        case .outbox:
            if environment == .production, mailTransport != .outbox {
                throw SettingsError(
                    "--env production needs --smtp-url (REPAIRMINDER_SMTP_URL) to send mail; give --mail-transport outbox to write mail to <data-dir>/outbox.jsonl instead"
                )
            }
        }
    }
}

/// A setting that cannot be used, with a message for the person who set it.
public struct SettingsError: Error, Equatable, CustomStringConvertible {
    public let description: String
    /// The command line itself is wrong (an unknown option, a missing value): its usage helps.
    public let isUsageError: Bool
    public init(_ description: String, isUsageError: Bool = false) {
        self.description = description
        self.isUsageError = isUsageError
    }
}

/// The settings hold the signing secrets, the encryption key and the SMTP password: printed,
/// they show nothing.
extension ServerSettings: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "ServerSettings(redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
