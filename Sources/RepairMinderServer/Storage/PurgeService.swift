import Logging
import ServiceLifecycle

/// Runs `Purge` a minute after the server starts and then every hour, as a service of the
/// application: it stops at graceful shutdown, before the database closes, even mid-pass.
/// Several instances may purge one database at once: each batch deletes what it finds, so two
/// passes only share the work.
struct PurgeService: Service {
    let purge: Purge
    let clock: ServerClock
    let logger: Logger
    var firstDelay: Duration = .seconds(60)
    var interval: Duration = .seconds(3600)

    func run() async throws {
        var delay = firstDelay
        while !Task.isShuttingDownGracefully {
            do {
                let wait = delay
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: wait) }
                let removed = try await cancelWhenGracefulShutdown { try await purge.run(now: clock.now()) }
                if !removed.isEmpty {
                    let summary = removed.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
                    logger.info("Purged rows dead for longer than \(Int(purge.retention)) s: \(summary)")
                }
            } catch is CancellationError {
                return
            } catch {
                // Tried again at the next interval; a failing database shows elsewhere too.
                if Task.isShuttingDownGracefully { return }
                logger.error("Purge failed: \(error)")
            }
            delay = interval
        }
    }
}

/// Listed by name when the service group logs its services (`--verbose`), not by what it holds.
extension PurgeService: CustomStringConvertible {
    var description: String { "PurgeService" }
}
