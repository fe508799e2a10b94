import ArgumentParser
import Foundation
import RepairMinderServer

/// `repairminder keys`: the signing key set of the access tokens (docs/API.md §2.6).
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Rotate or list the keys access tokens are signed with.",
        discussion: """
            The key set is a JWK Set file with the private keys (mode 0600), by default \
            <data-dir>/signing-keys.json. Every server instance reads it again every 5 seconds, \
            so a rotation needs no restart: the new key is published at /.well-known/jwks.json \
            at once, signs after --key-activation-delay, and the old key still verifies the \
            tokens it signed until they expire.

            `keys rotate-encryption` replaces the encryption key instead (TOTP secrets, queued \
            mail).

            EXAMPLES:
              repairminder keys rotate --signing-keys /etc/repairminder/signing-keys.json
              repairminder keys list --signing-keys /etc/repairminder/signing-keys.json
              repairminder keys rotate-encryption --data-dir ./.repairminder
            """,
        subcommands: [KeysRotateCommand.self, KeysListCommand.self, KeysRotateEncryptionCommand.self])
}

/// Where the key set is and how long access tokens live: what both subcommands need.
struct KeySetOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The signing key set file. [env: REPAIRMINDER_SIGNING_KEYS] (default: <data-dir>/signing-keys.json)", valueName: "file"))
    var signingKeys: String?

    @Option(help: "The server's data directory. [env: REPAIRMINDER_DATA_DIR] (default: ./.repairminder)")
    var dataDir: String?

    @Option(
        help: ArgumentHelp(
            "The servers' access-token lifetime, seconds. [env: REPAIRMINDER_ACCESS_TOKEN_TTL] (default: 900)", valueName: "seconds"))
    var accessTokenTtl: Int?
    @Option(
        help: ArgumentHelp(
            "The servers' customer token lifetime for browsers, seconds. [env: REPAIRMINDER_CUSTOMER_SESSION_TTL_WEB] (default: 604800)",
            valueName: "seconds"))
    var customerSessionTtlWeb: Int?
    @Option(
        help: ArgumentHelp(
            "The servers' customer token lifetime for mobile apps, seconds. [env: REPAIRMINDER_CUSTOMER_SESSION_TTL_MOBILE] (default: 7776000)",
            valueName: "seconds"))
    var customerSessionTtlMobile: Int?
    @Option(help: "The servers' JSON or YAML settings file. [env: REPAIRMINDER_CONFIG]")
    var config: String?

    /// The servers' settings these flags, the environment and a config file name, read as
    /// `serve` reads them; each subcommand reads them once.
    func settings() throws -> ServerSettings {
        try SettingsArguments.load(
            [
                ("data-dir", dataDir), ("signing-keys", signingKeys), ("access-token-ttl", accessTokenTtl.map(String.init)),
                ("customer-session-ttl-web", customerSessionTtlWeb.map(String.init)),
                ("customer-session-ttl-mobile", customerSessionTtlMobile.map(String.init)),
                // The HS256 secret being retired, as the servers read it (a variable, a file).
                ("jwt-secret", nil),
            ], configFile: config)
    }

    /// How long a replaced key keeps verifying: the longest any token lives (a customer token
    /// has no refresh and lives as long as its session), as the servers compute it.
    static func lifetime(of settings: ServerSettings) throws -> Double {
        guard settings.longestTokenLifetime > 0 else { throw CommandFailure("the token lifetimes must be greater than 0") }
        return settings.longestTokenLifetime
    }
}

struct KeysRotateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rotate",
        abstract: "Add a new signing key: published now, signing after the activation delay; creates the key set if there is none.",
        usage: """
            repairminder keys rotate [--signing-keys <file>] [--data-dir <data-dir>]
              [--jwt-algorithm <algorithm>] [--key-activation-delay <seconds>]
              [--jwt-secret <secret>] [<options>]
            """,
        discussion: """
            Each rotation also adds a new RS256 key, which signs OpenID Connect ID tokens (docs/API.md \
            §16) on the same schedule. Keys that no longer verify anything (replaced longer than an access-token lifetime \
            ago) are dropped from the file. In a new file the first key signs at once. The \
            token lifetimes (--access-token-ttl, --customer-session-ttl-web, \
            --customer-session-ttl-mobile) must be the servers': they say how long a replaced \
            key keeps verifying.

            EXAMPLES:
              repairminder keys rotate
              repairminder keys rotate --signing-keys /etc/repairminder/signing-keys.json
              repairminder keys rotate --jwt-algorithm EdDSA --key-activation-delay 900
            """)

    @OptionGroup var keySet: KeySetOptions

    @Option(help: ArgumentHelp("The new key's algorithm: ES256 or EdDSA.", valueName: "algorithm"))
    var jwtAlgorithm = "ES256"

    @Option(
        help: ArgumentHelp(
            "Seconds between publishing the new key and signing with it, so caches of /.well-known/jwks.json (5 minutes) have it first.",
            valueName: "seconds"))
    var keyActivationDelay = 600

    @Option(
        help: ArgumentHelp(
            "When the key set is created: the HS256 secret the servers signed with until now, whose tokens keep verifying for the longest token lifetime. [env: REPAIRMINDER_JWT_SECRET]",
            valueName: "secret"))
    var jwtSecret: String?

    func validate() throws {
        guard let algorithm = SigningKeyAlgorithm(rawValue: jwtAlgorithm), [.es256, .eddsa].contains(algorithm) else {
            throw ValidationError("--jwt-algorithm must be ES256 or EdDSA, got \"\(jwtAlgorithm)\"")
        }
        guard keyActivationDelay >= 0 else { throw ValidationError("--key-activation-delay must not be negative") }
        if let jwtSecret, jwtSecret.utf8.count < 32 { throw ValidationError("--jwt-secret must be at least 32 bytes") }
    }

    func run() throws {
        let now = Date().timeIntervalSince1970
        let settings = try keySet.settings()
        let path = settings.signingKeysPath
        let algorithm = SigningKeyAlgorithm(rawValue: jwtAlgorithm) ?? .es256
        let (added, dropped) = try SigningKeyAdministration.rotate(
            path: path, algorithm: algorithm, activationDelay: Double(keyActivationDelay),
            tokenLifetime: try KeySetOptions.lifetime(of: settings), now: now,
            retiring: jwtSecret ?? settings.jwtSecret)
        let when = added.activatesAt <= now ? "now" : "from \(Self.format(added.activatesAt))"
        say("Added \(added.algorithm) key \(added.kid) to \(path), and an RS256 key for ID tokens: published now, sign \(when).")
        if !dropped.isEmpty { say("Dropped keys that no longer verify anything: \(dropped.joined(separator: ", ")).") }
        say("Running servers pick it up within 5 seconds; no restart needed.")
    }

    static func format(_ time: Double) -> String {
        ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: time))
    }
}

struct KeysListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the signing keys, oldest first, and what each does now.",
        usage: """
            repairminder keys list [--signing-keys <file>] [--data-dir <data-dir>]
              [<options>]
            """,
        discussion: """
            A retired key verifies until the longest token lifetime after its replacement: give \
            the servers' lifetimes (as for rotate) for the right dates.

            EXAMPLES:
              repairminder keys list
              repairminder keys list --signing-keys /etc/repairminder/signing-keys.json
            """)

    @OptionGroup var keySet: KeySetOptions

    func run() throws {
        let settings = try keySet.settings()
        let path = settings.signingKeysPath
        guard FileManager.default.fileExists(atPath: path) else {
            throw CommandFailure("no key set at \(path); create one with: repairminder keys rotate --signing-keys \(path)")
        }
        let keys = try SigningKeyAdministration.list(path: path, tokenLifetime: try KeySetOptions.lifetime(of: settings), now: Date().timeIntervalSince1970)
        for key in keys {
            let state =
                switch key.state {
                case .signing: "signing"
                case .published: "published, signs from \(KeysRotateCommand.format(key.activatesAt))"
                case .retired(let until): "retired, verifies until \(KeysRotateCommand.format(until))"
                }
            say("\(key.kid)  \(key.algorithm)  \(state)")
        }
    }
}

struct KeysRotateEncryptionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rotate-encryption",
        abstract: "Seal TOTP secrets and queued mail again under a new encryption key, while the servers run.",
        usage: """
            repairminder keys rotate-encryption [--data-dir <data-dir>]
              [--database-url <database-url>] [--config <file>] [--drop-previous-key]
            """,
        discussion: """
            With the key given as a setting (production): first restart every server with the new \
            key as --encryption-key and the old one as --encryption-previous-key (a variable, a \
            -file or the config file, as serve reads them); this then seals again, under the new \
            key, everything the old one sealed. Codes in flight and recovery codes hashed under \
            the old key keep verifying while it is configured. docs/operating.md has the whole \
            procedure.

            With the key generated into the data directory (development): stop the server; this \
            makes a new encryption-key, keeps the old one as encryption-key.previous and seals \
            everything again. The key before is dropped: while unused recovery codes still need \
            it, this refuses and names their users (--drop-previous-key goes on without them).

            EXAMPLES:
              repairminder keys rotate-encryption --config /etc/repairminder/rm.yaml
              repairminder keys rotate-encryption --data-dir ./.repairminder
            """)

    @OptionGroup var database: DatabaseOptions

    @Flag(
        help: "Development: drop encryption-key.previous even though unused recovery codes still need it (their users make new ones)."
    )
    var dropPreviousKey = false

    func run() async throws {
        let settings = try database.serveSettings()
        if settings.encryptionKey != nil, settings.previousEncryptionKey == nil {
            throw CommandFailure(
                "--encryption-previous-key is not set: restart the servers with the new key as --encryption-key and the old one as --encryption-previous-key, then run this with the same settings"
            )
        }
        let progress: @Sendable (String, Int) -> Void = { kind, count in if count > 0 { Terminal.note("  \(kind): \(count) sealed again") } }
        let report = try await DatabaseOptions.withDatabase(settings: settings) { db in
            if settings.encryptionKey == nil {
                return try await EncryptionKeyRotation.rotateGeneratedKey(
                    in: settings.dataDirectory, database: db, droppingPrevious: dropPreviousKey, progress: progress)
            }
            return try await EncryptionKeyRotation.reseal(db, keys: try settings.resolvedEncryptionKeys(), progress: progress)
        }
        let resealed = report.resealed.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
        say("Sealed again under the new key: \(resealed.isEmpty ? "nothing" : resealed.joined(separator: ", ")); \(report.current) values are under it now.")
        if report.unreadable > 0 {
            say("\(report.unreadable) sealed values open under neither key: they were left as they are (a key changed without a rotation?).")
        }
        if report.usersWithOlderRecoveryCodes > 0 {
            say(
                settings.encryptionKey == nil
                    ? "\(report.usersWithOlderRecoveryCodes) users hold recovery codes hashed under an earlier key: encryption-key.previous is kept for them, and the next rotation refuses while they still need it."
                    : "\(report.usersWithOlderRecoveryCodes) users hold recovery codes hashed under an earlier key: they verify only while it is configured (as --encryption-previous-key), until those users make new ones."
            )
        }
        if report.underPreviousKey > 0 {
            throw CommandFailure(
                "\(report.underPreviousKey) sealed values are still under the previous key (a server not yet restarted with the new key is sealing with the old one?): restart it, then run this again before dropping the previous key"
            )
        }
    }
}
