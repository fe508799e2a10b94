import ArgumentParser
import Foundation
@testable import RepairMinderServer
import Testing

@testable import repairminder

/// Every setting is a flag, a `REPAIRMINDER_*` variable and a config file key; flags win; bad values are refused clearly.
@Suite struct SettingsTests {
    @Test func defaultsAreThoseOfAPIMdSection7() throws {
        let settings = try SettingsArguments.parse([]).settings(for: "serve", environment: [:])
        #expect(settings.host == "127.0.0.1")
        #expect(settings.port == 8080)
        #expect(settings.dataDirectory == "./.repairminder")
        #expect(settings.bcryptCost == 12)
        #expect(settings.accessTokenTTL == 900)
        #expect(settings.refreshTokenTTLWeb == 604_800)
        #expect(settings.refreshTokenTTLMobile == 7_776_000)
        #expect(settings.codeTTL == 600)
        #expect(settings.maxCodeAttempts == 5)
        #expect(settings.refreshReuseGrace == 10)
        #expect(settings.codeResendInterval == 30)
        #expect(settings.codeEmailsPerHour == 10)
        #expect(settings.ipRateLimit == 60)
        #expect(settings.loginFailureLimit == 10)
        #expect(settings.environment == .development)
        #expect(settings.sqliteSynchronous == .full)
        #expect(settings.purgeRetention == 604_800)
    }

    @Test func everyFlagHasAnEnvironmentTwinAndFlagsWin() throws {
        let names = [
            ("--host", "HOST", "0.0.0.0"), ("--port", "PORT", "9000"), ("--data-dir", "DATA_DIR", "/tmp/rm"),
            ("--database-url", "DATABASE_URL", "/tmp/rm/x.sqlite"), ("--jwt-secret", "JWT_SECRET", String(repeating: "s", count: 40)),
            ("--public-url", "PUBLIC_URL", "https://rm.example"), ("--encryption-key", "ENCRYPTION_KEY", String(repeating: "e", count: 32)),
            ("--jwt-previous-secret", "JWT_PREVIOUS_SECRET", "old-secret-" + String(repeating: "o", count: 24)),
            ("--customer-session-ttl-web", "CUSTOMER_SESSION_TTL_WEB", "64"),
            ("--customer-session-ttl-mobile", "CUSTOMER_SESSION_TTL_MOBILE", "65"), ("--env", "ENV", "production"),
            ("--bcrypt-cost", "BCRYPT_COST", "11"), ("--access-token-ttl", "ACCESS_TOKEN_TTL", "60"),
            ("--refresh-token-ttl-web", "REFRESH_TOKEN_TTL_WEB", "61"), ("--refresh-token-ttl-mobile", "REFRESH_TOKEN_TTL_MOBILE", "62"),
            ("--code-ttl", "CODE_TTL", "63"), ("--max-code-attempts", "MAX_CODE_ATTEMPTS", "3"),
            ("--refresh-reuse-grace", "REFRESH_REUSE_GRACE", "4"), ("--code-resend-interval", "CODE_RESEND_INTERVAL", "0"),
            ("--code-emails-per-hour", "CODE_EMAILS_PER_HOUR", "7"), ("--ip-rate-limit", "IP_RATE_LIMIT", "8"),
            ("--login-failure-limit", "LOGIN_FAILURE_LIMIT", "9"), ("--mail-transport", "MAIL_TRANSPORT", "smtp"),
            ("--smtp-url", "SMTP_URL", "smtp://mailer:pw@mail.example:587"), ("--smtp-ca-file", "SMTP_CA_FILE", "/tmp/ca.pem"),
            ("--mail-from", "MAIL_FROM", "Repair Minder <no-reply@rm.example>"), ("--mail-retry-limit", "MAIL_RETRY_LIMIT", "3600"),
            ("--mail-retention", "MAIL_RETENTION", "120"), ("--sqlite-synchronous", "SQLITE_SYNCHRONOUS", "normal"),
            ("--purge-retention", "PURGE_RETENTION", "66"), ("--reki", "REKI", "false"),
            ("--jwt-algorithm", "JWT_ALGORITHM", "HS256"), ("--signing-keys", "SIGNING_KEYS", "/tmp/rm/keys.json"),
            ("--session-max-lifetime-web", "SESSION_MAX_LIFETIME_WEB", "67"),
            ("--session-max-lifetime-mobile", "SESSION_MAX_LIFETIME_MOBILE", "68"),
            ("--metrics-address", "METRICS_ADDRESS", "127.0.0.1:9090"),
        ]
        let environment = Dictionary(uniqueKeysWithValues: names.map { ("REPAIRMINDER_\($0.1)", $0.2) })
        let fromEnvironment = try SettingsArguments.parse([]).settings(for: "serve", environment: environment)
        let fromFlags = try SettingsArguments.parse(names.flatMap { [$0.0, $0.2] }).settings(for: "serve", environment: [:])
        for settings in [fromEnvironment, fromFlags] {
            #expect(settings.host == "0.0.0.0")
            #expect(settings.port == 9000)
            #expect(settings.dataDirectory == "/tmp/rm")
            #expect(settings.databaseURL == "/tmp/rm/x.sqlite")
            #expect(settings.publicURL == "https://rm.example")
            #expect(settings.encryptionKey == String(repeating: "e", count: 32))
            #expect(settings.previousJWTSecret == "old-secret-" + String(repeating: "o", count: 24))
            #expect(settings.customerSessionTTLWeb == 64)
            #expect(settings.customerSessionTTLMobile == 65)
            #expect(settings.environment == .production)
            #expect(settings.bcryptCost == 11)
            let lifetimes: [Int] = [settings.accessTokenTTL, settings.refreshTokenTTLWeb, settings.refreshTokenTTLMobile, settings.codeTTL]
            #expect(lifetimes == [60, 61, 62, 63])
            let limits: [Int] = [
                settings.maxCodeAttempts, settings.refreshReuseGrace, settings.codeResendInterval,
                settings.codeEmailsPerHour, settings.ipRateLimit, settings.loginFailureLimit,
            ]
            #expect(limits == [3, 4, 0, 7, 8, 9])
            #expect(settings.effectiveMailTransport == .smtp)
            #expect(settings.smtpURL == "smtp://mailer:pw@mail.example:587")
            #expect(settings.smtpCAFile == "/tmp/ca.pem")
            #expect(settings.mailFrom == "Repair Minder <no-reply@rm.example>")
            #expect(settings.mailRetryLimit == 3600)
            #expect(settings.mailRetention == 120)
            #expect(settings.sqliteSynchronous == .normal)
            #expect(settings.purgeRetention == 66)
            #expect(settings.rekiEnabled == false)
            #expect(settings.jwtAlgorithm == .hs256)
            #expect(settings.signingKeysPath == "/tmp/rm/keys.json")
            #expect(settings.sessionMaxLifetimeWeb == 67 && settings.sessionMaxLifetimeMobile == 68)
            #expect(settings.metricsAddress == "127.0.0.1:9090")
        }
        let both = try SettingsArguments.parse(["--port", "9100"]).settings(for: "serve", environment: ["REPAIRMINDER_PORT": "9000"])
        #expect(both.port == 9100)
    }

    /// A short signing secret is refused in development too: its tokens would be guessable anywhere.
    @Test func aShortJWTSecretIsRefusedInEveryEnvironment() throws {
        #expect {
            _ = try SettingsArguments.parse(["--jwt-secret", "too-short"]).settings(for: "serve", environment: [:])
        } throws: { "\($0)".contains("--jwt-secret must be at least 32 bytes") }
    }

    @Test func productionRefusesAMissingOrShortSecret() throws {
        #expect(throws: CommandFailure.self) {
            _ = try SettingsArguments.parse(["--env", "production", "--jwt-algorithm", "HS256"]).settings(for: "serve", environment: [:])
        }
        let key = String(repeating: "k", count: 32)
        #expect(throws: CommandFailure.self) {
            _ = try SettingsArguments.parse(["--env", "production", "--jwt-algorithm", "HS256", "--jwt-secret", "too-short", "--encryption-key", key])
                .settings(for: "serve", environment: [:])
        }
        #expect(throws: CommandFailure.self) {
            _ = try SettingsArguments.parse(["--env", "production", "--jwt-algorithm", "HS256", "--jwt-secret", key]).settings(for: "serve", environment: [:])
        }
        let ok = try SettingsArguments.parse(
            ["--env", "production", "--jwt-algorithm", "HS256", "--jwt-secret", key, "--encryption-key", key, "--mail-transport", "outbox",
             "--public-url", "https://api.example.com"]
        ).settings(for: "serve", environment: [:])
        #expect(ok.environment == .production)
    }

    /// Issue 25, item 7: production refuses a short previous secret and a public URL that is
    /// missing or names this machine, each with one line naming the flag.
    /// With a key pair (the default), production signs with a key set that must already exist:
    /// it never generates one.
    @Test func productionNeedsAnExistingSigningKeySet() throws {
        let key = String(repeating: "k", count: 32)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/signing-keys.json"
        let production = ["--env", "production", "--encryption-key", key, "--mail-transport", "outbox", "--public-url", "https://api.example.com"]
        #expect {
            _ = try SettingsArguments.parse(production + ["--signing-keys", path]).settings(for: "serve", environment: [:])
        } throws: { error in
            "\(error)".contains("--env production needs --signing-keys") && "\(error)".contains("repairminder keys rotate")
        }
        _ = try SigningKeyFile.loadOrCreate(path, algorithm: .es256, retiring: nil, now: 0)
        let ok = try SettingsArguments.parse(production + ["--signing-keys", path]).settings(for: "serve", environment: [:])
        #expect(ok.jwtAlgorithm == .es256 && ok.signingKeysPath == path)
    }

    @Test func productionRefusesAShortPreviousSecretAndALocalOrMissingPublicURL() throws {
        let key = String(repeating: "k", count: 32)
        let production = ["--env", "production", "--jwt-algorithm", "HS256", "--jwt-secret", key, "--encryption-key", key, "--mail-transport", "outbox"]
        func refusal(_ extra: [String]) -> String? {
            do {
                _ = try SettingsArguments.parse(production + extra).settings(for: "serve", environment: [:])
                return nil
            } catch { return "\(error)" }
        }
        #expect(refusal([])?.contains("--public-url") == true)
        for host in ["0.0.0.0", "localhost", "127.0.0.1", "127.1.2.3", "[::1]", "app.localhost"] {
            let message = refusal(["--public-url", "https://\(host):8080"])
            #expect(message?.contains("--public-url") == true, "\(host)")
            #expect(message?.contains("\n") == false, "one line")
        }
        #expect(refusal(["--public-url", "https://api.example.com", "--jwt-previous-secret", "short"])?.contains("--jwt-previous-secret") == true)
        #expect(refusal(["--public-url", "https://api.example.com", "--jwt-previous-secret", key]) == nil)
        #expect(refusal(["--public-url", "https://10.0.0.5"]) == nil, "a private address is reachable by its clients")
        // Development keeps taking what it always took.
        #expect(try SettingsArguments.parse(["--public-url", "http://localhost:8080"]).settings(for: "serve", environment: [:]).publicURL != nil)
    }

    @Test func productionRefusesTheOutboxUnlessItIsNamed() throws {
        let key = String(repeating: "k", count: 32)
        let production = ["--env", "production", "--jwt-algorithm", "HS256", "--jwt-secret", key, "--encryption-key", key, "--public-url", "https://api.example.com"]
        #expect {
            _ = try SettingsArguments.parse(production).settings(for: "serve", environment: [:])
        } throws: { error in
            "\(error)".contains("--env production needs --smtp-url") && "\(error)".contains("--mail-transport outbox")
        }
        let outbox = try SettingsArguments.parse(production + ["--mail-transport", "outbox"]).settings(for: "serve", environment: [:])
        #expect(outbox.effectiveMailTransport == .outbox)
        let smtp = try SettingsArguments.parse(production + ["--smtp-url", "smtps://u:p@mail.example", "--mail-from", "no-reply@rm.example"])
            .settings(for: "serve", environment: [:])
        #expect(smtp.effectiveMailTransport == .smtp)
        // SMTP needs its sender, and --mail-transport smtp needs the URL.
        #expect { _ = try SettingsArguments.parse(["--smtp-url", "smtps://u:p@mail.example"]).settings(for: "serve", environment: [:]) } throws: { error in
            "\(error)".contains("--mail-from")
        }
        #expect { _ = try SettingsArguments.parse(["--mail-transport", "smtp"]).settings(for: "serve", environment: [:]) } throws: { error in
            "\(error)".contains("needs --smtp-url")
        }
    }

    @Test(arguments: [
        (["--env", "staging"], [String: String]()),
        (["--port", "0"], [:]),
        (["--bcrypt-cost", "3"], [:]),
        (["--access-token-ttl", "0"], [:]),
        (["--ip-rate-limit=-1"], [:]),
        (["--database-url", "postgres://db/repairminder"], [:]),
        (["--encryption-key", "short"], [:]),
        (["--public-url", "ftp://x"], [:]),
        ([], ["REPAIRMINDER_PORT": "eighty"]),
        (["--mail-transport", "pigeon"], [:]),
        (["--smtp-url", "http://mail.example", "--mail-from", "a@b.example"], [:]),
        (["--smtp-url", "smtp://u:p@mail.example?tls=none", "--mail-from", "a@b.example"], [:]),
        (["--smtp-url", "smtps://mail.example", "--mail-from", "not an address"], [:]),
        (["--mail-retry-limit", "0"], [:]),
        (["--purge-retention", "0"], [:]),
        (["--sqlite-synchronous", "off"], [:]),
    ])
    func badValuesAreRefused(arguments: [String], environment: [String: String]) throws {
        #expect(throws: CommandFailure.self) { _ = try SettingsArguments.parse(arguments).settings(for: "serve", environment: environment) }
    }
}
