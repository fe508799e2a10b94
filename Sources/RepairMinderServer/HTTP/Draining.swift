import Hummingbird
import Logging
import ServiceLifecycle
import Synchronization

/// Whether this instance is on its way out: from the start of a graceful shutdown (SIGTERM,
/// SIGINT; `run`) `/readyz` and `/api/health` answer 503 `draining`, so a load balancer stops sending
/// new requests here while the server still answers those it gets (issue 50, item 7).
public final class Draining: Sendable {
    private let flag = Atomic<Bool>(false)

    public init() {}

    /// True once the shutdown began.
    public var isDraining: Bool { flag.load(ordering: .relaxed) }

    func begin() { flag.store(true, ordering: .relaxed) }

    /// Runs `application` until a SIGTERM or SIGINT, then drains for `delay` (`--drain-delay`)
    /// before the application stops: the drain runs after the application in one `ServiceGroup`,
    /// which stops its services in reverse order, each once the one after it returned, so the
    /// HTTP server keeps listening through the delay.
    public func run(_ application: some ApplicationProtocol, delay: Duration, logger: Logger) async throws {
        let services: [any Service] = [application, DrainService(draining: self, delay: delay, logger: logger)]
        try await ServiceGroup(configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
            .run()
    }
}

private struct DrainService: Service {
    let draining: Draining
    let delay: Duration
    let logger: Logger

    func run() async throws {
        // Returns at a graceful shutdown, or at a cancellation (then the sleep ends at once too).
        try? await gracefulShutdown()
        draining.begin()
        guard delay > .zero, !Task.isCancelled else { return }
        logger.info("Draining: /readyz answers 503 for \(delay.components.seconds) s, then the server stops taking requests")
        try? await Task.sleep(for: delay)
    }
}
