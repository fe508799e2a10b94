import Foundation
import SQLKit
import TestSupport
import Testing

@testable import RepairMinderServer

/// Issue 36, item 6: the encryption key can be rotated while the server runs. A TOTP enrolment,
/// a queued mail, a code in flight and a recovery code made under the old key all survive; what
/// was sealed is sealed again under the new key alone. On SQLite and PostgreSQL.
@Suite struct EncryptionKeyRotationTests {
    static let oldKey = String(repeating: "o", count: 40)
    static let newKey = String(repeating: "n", count: 40)
    static let jane = "jane@example.test"

    /// The admin's sealed TOTP secret and user id, read from the database.
    static func sealedSecret(_ server: TestServer) async throws -> (userId: String, sealed: String) {
        try await server.withDatabase { database in
            try await database.withConnection { db in
                let row = try #require(
                    try await db.raw(
                        "SELECT t.user_id, t.secret_sealed FROM totp_credentials t JOIN users u ON u.id = t.user_id WHERE u.email = \(bind: DemoFixtures.adminEmail)"
                    ).first())
                return (try row.decode(column: "user_id", as: String.self), try row.decode(column: "secret_sealed", as: String.self))
            }
        }
    }

    @Test func aRotationWhileServingKeepsEverySecret() async throws {
        let server = try await TestServer { $0.encryptionKey = Self.oldKey }
        let enrolled = Locked<(secret: [UInt8], recovery: [String])?>(nil)
        let janeCode = Locked<String?>(nil)
        try await server.runAcrossRestart(changing: {
            $0.encryptionKey = Self.newKey
            $0.previousEncryptionKey = Self.oldKey
        }) { client in
            let token = try #require(try await client.signIn().string("token"))
            enrolled.value = try await TOTPTests.enrol(client, server: server, token: token)
            #expect(try await client.post("/api/customer/auth/request-magic-link", ["email": Self.jane]).status == .ok)
            janeCode.value = try await client.latestCode(to: Self.jane)
        } then: { client in
            let (secret, recovery) = try #require(enrolled.value)
            // The new server reads what the old key sealed, before any rotation.
            server.clock.advance(by: 31)
            #expect(try await TOTPTests.verify(client, code: TOTPTests.code(secret, server.clock.now)).status == .ok)

            let report = try await server.withDatabase { database in
                try await EncryptionKeyRotation.reseal(database, keys: EncryptionKeys(current: Self.newKey, previous: Self.oldKey))
            }
            #expect(report.resealed["TOTP secrets"] == 1)
            #expect((report.resealed["queued messages"] ?? 0) >= 2, "the admin's code and Jane's")
            #expect(report.unreadable == 0 && report.underPreviousKey == 0)
            #expect(report.current >= 3)
            #expect(report.usersWithOlderRecoveryCodes == 1, "the admin's codes were hashed under the old key")
            // Everything sealed opens under the new key alone now.
            let (userId, sealed) = try await Self.sealedSecret(server)
            #expect(try SecretBox(key: Self.newKey).open(sealed, owner: userId) == secret)
            #expect(throws: (any Error).self) { try SecretBox(key: Self.oldKey).open(sealed, owner: userId) }
            let mail = try await server.withDatabase { database in
                try await MailQueue(database: database, encryptionKey: Self.newKey).messages(to: Self.jane)
            }
            #expect(mail.count == 1)
            // A second run finds nothing left to do.
            let again = try await server.withDatabase { database in
                try await EncryptionKeyRotation.reseal(database, keys: EncryptionKeys(current: Self.newKey, previous: Self.oldKey))
            }
            #expect(again.resealed.isEmpty && again.unreadable == 0)

            // The server keeps working throughout: its app, the code emailed before, a recovery code.
            server.clock.advance(by: 31)
            #expect(try await TOTPTests.verify(client, code: TOTPTests.code(secret, server.clock.now)).status == .ok)
            let code = try #require(janeCode.value)
            #expect(try await client.post("/api/customer/auth/verify-code", ["email": Self.jane, "code": code]).status == .ok)
            let signedIn = try await TOTPTests.verify(client, code: recovery[0])
            #expect(signedIn.status == .ok)

            // A server still sealing with the old key (not restarted yet) is caught by the next run.
            let now = server.clock.now
            try await server.withDatabase { database in
                try await MailQueue(database: database, encryptionKey: Self.oldKey).send(
                    MailMessage(to: Self.jane, subject: "late", text: "sealed by a server not restarted", sentAt: "2026-11-26T00:00:00Z"),
                    now: now)
            }
            let late = try await server.withDatabase { database in
                try await EncryptionKeyRotation.reseal(database, keys: EncryptionKeys(current: Self.newKey, previous: Self.oldKey))
            }
            #expect(late.resealed["queued messages"] == 1 && late.underPreviousKey == 0)

            // New recovery codes are hashed under the new key: nobody needs the old one any more.
            let token = try #require(signedIn.string("token"))
            server.clock.advance(by: 31)
            #expect(try await client.post("/api/auth/totp/disable", ["code": TOTPTests.code(secret, server.clock.now)], bearer: token).status == .ok)
            server.clock.advance(by: 31)
            _ = try await TOTPTests.enrol(client, server: server, token: token)
            let after = try await server.withDatabase { database in
                try await EncryptionKeyRotation.reseal(database, keys: EncryptionKeys(current: Self.newKey, previous: Self.oldKey))
            }
            #expect(after.usersWithOlderRecoveryCodes == 0)
        }
    }

    /// Development: the generated key is replaced and kept as `encryption-key.previous`; a
    /// second rotation drops the first key only after everything left it; a server started
    /// afterwards reads the new key, and one running on the directory makes the rotation wait.
    @Test func theGeneratedKeyRotatesAndTheServerStartsWithBoth() async throws {
        let server = try await TestServer()
        let enrolled = Locked<[UInt8]?>(nil)
        let directory = URL(fileURLWithPath: server.settings.dataDirectory)
        let firstKey = Locked<String?>(nil)
        try await server.runAcrossRestart(changing: { _ in }) { client in
            let token = try #require(try await client.signIn().string("token"))
            enrolled.value = try await TOTPTests.enrol(client, server: server, token: token).secret
            firstKey.value = try String(contentsOf: directory.appendingPathComponent("encryption-key"), encoding: .utf8)
            // A server holding the directory (as `serve` does) refuses the rotation.
            let held = try DataDirectoryLock.holdShared(in: server.settings.dataDirectory)
            let settings = server.settings
            await #expect(throws: SettingsError.self) {
                try await server.withDatabase { database in
                    try await EncryptionKeyRotation.rotateGeneratedKey(in: settings.dataDirectory, database: database)
                }
            }
            close(held)
            var previousRound: String?
            for round in 1...2 {
                if round == 2 {
                    // Issue 50, item 1: the admin's recovery codes were hashed under the first
                    // key, which this round would drop: refused, naming them, and nothing changes.
                    let keyFile = directory.appendingPathComponent("encryption-key")
                    let files = try [keyFile.path, keyFile.path + ".previous"].map { try String(contentsOfFile: $0, encoding: .utf8) }
                    await #expect(
                        throws: SettingsError(
                            "encryption-key.previous still verifies the unused recovery codes of 1 user (\(DemoFixtures.adminEmail)): this rotation would drop it, and those codes would stop working for ever. Have them make new recovery codes (turning the authenticator app off and on), or run again with --drop-previous-key to go on without them"
                        )
                    ) {
                        try await server.withDatabase { database in
                            try await EncryptionKeyRotation.rotateGeneratedKey(in: settings.dataDirectory, database: database)
                        }
                    }
                    #expect(try [keyFile.path, keyFile.path + ".previous"].map { try String(contentsOfFile: $0, encoding: .utf8) } == files)
                }
                let report = try await server.withDatabase { database in
                    try await EncryptionKeyRotation.rotateGeneratedKey(in: settings.dataDirectory, database: database, droppingPrevious: round == 2)
                }
                #expect(report.resealed["TOTP secrets"] == 1, "round \(round)")
                #expect(report.unreadable == 0 && report.underPreviousKey == 0)
                let previous = try String(contentsOf: directory.appendingPathComponent("encryption-key.previous"), encoding: .utf8)
                #expect(previous == (round == 1 ? firstKey.value : previousRound), "the key before is kept")
                previousRound = try String(contentsOf: directory.appendingPathComponent("encryption-key"), encoding: .utf8)
            }
            for name in ["encryption-key", "encryption-key.previous"] {
                let mode = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)[.posixPermissions] as? Int
                #expect(mode == 0o600, "\(name)")
            }
        } then: { client in
            // Restarted: the new key opens the secret, and the app signs in.
            let secret = try #require(enrolled.value)
            let (userId, sealed) = try await Self.sealedSecret(server)
            let keys = try server.settings.resolvedEncryptionKeys()
            #expect(keys.current != firstKey.value?.trimmingCharacters(in: .whitespacesAndNewlines))
            #expect(try SecretBox(key: keys.current).open(sealed, owner: userId) == secret)
            server.clock.advance(by: 31)
            #expect(try await TOTPTests.verify(client, code: TOTPTests.code(secret, server.clock.now)).status == .ok)
        }
    }
}
