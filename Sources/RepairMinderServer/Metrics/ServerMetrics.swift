import Prometheus
import RepairMinderModels

/// What the server counts, in Prometheus' text format, served only on the listener the operator
/// names (`--metrics-address`, `MetricsListener`). Each series has a `# HELP` line. The registry
/// is this server's own (not a process-wide one), so several servers in one process (tests)
/// keep separate counts.
public final class ServerMetrics: Sendable {
    /// How a staff member or customer signed in.
    enum SignInMethod: String, CaseIterable {
        case password
        case magicLink = "magic_link"
        case customerCode = "customer_code"
        case registration
        case passkey
        case invitation
    }

    private let registry = PrometheusCollectorRegistry()

    /// Every counter an alert watches for "any increase" is there at 0 from the start, for each
    /// label it can take (the routes with a budget of §7, the sign-in routes' declared refusals): a series that first appears at 1 has
    /// no increase to see (issue 50, item 7).
    public init() {
        // Made is registered: a counter is exposed at 0 until its first increment.
        for method in SignInMethod.allCases { _ = signInCounter(method) }
        for outcome in ["rotated", "retried"] { _ = rotationCounter(outcome) }
        _ = reuseCounter()
        for outcome in ["sent", "retried", "failed"] { _ = deliveryCounter(outcome) }
        var seen = Set<String>()
        for route in Routes.all where seen.insert(route.description).inserted {
            let pattern = route.path.description
            if !route.budgets.isEmpty { _ = rateLimitCounter(pattern) }
            guard route.isSignIn else { continue }
            for failure in Set(route.failures) where (400..<500).contains(failure.status) && failure.status != 429 {
                _ = signInFailureCounter(pattern, failure.code.rawValue)
            }
        }
    }

    private static let requestBuckets: [Duration] = [
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250),
        .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
    ]
    /// Waiting for a connection is normally far below the request buckets' 5 ms.
    private static let poolWaitBuckets: [Duration] = [
        .microseconds(10), .microseconds(50), .microseconds(100), .microseconds(500), .milliseconds(1),
        .milliseconds(5), .milliseconds(10), .milliseconds(50), .milliseconds(100), .milliseconds(500), .seconds(1),
    ]

    /// One answered request, by route pattern (`/api/orders/{id}`, never the raw path), method and status.
    func request(method: String, route: String, status: Int, duration: Duration) {
        let labels = [("method", method), ("route", route), ("status", String(status))]
        registry.makeCounter(
            descriptor: Self.series("http_requests", "total", "Answered HTTP requests by method, route pattern and status"),
            labels: labels
        ).increment()
        registry.makeDurationHistogram(
            descriptor: Self.series("http_request_duration", "seconds", "Time to answer an HTTP request, by method, route pattern and status"),
            labels: labels, buckets: Self.requestBuckets
        ).recordNanoseconds(duration.nanoseconds)
    }

    func signedIn(_ method: SignInMethod) { signInCounter(method).increment() }

    private func signInCounter(_ method: SignInMethod) -> Counter {
        registry.makeCounter(
            descriptor: Self.series(
                "repairminder_sign_ins", "total", "Completed sign-ins by method (password, magic_link, customer_code, registration, passkey, invitation)"),
            labels: [("method", method.rawValue)])
    }

    /// A sign-in route refused a request (wrong password, wrong code, expired challenge...), by its error code.
    func signInFailed(route: String, code: String) { signInFailureCounter(route, code).increment() }

    private func signInFailureCounter(_ route: String, _ code: String) -> Counter {
        registry.makeCounter(
            descriptor: Self.series("repairminder_sign_in_failures", "total", "Refused sign-in requests by route and error code"),
            labels: [("route", route), ("code", code)])
    }

    /// Counts a refusal of the route with path template `route`: a 429, or a sign-in refused.
    func refused(_ error: APIError, route: String, isSignIn: Bool) {
        if error.code == .rateLimited {
            rateLimited(route: route)
        } else if isSignIn {
            signInFailed(route: route, code: error.code.rawValue)
        }
    }

    func rateLimited(route: String) { rateLimitCounter(route).increment() }

    private func rateLimitCounter(_ route: String) -> Counter {
        registry.makeCounter(
            descriptor: Self.series("repairminder_rate_limited", "total", "Requests refused with 429 by route"), labels: [("route", route)])
    }

    /// A refresh token was exchanged for its successor: `retried` when it was the grace
    /// window's repeat of an exchange already made.
    func refreshRotated(retried: Bool) { rotationCounter(retried ? "retried" : "rotated").increment() }

    private func rotationCounter(_ outcome: String) -> Counter {
        registry.makeCounter(
            descriptor: Self.series("repairminder_refresh_rotations", "total", "Refresh tokens exchanged: rotated, or retried within the grace window"),
            labels: [("outcome", outcome)])
    }

    func refreshReuseDetected() { reuseCounter().increment() }

    private func reuseCounter() -> Counter {
        registry.makeCounter(
            descriptor: Self.series(
                "repairminder_refresh_reuse_detected", "total", "Spent refresh tokens presented after the grace window (the session was revoked)"),
            labels: [])
    }

    /// One delivery attempt of a queued message ended: `sent`, `retried` or `failed`.
    func mailDelivery(_ outcome: String) { deliveryCounter(outcome).increment() }

    private func deliveryCounter(_ outcome: String) -> Counter {
        registry.makeCounter(
            descriptor: Self.series("repairminder_mail_deliveries", "total", "Mail delivery attempts made by this instance, by outcome (sent, retried, failed)"),
            labels: [("outcome", outcome)])
    }

    /// How long a query waited for a free database connection.
    func poolWaited(_ duration: Duration) {
        registry.makeDurationHistogram(
            descriptor: Self.series("repairminder_db_pool_wait", "seconds", "Time a query waited for a free database connection"),
            labels: [], buckets: Self.poolWaitBuckets
        ).recordNanoseconds(duration.nanoseconds)
    }

    /// The messages in the mail queue not yet sent or failed, across every instance (read at each scrape).
    func mailQueueDepth(_ depth: Int) {
        registry.makeGauge(
            descriptor: Self.series("repairminder_mail_queue", "depth", "Queued messages not yet delivered or failed, across all instances"),
            labels: []
        ).set(Double(depth))
    }

    /// A series' name (`<base>_<unit>`) and the `# HELP` text it is exposed with.
    private static func series(_ base: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: base, unitName: unit, helpText: help)
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
