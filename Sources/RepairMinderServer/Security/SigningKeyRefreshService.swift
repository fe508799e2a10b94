import Logging
import ServiceLifecycle

/// Reads the signing key set again every few seconds and hands the signer what changed: a key
/// `repairminder keys rotate` added (published at once), the moment a new key starts signing,
/// and the end of a retired key. Every instance sharing the file (or a copy of it) thus follows
/// a rotation without a restart, within `interval`.
///
/// A file that cannot be read keeps the keys in use (logged), rather than stopping sign-ins.
struct SigningKeyRefreshService: Service {
    let signer: TokenSigner
    let settings: ServerSettings
    let jwtSecret: String?
    let clock: ServerClock
    let logger: Logger
    var interval: Duration = .seconds(5)

    func run() async throws {
        while !Task.isShuttingDownGracefully {
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
                try await refresh()
            } catch is CancellationError {
                return
            } catch {
                if Task.isShuttingDownGracefully { return }
                logger.error("Signing keys: cannot read \(settings.signingKeysPath), keeping the keys in use: \(error)")
            }
        }
    }

    /// Uses the keys the file names now, if they differ from those in use.
    func refresh() async throws {
        let keys = try TokenSigner.keys(for: settings, jwtSecret: jwtSecret, now: clock.now(), creating: false)
        let inUse = signer.keys
        guard keys != inUse else { return }
        try await signer.replace(with: keys)
        if keys.signing.kid != inUse.signing.kid {
            logger.info("Signing keys: now signing with \(keys.signing.kid) (\(keys.signing.alg.rawValue))")
        } else {
            logger.info("Signing keys: \(keys.verifying.count) key(s) verify, \(keys.published.keys.count) published")
        }
    }
}

/// Listed by name when the service group logs its services (`--verbose`), not by what it holds.
extension SigningKeyRefreshService: CustomStringConvertible {
    var description: String { "SigningKeyRefreshService" }
}
