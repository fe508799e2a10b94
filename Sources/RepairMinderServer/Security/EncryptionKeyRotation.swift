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
        /// Values already under the current key.
        public var current = 0
        /// Values that neither key opens: they stay as they are (and stay unreadable).
        public var unreadable = 0
        /// Users with unused recovery codes: hashed, not sealed, they cannot be hashed again;
        /// those made before the switch verify while the previous key is configured.
        public var usersWithRecoveryCodes = 0
    }

    /// A sealed column: its table, key column and how its owner (the sealed value's bound
    /// data) is named from the key.
    private struct SealedColumn {
        let kind: String
        let table: String
        let key: String
        let column: String
        let owner: @Sendable (String) -> String
    }

    private static let columns = [
        SealedColumn(kind: "TOTP secrets", table: "totp_credentials", key: "user_id", column: "secret_sealed", owner: { $0 }),
        SealedColumn(kind: "TOTP secrets", table: "totp_credentials", key: "user_id", column: "pending_secret_sealed", owner: { $0 }),
        SealedColumn(kind: "queued messages", table: "mail_queue", key: "id", column: "body_sealed", owner: MailQueue.owner),
    ]

    /// Seals again under `keys.current` what `keys.previous` sealed, in batches of 100 rows;
    /// `progress` hears each batch's kind and running count.
    public static func reseal(
        _ database: Database, keys: EncryptionKeys, progress: @Sendable (String, Int) -> Void = { _, _ in }
    ) async throws -> Report {
        let box = SecretBox(keys: keys)
        var report = Report()
        for sealed in columns {
            var after = ""
            while true {
                let from = after
                let rows = try await database.withConnection { db in
                    try await db.raw(
                        """
                        SELECT \(ident: sealed.key) AS row_key, \(ident: sealed.column) AS sealed FROM \(ident: sealed.table)
                        WHERE \(ident: sealed.column) IS NOT NULL AND \(ident: sealed.key) > \(bind: from)
                        ORDER BY \(ident: sealed.key) LIMIT 100
                        """
                    ).all(decoding: Row.self)
                }
                guard let last = rows.last else { break }
                after = last.rowKey
                for row in rows {
                    let owner = sealed.owner(row.rowKey)
                    guard let opened = try? box.opened(row.sealed, owner: owner) else {
                        report.unreadable += 1
                        continue
                    }
                    if opened.underCurrentKey {
                        report.current += 1
                        continue
                    }
                    let resealed = try box.seal(opened.plaintext, owner: owner)
                    let updated = try await database.withConnection { db in
                        try await db.raw(
                            """
                            UPDATE \(ident: sealed.table) SET \(ident: sealed.column) = \(bind: resealed)
                            WHERE \(ident: sealed.key) = \(bind: row.rowKey) AND \(ident: sealed.column) = \(bind: row.sealed)
                            RETURNING \(ident: sealed.key)
                            """
                        ).first() != nil
                    }
                    if updated { report.resealed[sealed.kind, default: 0] += 1 }
                }
                progress(sealed.kind, report.resealed[sealed.kind, default: 0])
            }
        }
        report.usersWithRecoveryCodes = try await database.withConnection { db in
            try await db.raw("SELECT COUNT(DISTINCT user_id) AS n FROM recovery_codes WHERE used_at IS NULL")
                .first(decodingColumn: "n", as: Int.self) ?? 0
        }
        return report
    }

    /// Development, with the key generated into `dataDirectory`: finishes any rotation left
    /// half done, keeps the key as `encryption-key.previous` (the one before is dropped), makes
    /// a new `encryption-key` and seals everything again. A running server holds the old key in
    /// memory, so this refuses while one runs on the directory. Each step leaves files a server
    /// starts with: interrupted anywhere, the next run finishes the job.
    public static func rotateGeneratedKey(
        in dataDirectory: String, database: Database, progress: @Sendable (String, Int) -> Void = { _, _ in }
    ) async throws -> Report {
        try await DataDirectoryLock.withExclusive(
            in: dataDirectory, before: "rotating its generated encryption key (or give the keys as settings: docs/operating.md)"
        ) {
            let current = try GeneratedSecret.loadOrCreate(named: "encryption-key", in: dataDirectory)
            if let previous = try GeneratedSecret.loadIfPresent(named: "encryption-key.previous", in: dataDirectory) {
                let finished = try await reseal(database, keys: EncryptionKeys(current: current, previous: previous), progress: progress)
                guard finished.unreadable == 0 else {
                    throw SettingsError(
                        "\(finished.unreadable) sealed values open under neither encryption-key nor encryption-key.previous; nothing was changed"
                    )
                }
            }
            let directory = URL(fileURLWithPath: dataDirectory)
            unlink(directory.appendingPathComponent("encryption-key.previous").path)
            try SecretFile.createIfAbsent(current + "\n", at: directory.appendingPathComponent("encryption-key.previous").path)
            unlink(directory.appendingPathComponent("encryption-key").path)
            let next = try GeneratedSecret.loadOrCreate(named: "encryption-key", in: dataDirectory)
            return try await reseal(database, keys: EncryptionKeys(current: next, previous: current), progress: progress)
        }
    }

    private struct Row: Decodable {
        let rowKey: String
        let sealed: String
        enum CodingKeys: String, CodingKey {
            case rowKey = "row_key"
            case sealed
        }
    }
}
