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
        // Created here, empty, readable by its owner only (it holds password hashes and sealed
        // secrets); O_EXCL makes "never overwrites" atomic. VACUUM INTO fills an empty file.
        let fd = open(destination, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            if errno == EEXIST { throw SettingsError("\(destination) already exists: choose a new file (a backup never overwrites one)") }
            throw SettingsError("cannot write the backup to \(destination): \(PlainReason.describe(errno: errno))")
        }
        close(fd)
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

    /// Replaces the database at `path` with the backup at `source`. Refused while a server
    /// runs on the data directory (`DataDirectoryLock`). The backup is copied first and the
    /// copy checked (`PRAGMA integrity_check`, migrations no newer than this build's), so the
    /// backup itself is only read. The old database and its write-ahead log are moved aside
    /// (`<file>.pre-restore-<time>`), not deleted, and the copy takes their place by rename:
    /// a crash leaves the old database or the new one, and a wrong restore can be undone.
    /// `keys` are those the server will start with (nil: none configured or generated yet): a
    /// backup with sealed secrets none of them opens is refused (`EncryptionKeyCheck`).
    /// Returns the backup's schema version and where the old database went (nil: there was none).
    public static func restore(
        from source: String, to path: String, keys: EncryptionKeys?, logger: Logger
    ) async throws -> (version: Int, previous: String?) {
        guard FileManager.default.fileExists(atPath: source) else { throw SettingsError("no backup at \(source)") }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        try DataDirectory.create(directory)
        return try await DataDirectoryLock.withExclusive(in: directory) {
            let staging = path + ".restoring"
            for file in [staging, staging + "-wal", staging + "-shm"] { try? FileManager.default.removeItem(atPath: file) }
            do {
                try FileManager.default.copyItem(atPath: source, toPath: staging)
            } catch {
                throw SettingsError("cannot copy \(source) into \(directory): \(PlainReason.of(error))")
            }
            do {
                let version = try await check(backup: staging, named: source, keys: keys, logger: logger)
                for file in [staging + "-wal", staging + "-shm"] { try? FileManager.default.removeItem(atPath: file) }
                try matchOwnerAndMode(of: staging, to: path)
                try syncFile(staging)
                let previous = try moveAside(path)
                guard rename(staging, path) == 0 else {
                    throw SettingsError("cannot restore into \(path): \(PlainReason.describe(errno: errno))")
                }
                try syncFile(directory)
                return (version, previous)
            } catch {
                for file in [staging, staging + "-wal", staging + "-shm"] { try? FileManager.default.removeItem(atPath: file) }
                throw error
            }
        }
    }

    /// Checks the backup at `source` as a restore would (`PRAGMA integrity_check`, a schema no
    /// newer than this build's, and, when `keys` are given, that they open its sealed secrets),
    /// on a copy in a directory of its own, so the backup itself is only read. Returns its
    /// schema version.
    public static func verify(_ source: String, keys: EncryptionKeys?, logger: Logger) async throws -> Int {
        guard FileManager.default.fileExists(atPath: source) else { throw SettingsError("no backup at \(source)") }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("repairminder-verify-\(UUID().uuidString)").path
        try DataDirectory.create(directory)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let copy = directory + "/backup.sqlite"
        do {
            try FileManager.default.copyItem(atPath: source, toPath: copy)
        } catch {
            throw SettingsError("cannot read \(source): \(PlainReason.of(error))")
        }
        return try await check(backup: copy, named: source, keys: keys, checkingKeys: keys != nil, logger: logger)
    }

    /// The database and its `-wal`/`-shm` renamed to `<name>.pre-restore-<time>`; the new name.
    private static func moveAside(_ path: String) throws -> String? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let stamp = Int(Date().timeIntervalSince1970)
        let aside = "\(path).pre-restore-\(stamp)"
        for suffix in ["-wal", "-shm", ""] where FileManager.default.fileExists(atPath: path + suffix) {
            guard rename(path + suffix, aside + suffix) == 0 else {
                throw SettingsError("cannot move \(path + suffix) aside: \(PlainReason.describe(errno: errno))")
            }
        }
        return aside
    }

    /// The restored file gets the owner and mode of the one it replaces (a restore run as root
    /// must not leave a database the server's own user cannot write); 0600 when there was none.
    private static func matchOwnerAndMode(of file: String, to original: String) throws {
        var info = stat()
        if stat(original, &info) == 0 {
            _ = chown(file, info.st_uid, info.st_gid)
            chmod(file, info.st_mode & 0o7777)
        } else {
            chmod(file, 0o600)
        }
    }

    private static func syncFile(_ path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SettingsError("cannot open \(path): \(PlainReason.describe(errno: errno))") }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw SettingsError("cannot sync \(path): \(PlainReason.describe(errno: errno))") }
    }

    /// The copy's schema version, once it is known to be intact, not newer than this build and,
    /// `checkingKeys`, openable with `keys` (`EncryptionKeyCheck`); messages name the backup
    /// (`source`) the copy was made from.
    private static func check(
        backup copy: String, named source: String, keys: EncryptionKeys?, checkingKeys: Bool = true, logger: Logger
    ) async throws -> Int {
        let database: Database
        do {
            database = try await Database.open(.sqlite(path: copy), poolSize: 1, logger: logger)
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
            if checkingKeys, integrity == "ok", version != nil {
                try await EncryptionKeyCheck.requireOpening(database, with: keys)
            }
            await database.close()
        } catch let error as SettingsError {
            await database.close()
            throw SettingsError("\(source): \(error.description)")
        } catch {
            await database.close()
            throw SettingsError("\(source) is not a Repair Minder backup: \(PlainReason.of(error))")
        }
        guard integrity == "ok" else { throw SettingsError("\(source) is damaged (integrity check: \(integrity))") }
        guard let version else { throw SettingsError("\(source) is not a Repair Minder backup: it has no migrations") }
        let newest = Migrations.newestVersion
        guard version <= newest else {
            throw SettingsError("\(source) was made by a newer version (schema \(version); this one knows up to \(newest)): restore it with that version")
        }
        return version
    }
}
