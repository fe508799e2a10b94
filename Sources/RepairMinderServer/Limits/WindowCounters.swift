import SQLKit

/// Fixed-window event counters in the database (table `request_windows`), shared by every
/// server instance: the per-IP sign-in budget, code emails per address, failed logins per
/// account. Admitting an event is one conditional upsert, so concurrent requests on any
/// instance are counted one after another and never overrun a limit; nothing is read first.
struct WindowCounters: Sendable {
    let database: Database

    /// At most `limit` events per `window` seconds (the window starts at its first event), and,
    /// with a `spacing`, at least that many seconds between two events.
    struct Rule: Sendable {
        var limit: Int
        var window: Double
        var spacing: Double = 0
    }

    /// The longest window of the hourly rules: rows idle for longer count nothing any more
    /// (the daily invitation counters aside, `AbuseLimits.invitationWindow`).
    static let longestWindow: Double = 3600

    private struct Counter: Decodable {
        var windowStart: Double
        var count: Int
        var lastAt: Double
    }

    /// Counts one event for `key` if `rule` admits it: nil then, else the seconds until it would.
    func admit(_ key: String, _ rule: Rule, now: Double) async throws -> Double? {
        let expired = now - rule.window
        let admitted = try await database.withConnection { db in
            try await db.raw(
                """
                INSERT INTO request_windows (key, window_start, count, last_at) VALUES (\(bind: key), \(bind: now), 1, \(bind: now))
                ON CONFLICT (key) DO UPDATE SET
                    window_start = CASE WHEN request_windows.window_start <= \(bind: expired) THEN \(bind: now) ELSE request_windows.window_start END,
                    count = CASE WHEN request_windows.window_start <= \(bind: expired) THEN 1 ELSE request_windows.count + 1 END,
                    last_at = \(bind: now)
                WHERE request_windows.last_at <= \(bind: now - rule.spacing)
                  AND (request_windows.window_start <= \(bind: expired) OR request_windows.count < \(bind: rule.limit))
                RETURNING count
                """
            ).first(decodingColumn: "count", as: Int.self)
        }
        // Keys that went quiet are deleted by `Purge`, off the request path.
        if admitted != nil { return nil }
        // Refused: the row says until when (read only to word the answer).
        guard let counter = try await counter(key) else { return 1 }
        var wait = counter.lastAt + rule.spacing - now
        if counter.count >= rule.limit, counter.windowStart > expired { wait = max(wait, counter.windowStart + rule.window - now) }
        return max(wait, 0)
    }

    /// Takes back one event counted by `admit` that turned out not to count (a right code):
    /// one conditional decrement, so concurrent refunds and admits stay exact.
    func refund(_ key: String) async throws {
        try await database.withConnection { db in
            try await db.raw("UPDATE request_windows SET count = count - 1 WHERE key = \(bind: key) AND count > 0").run()
        }
    }

    /// Starts the key's count afresh.
    func reset(_ key: String) async throws {
        try await database.withConnection { db in
            try await db.raw("DELETE FROM request_windows WHERE key = \(bind: key)").run()
        }
    }

    private func counter(_ key: String) async throws -> Counter? {
        try await database.withConnection { db in
            try await db.raw("SELECT window_start, count, last_at FROM request_windows WHERE key = \(bind: key)")
                .first(decoding: Counter.self, with: AccountStore.rowDecoder)
        }
    }
}
