import CoreMetrics
import Prometheus

/// What the server counts, served in Prometheus' text format at `GET /metrics`. Recorded
/// through swift-metrics with a Prometheus registry of this server's own (not the process-wide
/// `MetricsSystem`), so several servers in one process (tests) keep separate counts.
public final class ServerMetrics: Sendable {
    /// How a staff member or customer signed in.
    enum SignInMethod: String {
        case password
        case magicLink = "magic_link"
        case customerCode = "customer_code"
        case registration
    }

    private let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory

    public init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        // Waiting for a connection is normally far below the request buckets' 5 ms.
        factory.durationHistogramBuckets[Self.poolWait] = [
            .microseconds(10), .microseconds(50), .microseconds(100), .microseconds(500), .milliseconds(1),
            .milliseconds(5), .milliseconds(10), .milliseconds(50), .milliseconds(100), .milliseconds(500), .seconds(1),
        ]
        self.factory = factory
    }

    private static let poolWait = "repairminder_db_pool_wait_seconds"

    /// One answered request, by route pattern (`/api/orders/{id}`, never the raw path), method and status.
    func request(method: String, route: String, status: Int, duration: Duration) {
        let dimensions = [("method", method), ("route", route), ("status", String(status))]
        Counter(label: "http_requests_total", dimensions: dimensions, factory: factory).increment()
        Timer(label: "http_request_duration_seconds", dimensions: dimensions, factory: factory)
            .recordNanoseconds(duration.nanoseconds)
    }

    func signedIn(_ method: SignInMethod) {
        Counter(label: "repairminder_sign_ins_total", dimensions: [("method", method.rawValue)], factory: factory).increment()
    }

    /// A sign-in route refused a request (wrong password, wrong code, expired challenge...), by its error code.
    func signInFailed(route: String, code: String) {
        Counter(label: "repairminder_sign_in_failures_total", dimensions: [("route", route), ("code", code)], factory: factory)
            .increment()
    }

    func rateLimited(route: String) {
        Counter(label: "repairminder_rate_limited_total", dimensions: [("route", route)], factory: factory).increment()
    }

    /// A refresh token was exchanged for its successor: `retried` when it was the grace
    /// window's repeat of an exchange already made.
    func refreshRotated(retried: Bool) {
        Counter(label: "repairminder_refresh_rotations_total", dimensions: [("outcome", retried ? "retried" : "rotated")], factory: factory)
            .increment()
    }

    func refreshReuseDetected() {
        Counter(label: "repairminder_refresh_reuse_detected_total", factory: factory).increment()
    }

    /// One delivery attempt of a queued message ended: `sent`, `retried` or `failed`.
    func mailDelivery(_ outcome: String) {
        Counter(label: "repairminder_mail_deliveries_total", dimensions: [("outcome", outcome)], factory: factory).increment()
    }

    /// How long a query waited for a free database connection.
    func poolWaited(_ duration: Duration) {
        Timer(label: Self.poolWait, factory: factory).recordNanoseconds(duration.nanoseconds)
    }

    /// Everything counted so far, in Prometheus' text exposition format.
    func exposition() -> [UInt8] {
        registry.emitToBuffer()
    }
}

extension Duration {
    /// The whole duration in nanoseconds (saturating far beyond any request).
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds.multipliedReportingOverflow(by: 1_000_000_000).partialValue + attoseconds / 1_000_000_000
    }
}
