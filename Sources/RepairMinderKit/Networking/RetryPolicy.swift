import Foundation

/// How the SDK retries an idempotent request (GET, PUT, DELETE) that failed for the network or
/// met a 503: exponentially spaced tries with jitter, honouring `Retry-After` up to the
/// longest delay. Other methods and other answers are never retried: a POST may have been done.
public struct RetryPolicy: Sendable {
    /// Tries in all; 1 never retries.
    public var attempts: Int
    /// The delay before the first retry; each later one doubles it.
    public var baseDelay: Duration
    /// No delay is longer.
    public var maxDelay: Duration

    public init(attempts: Int, baseDelay: Duration, maxDelay: Duration) {
        self.attempts = max(1, attempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    /// Three tries, half a second then a second apart (with jitter).
    public static let standard = RetryPolicy(attempts: 3, baseDelay: .milliseconds(500), maxDelay: .seconds(8))
    /// No retries.
    public static let none = RetryPolicy(attempts: 1, baseDelay: .zero, maxDelay: .zero)

    /// The wait before retry `retry` (1 for the first): half the exponential delay plus a random
    /// half ("equal jitter"), so clients that failed together do not come back together; or
    /// the server's `Retry-After`.
    func delay(beforeRetry retry: Int, retryAfter seconds: Int?) -> Duration {
        if let seconds { return min(.seconds(seconds), maxDelay) }
        let exponential = min(baseDelay * (1 << min(retry - 1, 16)), maxDelay)
        let half = exponential / 2
        return half + half * Double.random(in: 0...1)
    }

    static func isIdempotent(_ method: String) -> Bool { ["GET", "PUT", "DELETE", "HEAD"].contains(method) }
}

/// One HTTP exchange as the SDK's logging hook sees it (`APIClient(log:)`): never a header, a
/// body, a token or a query value, so nothing secret or personal reaches an app's logs.
public struct RequestRecord: Sendable, CustomStringConvertible {
    public let method: String
    /// The path, without its query.
    public let path: String
    /// The status, or nil when no answer came.
    public let status: Int?
    /// 1 for the first try.
    public let attempt: Int
    public let duration: Duration
    /// Why no answer came (the network error), if it did not.
    public let failure: String?

    public var description: String {
        let outcome = status.map(String.init) ?? "failed: \(failure ?? "no answer")"
        return "\(method) \(path) → \(outcome) in \(duration.formatted(.units(allowed: [.milliseconds])))"
            + (attempt > 1 ? " (try \(attempt))" : "")
    }
}
