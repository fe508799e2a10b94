import Hummingbird

/// Per-client-IP request budget on the sign-in routes (docs/API.md §7: 60 per minute; the
/// route table flags which routes count), in fixed
/// one-minute windows. In memory: each server instance counts its own traffic.
actor IPRateLimiter {
    private struct Window {
        var start: Double
        var count: Int
    }

    private let limit: Int
    private let window: Double
    private let clock: ServerClock
    private var windows: [String: Window] = [:]

    init(limitPerMinute: Int, clock: ServerClock, window: Double = 60) {
        limit = limitPerMinute
        self.window = window
        self.clock = clock
    }

    /// Counts one request from `ip`; the seconds to wait when it is over the limit, else nil.
    func admit(_ ip: String) -> Double? {
        let now = clock.now()
        if windows.count > 10_000 { windows = windows.filter { now - $0.value.start < window } }
        var current = windows[ip] ?? Window(start: now, count: 0)
        if now - current.start >= window { current = Window(start: now, count: 0) }
        guard current.count < limit else { return current.start + window - now }
        current.count += 1
        windows[ip] = current
        return nil
    }
}
