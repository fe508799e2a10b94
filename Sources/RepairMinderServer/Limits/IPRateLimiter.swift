/// Per-client-IP request budget on the sign-in routes (docs/API.md §7: 60 per minute; the
/// route table flags which routes count), in fixed one-minute windows counted in the
/// database, so the budget is one for all server instances.
struct IPRateLimiter: Sendable {
    let counters: WindowCounters
    let limit: Int
    let clock: ServerClock

    /// Counts one request from `ip`; the seconds to wait when it is over the limit, else nil.
    func admit(_ ip: String) async throws -> Double? {
        try await counters.admit("ip:\(ip)", .init(limit: limit, window: 60), now: clock.now())
    }
}
