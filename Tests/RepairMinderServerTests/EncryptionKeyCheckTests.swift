import Foundation
import Logging
import TestSupport
import Testing

@testable import RepairMinderServer

/// Issue 50, item 3: a server (or a restore) whose encryption key opens none of the database's
/// sealed secrets is refused in one line, before a key is generated, instead of starting and
/// answering 500 to each user with an authenticator app. On SQLite and PostgreSQL (the restore
/// on SQLite, the only engine it serves).
@Suite struct EncryptionKeyCheckTests {
    static let wrongKey = String(repeating: "w", count: 40)

    @Test func aKeyThatOpensNoSealedSecretIsRefusedAtStartAndAtRestore() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let token = try #require(try await client.signIn().string("token"))
            _ = try await TOTPTests.enrol(client, server: server, token: token)
            let settings = server.settings
            let keyFile = URL(fileURLWithPath: settings.dataDirectory).appendingPathComponent("encryption-key").path
            let rightKey = try #require(try GeneratedSecret.loadIfPresent(named: "encryption-key", in: settings.dataDirectory))

            // The data directory without its key (restored without it): refused, and no key made.
            try FileManager.default.moveItem(atPath: keyFile, toPath: keyFile + ".kept")
            await #expect(throws: SettingsError.self) { try await Self.start(settings) }
            #expect(!FileManager.default.fileExists(atPath: keyFile), "no new key is generated")
            // How many values: the TOTP secret, and the sign-in's mail while it is queued.
            let keyless = try await Self.refusal(settings)
            #expect(
                keyless.wholeMatch(
                    of: /the database holds \d+ sealed values? \(TOTP secrets, queued mail\) but there is no encryption key: put back the one kept with it \(the data directory's encryption-key file, or --encryption-key\); a new key would open none of them/
                ) != nil, "\(keyless)")
            // Another key, given as a setting: refused.
            var wrong = settings
            wrong.encryptionKey = Self.wrongKey
            let mistaken = try await Self.refusal(wrong)
            #expect(
                mistaken.wholeMatch(
                    of: /the encryption key opens none of the database's \d+ sealed values? \(TOTP secrets, queued mail\): it is not the key they were sealed with; give the one kept with this database \(the data directory's encryption-key file, or --encryption-key\)/
                ) != nil, "\(mistaken)")
            try FileManager.default.moveItem(atPath: keyFile + ".kept", toPath: keyFile)
            // The right key beside a wrong previous one still opens them: the check passes.
            try await server.withDatabase { database in
                try await EncryptionKeyCheck.requireOpening(database, with: EncryptionKeys(current: Self.wrongKey, previous: rightKey))
            }

            guard case .sqlite(let path) = try settings.databaseLocation() else { return }
            let backup = settings.dataDirectory + "/backup.sqlite"
            _ = try await SQLiteBackup.backup(database: path, to: backup, logger: ServerHarness.quietLogger)
            let elsewhere = settings.dataDirectory + "/elsewhere/repairminder.sqlite"
            for keys in [nil, EncryptionKeys(current: Self.wrongKey)] {
                await #expect(throws: SettingsError.self) {
                    try await SQLiteBackup.restore(from: backup, to: elsewhere, keys: keys, logger: ServerHarness.quietLogger)
                }
                #expect(!FileManager.default.fileExists(atPath: elsewhere), "nothing is restored")
            }
            let restored = try await SQLiteBackup.restore(
                from: backup, to: elsewhere, keys: EncryptionKeys(current: rightKey), logger: ServerHarness.quietLogger)
            #expect(restored.previous == nil)
        }
    }

    /// Builds (without running) a server on `settings`; throws what its start throws.
    static func start(_ settings: ServerSettings) async throws {
        _ = try await buildApplication(settings: settings, clock: .system, mailTransport: nil, logger: ServerHarness.quietLogger)
    }

    /// The one line a start on `settings` is refused with.
    static func refusal(_ settings: ServerSettings) async throws -> String {
        do {
            try await start(settings)
        } catch let error as SettingsError {
            return error.description
        }
        Issue.record("the start was not refused")
        return ""
    }
}
