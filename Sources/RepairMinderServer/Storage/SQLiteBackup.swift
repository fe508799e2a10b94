import Foundation
import Logging
import SQLKit

/// Backups of the SQLite database (`repairminder backup` and `restore`; docs/operating.md).
/// PostgreSQL has its own tools (`pg_dump`, `pg_restore`).
public enum SQLiteBackup {
    /// Writes a consistent copy of the database at `path` to `destination`, which must not
    /// exist, with `VACUUM INTO`: SQLite's online copy, made inside one read transaction, so a
    /// running server goes on serving and writing (WAL) while it is taken. Returns its size.
    public static func backup(database path: String, to destination: String, logger: Logger) async throws -> Int {
        guard FileManager.default.fileExists(atPath: path) else {
            throw SettingsError("no database at \(path): check --data-dir")
        }
        guard !FileManager.default.fileExists(atPath: destination) else {
            throw SettingsError("\(destination) already exists: choose a new file (a backup never overwrites one)")
        }
        let database = try await Database.open(.sqlite(path: path), poolSize: 1, logger: logger)
        do {
            try await database.withConnection { db in try await db.raw("VACUUM INTO \(bind: destination)").run() }
            await database.close()
        } catch {
            await database.close()
            throw SettingsError("cannot write the backup to \(destination): \(PlainReason.of(error))")
        }
        return (try? FileManager.default.attributesOfItem(atPath: destination)[.size] as? Int) ?? 0
    }

    /// Replaces the database at `path` with the backup at `source`, after checking that the
    /// backup is an intact Repair Minder database this version can run (`PRAGMA
    /// integrity_check`, its migrations no newer than this build's). The server must be
    /// stopped: the old write-ahead log is removed with the file it belongs to. The new file
    /// arrives by rename, so a crash leaves the old database or the new one, never half.
    public static func restore(from source: String, to path: String, logger: Logger) async throws -> Int {
        guard FileManager.default.fileExists(atPath: source) else { throw SettingsError("no backup at \(source)") }
        let version = try await check(backup: source, logger: logger)
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        try DataDirectory.create(directory)
        let staging = path + ".restoring"
        try? FileManager.default.removeItem(atPath: staging)
        do {
            try FileManager.default.copyItem(atPath: source, toPath: staging)
            let handle = try FileHandle(forUpdating: URL(fileURLWithPath: staging))
            try handle.synchronize()
            try handle.close()
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            guard rename(staging, path) == 0 else { throw SettingsError(String(cString: strerror(errno))) }
        } catch {
            try? FileManager.default.removeItem(atPath: staging)
            throw SettingsError("cannot restore into \(path): \(PlainReason.of(error))")
        }
        return version
    }

    /// The backup's schema version, once it is known to be intact and not newer than this build.
    private static func check(backup source: String, logger: Logger) async throws -> Int {
        let database: Database
        do {
            database = try await Database.open(.sqlite(path: source), poolSize: 1, logger: logger)
        } catch {
            throw SettingsError("\(source) is not a database this version can open: \(PlainReason.of(error))")
        }
        let (integrity, version): (String, Int?)
        do {
            (integrity, version) = try await database.withConnection { db in
                let integrity = try await db.raw("PRAGMA integrity_check").first()?.decode(column: "integrity_check", as: String.self) ?? ""
                let version = try await db.raw("SELECT MAX(version) AS version FROM schema_migrations").first()?
                    .decode(column: "version", as: Int?.self)
                return (integrity, version)
            }
            await database.close()
        } catch {
            await database.close()
            throw SettingsError("\(source) is not a Repair Minder backup: \(PlainReason.of(error))")
        }
        guard integrity == "ok" else { throw SettingsError("\(source) is damaged (integrity check: \(integrity))") }
        guard let version else { throw SettingsError("\(source) is not a Repair Minder backup: it has no migrations") }
        let newest = Migrations.steps.last?.version ?? 0
        guard version <= newest else {
            throw SettingsError("\(source) was made by a newer version (schema \(version); this one knows up to \(newest)): restore it with that version")
        }
        return version
    }
}
