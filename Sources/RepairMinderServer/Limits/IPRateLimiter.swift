import SQLKit

/// Per-client-IP request budget on the sign-in routes (docs/API.md §7: 60 per minute; the
/// route table flags which routes count), in fixed one-minute windows. Counted in the
/// database, so the budget is one for all server instances.
struct IPRateLimiter: Sendable {
    let database: Database
    let limit: Int
    let clock: ServerClock
    var window: Double = 60

    private struct Counter: Decodable {
        var windowStart: Double
        var count: Int
    }

    /// Counts one request from `ip`; the seconds to wait when it is over the limit, else nil.
    func admit(_ ip: String) async throws -> Double? {
        let now = clock.now()
        let key = "ip:\(ip)"
        let window = self.window
        // One statement: a new window starts at 1, a current one counts up. The row lock of the
        // upsert makes concurrent requests count one after another, on every engine.
        let counter = try await database.withConnection { db in
            try await db.raw(
                """
                INSERT INTO request_windows (key, window_start, count) VALUES (\(bind: key), \(bind: now), 1)
                ON CONFLICT (key) DO UPDATE SET
                    window_start = CASE WHEN request_windows.window_start <= \(bind: now - window) THEN \(bind: now) ELSE request_windows.window_start END,
                    count = CASE WHEN request_windows.window_start <= \(bind: now - window) THEN 1 ELSE request_windows.count + 1 END
                RETURNING window_start, count
                """
            ).first(decoding: Counter.self, with: AccountStore.rowDecoder)
        }
        guard let counter else { return nil }
        if counter.count == 1 {
            // A window (re)started: now and then, forget the windows of IPs that went quiet.
            if Int.random(in: 0..<64) == 0 { try await forgetQuietWindows(now: now) }
            return nil
        }
        return counter.count > limit ? counter.windowStart + window - now : nil
    }

    private func forgetQuietWindows(now: Double) async throws {
        try await database.withConnection { db in
            try await db.raw("DELETE FROM request_windows WHERE window_start <= \(bind: now - window)").run()
        }
    }
}
