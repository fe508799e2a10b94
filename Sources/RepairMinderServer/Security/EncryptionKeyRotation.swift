import Foundation
import SQLKit

/// What `repairminder keys rotate-encryption` does (docs/operating.md, "Rotating the encryption
/// key"): every value sealed under the previous encryption key is sealed again under the
/// current one, while servers run with both. Each row is one conditional update (`WHERE
/// value = what was read`), so a value a server changed meanwhile (a new TOTP setup, a message
/// erased after delivery) is left as the server wrote it, under the current key already.
public enum EncryptionKeyRotation {
    /// What a rotation found and did.
    public struct Report: Sendable, Equatable {
        /// Values sealed again, per kind (`TOTP secrets`, `queued messages`).
        public var resealed: [String: Int] = [:]
        /// Values under the current key when the rotation ended.
        public var current = 0
        /// Values that neither key opens: they stay as they are (and stay unreadable).
        public var unreadable = 0
        /// Values still under the previous key when the rotation ended (a server kept sealing
        /// with it: one not restarted with the new key). Dropping the previous key loses them.
        public var underPreviousKey = 0
        /// Users whose unused recovery codes were hashed under an earlier key: hashed, not
        /// sealed, they cannot be hashed again, and verify only while that key is configured.
        public var usersWithOlderRecoveryCodes = 0
    }

    /// A sealed column: its table, key column and how its owner (the sealed value's bound
    /// data) is named from the key.
    struct SealedColumn {
        let kind: String
        let table: String
        let key: String
        let column: String
        let owner: @Sendable (String) -> String
    }

    /// The pending TOTP secret before the enabled one: enabling copies the first into the
    /// second, so a setup confirmed during the rotation moves an already re-sealed value.
    static let columns = [
        SealedColumn(kind: "TOTP secrets", table: "totp_credentials", key: "user_id", column: "pending_secret_sealed", owner: { $0 }),
        SealedColumn(kind: "TOTP secrets", table: "totp_credentials", key: "user_id", column: "secret_sealed", owner: { $0 }),
        SealedColumn(kind: "queued messages", table: "mail_queue", key: "id", column: "body_sealed", owner: MailQueue.owner),
    ]

    /// Seals again under `keys.current` what `keys.previous` sealed, in batches of 100 rows;
    /// `progress` hears each batch's kind and running count. A second look seals what servers
    /// moved meanwhile; a last, read-only one counts what is left under each key.
    public static func reseal(
        _ database: Database, keys: EncryptionKeys, progress: @Sendable (String, Int) -> Void = { _, _ in }
    ) async throws -> Report {
        let box = SecretBox(keys: keys)
        var report = Report()
        for _ in 0..<2 {
            var resealed: [String: Int] = [:]
            for column in columns {
                try await visit(column, in: database, box: box) { row, opened in
                    guard !opened.underCurrentKey else { return }
                    let owner = column.owner(row.rowKey)
                    let sealed = try box.seal(opened.plaintext, owner: owner)
                    if try await replace(row, in: column, with: sealed, on: database) {
                        resealed[column.kind, default: 0] += 1
                        report.resealed[column.kind, default: 0] += 1
                    }
                } unreadable: { _ in }
                progress(column.kind, report.resealed[column.kind, default: 0])
            }
            if resealed.isEmpty { break }
        }
        for column in columns {
            try await visit(column, in: database, box: box) { _, opened in
                if opened.underCurrentKey { report.current += 1 } else { report.underPreviousKey += 1 }
            } unreadable: { _ in report.unreadable += 1 }
        }
        let currentHashKey = SecretHashing(keys: keys).keyID
        report.usersWithOlderRecoveryCodes = try await database.withConnection { db in
            try await db.raw(
                """
                SELECT COUNT(DISTINCT user_id) AS n FROM recovery_codes
                WHERE used_at IS NULL AND (hash_key IS NULL OR hash_key <> \(bind: currentHashKey))
                """
            ).first(decodingColumn: "n", as: Int.self) ?? 0
        }
        return report
    }

    /// Calls `body` with each sealed value of `column` that a key opens (100 rows a read, in
    /// key order), `unreadable` with each that none does.
    private static func visit(
        _ column: SealedColumn, in database: Database, box: SecretBox,
        _ body: (Row, (plaintext: [UInt8], underCurrentKey: Bool)) async throws -> Void, unreadable: (Row) -> Void
    ) async throws {
        var after = ""
        while true {
            let from = after
            let rows = try await sealedRows(of: column, after: from, limit: 100, in: database)
            guard let last = rows.last else { return }
            after = last.rowKey
            for row in rows {
                if let opened = try? box.opened(row.sealed, owner: column.owner(row.rowKey)) {
                    try await body(row, opened)
                } else {
                    unreadable(row)
                }
            }
        }
    }

    /// Writes `sealed` in place of what was read; false when a server changed the value meanwhile.
    private static func replace(_ row: Row, in column: SealedColumn, with sealed: String, on database: Database) async throws -> Bool {
        try await database.withConnection { db in
            try await db.raw(
                """
                UPDATE \(ident: column.table) SET \(ident: column.column) = \(bind: sealed)
                WHERE \(ident: column.key) = \(bind: row.rowKey) AND \(ident: column.column) = \(bind: row.sealed)
                RETURNING \(ident: column.key)
                """
            ).first() != nil
        }
    }

    /// Development, with the key generated into `dataDirectory`: finishes any rotation left
    /// half done, keeps the key as `encryption-key.previous`, makes a new `encryption-key` and
    /// seals everything again. The key before `encryption-key.previous` is dropped, so while
    /// unused recovery codes still need it (hashed, they cannot be moved to another key) this
    /// refuses, naming their users, unless `droppingPrevious` says to go on without them. A
    /// running server holds the old key in memory, so this refuses while one runs on the
    /// directory. Each step leaves files a server starts with, made durable before anything is
    /// sealed under the new key: interrupted anywhere, even by a power loss, the next run
    /// finishes the job.
    public static func rotateGeneratedKey(
        in dataDirectory: String, database: Database, droppingPrevious: Bool = false,
        progress: @Sendable (String, Int) -> Void = { _, _ in }
    ) async throws -> Report {
        try await DataDirectoryLock.withExclusive(
            in: dataDirectory, before: "rotating its generated encryption key (or give the keys as settings: docs/operating.md)"
        ) {
            let current = try GeneratedSecret.loadOrCreate(named: "encryption-key", in: dataDirectory)
            if let previous = try GeneratedSecret.loadIfPresent(named: "encryption-key.previous", in: dataDirectory) {
                let finished = try await reseal(database, keys: EncryptionKeys(current: current, previous: previous), progress: progress)
                guard finished.underPreviousKey == 0 else {
                    throw SettingsError(
                        "\(finished.underPreviousKey) sealed values are still under encryption-key.previous (a server sealed them meanwhile?); run again"
                    )
                }
                let stranded = try await usersWithRecoveryCodes(under: previous, in: database)
                if !stranded.isEmpty, !droppingPrevious {
                    let named = stranded.prefix(10).joined(separator: ", ") + (stranded.count > 10 ? " and \(stranded.count - 10) more" : "")
                    throw SettingsError(
                        "encryption-key.previous still verifies the unused recovery codes of \(stranded.count) user\(stranded.count == 1 ? "" : "s") (\(named)): this rotation would drop it, and those codes would stop working for ever. Have them make new recovery codes (turning the authenticator app off and on), or run again with --drop-previous-key to go on without them"
                    )
                }
            }
            // Each replacement is a rename: the files always hold a whole key, the old or the new.
            let directory = URL(fileURLWithPath: dataDirectory)
            try SecretFile.replace(current + "\n", at: directory.appendingPathComponent("encryption-key.previous").path)
            try SecretFile.replace(RandomToken.base64URL(byteCount: 32) + "\n", at: directory.appendingPathComponent("encryption-key").path)
            try DataDirectory.synchronize(dataDirectory)
            let next = try GeneratedSecret.loadOrCreate(named: "encryption-key", in: dataDirectory)
            return try await reseal(database, keys: EncryptionKeys(current: next, previous: current), progress: progress)
        }
    }

    /// The addresses of users with unused recovery codes hashed under `key`, or made before
    /// codes recorded their key (which key hashed those cannot be told).
    private static func usersWithRecoveryCodes(under key: String, in database: Database) async throws -> [String] {
        let keyID = SecretHashing(keys: EncryptionKeys(current: key)).keyID
        return try await database.withConnection { db in
            try await db.raw(
                """
                SELECT DISTINCT u.email FROM recovery_codes r JOIN users u ON u.id = r.user_id
                WHERE r.used_at IS NULL AND (r.hash_key IS NULL OR r.hash_key = \(bind: keyID))
                ORDER BY u.email
                """
            ).all(decodingColumn: "email", as: String.self)
        }
    }

    /// Up to `limit` of `column`'s sealed values, in key order, after the key `after`.
    static func sealedRows(of column: SealedColumn, after: String = "", limit: Int, in database: Database) async throws -> [Row] {
        try await database.withConnection { db in
            try await db.raw(
                """
                SELECT \(ident: column.key) AS row_key, \(ident: column.column) AS sealed FROM \(ident: column.table)
                WHERE \(ident: column.column) IS NOT NULL AND \(ident: column.key) > \(bind: after)
                ORDER BY \(ident: column.key) LIMIT \(literal: limit)
                """
            ).all(decoding: Row.self)
        }
    }

    struct Row: Decodable {
        let rowKey: String
        let sealed: String
        enum CodingKeys: String, CodingKey {
            case rowKey = "row_key"
            case sealed
        }
    }
}
