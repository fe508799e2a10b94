import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A lock on a file, taken around every refresh by each process that shares one session's
/// credential store: an app and its extensions (a widget, a notification service extension)
/// through a Keychain access group. A refresh spends its refresh token (rotation, docs/API.md
/// §2.7): two processes refreshing at once would both spend the same one, and the server takes
/// the second for a stolen token's reuse and ends the session. Holding the lock, a process first
/// reads the store again: if another refreshed meanwhile, it takes those tokens instead.
///
/// The file belongs in the app group's shared container
/// (`FileManager.default.containerURL(forSecurityApplicationGroupIdentifier:)`). The lock is
/// `flock`'s: the system releases it when a process ends, so a crash never leaves it held.
/// A guarded session (`BiometricLockSetting.guardsCredentials`) is read by one process only: an
/// extension cannot answer its Face ID prompt.
public struct RefreshLease: Sendable {
    public let file: URL
    /// How long a refresh waits for another process's before it gives up (a retryable
    /// `APIError.network`, `.timedOut`).
    public var patience: Duration = .seconds(30)

    public init(file: URL) { self.file = file }

    /// `body`'s result, run while this process holds the lock, on the caller's actor.
    func holding<Result>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Result) async throws -> Result {
        let descriptor = open(file.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw APIError.invalidRequest("cannot open the refresh lock \(file.path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }  // also releases the lock
        let deadline = ContinuousClock.now + patience
        // Without blocking a thread of the cooperative pool: try, and wait a moment between tries.
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                throw APIError.invalidRequest("cannot lock \(file.path): \(String(cString: strerror(errno)))")
            }
            guard ContinuousClock.now < deadline else {
                throw APIError.network(NetworkFailure(kind: .timedOut, detail: "another process held the session's refresh too long"))
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return try await body()
    }
}
