import Foundation

/// `<data-dir>/repairminder.lock`: every `serve` on a data directory holds a shared lock on it
/// for as long as it runs, so `repairminder restore` can tell that a server is using the
/// database it is about to replace (and refuse), whatever the platform's file locking of the
/// database itself. The kernel drops the lock when the process ends, however it ends.
public enum DataDirectoryLock {
    static func path(in dataDirectory: String) -> String {
        URL(fileURLWithPath: dataDirectory).appendingPathComponent("repairminder.lock").path
    }

    /// Takes the shared lock a server holds; keep the returned descriptor open while serving.
    public static func holdShared(in dataDirectory: String) throws -> Int32 {
        try DataDirectory.create(dataDirectory)
        let fd = open(path(in: dataDirectory), O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SettingsError("cannot create \(path(in: dataDirectory)): \(PlainReason.describe(errno: errno))") }
        guard flock(fd, LOCK_SH) == 0 else {
            close(fd)
            throw SettingsError("cannot lock \(path(in: dataDirectory)): \(PlainReason.describe(errno: errno))")
        }
        return fd
    }

    /// Runs `body` while holding the lock alone; throws without running it when a server holds
    /// it, saying what must wait (`doing`).
    static func withExclusive<T>(in dataDirectory: String, before doing: String = "restoring", _ body: () async throws -> T) async throws -> T {
        let fd = open(path(in: dataDirectory), O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SettingsError("cannot create \(path(in: dataDirectory)): \(PlainReason.describe(errno: errno))") }
        defer { close(fd) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            throw SettingsError("a server is running on \(dataDirectory): stop it before \(doing) (repairminder.lock is held)")
        }
        return try await body()
    }
}
