import Foundation

/// Values read from the database, kept for `lifetime` so a hot path does not read them on every
/// request: staff sessions with their users (`StaffCallerCache`), shops' policies
/// (`ShopPolicyCache`). What may be cached, and for how long, is each user's to say.
///
/// One per server instance. A change made on this instance forgets the entries it touches
/// (`forget`), so it is seen at once here; other instances see it when their entry expires. A
/// read that started before a `forget` may not fill the cache with what it read (`generation`).
///
/// Bounded: at most `capacity` entries (all forgotten at once when full).
final class ExpiringCache<Value: Sendable>: @unchecked Sendable {
    let capacity: Int
    let lifetime: Duration
    /// What "now" is for lifetimes: the monotonic clock, or a test's.
    let now: @Sendable () -> ContinuousClock.Instant
    private let lock = NSLock()
    private var entries: [String: (value: Value, readAt: ContinuousClock.Instant)] = [:]
    /// Counts `forget`s: a read that started before one may not fill the cache with what it read.
    private var generation: UInt64 = 0

    init(capacity: Int = 4096, lifetime: Duration = .seconds(2), now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.capacity = capacity
        self.lifetime = lifetime
        self.now = now
    }

    /// The value of `key`, if read less than `lifetime` ago (an older one is dropped).
    func value(for key: String) -> Value? {
        lock.withLock {
            guard let entry = entries[key] else { return nil }
            guard entry.readAt.duration(to: now()) < lifetime else {
                entries[key] = nil
                return nil
            }
            return entry.value
        }
    }

    /// Where a read that may fill the cache starts: pass it to `remember`.
    var currentGeneration: UInt64 { lock.withLock { generation } }

    /// Keeps what a read that started at `readAt` and `generation` found, unless something was
    /// forgotten since; it counts as read when the read started.
    func remember(_ value: Value, for key: String, readAt: ContinuousClock.Instant, generation: UInt64) {
        lock.withLock {
            guard generation == self.generation else { return }
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = (value, readAt)
        }
    }

    /// Changes the value of `key` in place, if it is cached; its age stays.
    func update(_ key: String, _ change: (inout Value) -> Void) {
        lock.withLock {
            guard var entry = entries[key] else { return }
            change(&entry.value)
            entries[key] = entry
        }
    }

    /// `key` changed (or is about to): its next read goes to the database.
    func forget(_ key: String) {
        lock.withLock {
            generation &+= 1
            entries[key] = nil
        }
    }

    /// Every entry whose value `matches` changed (or is about to).
    func forget(where matches: (Value) -> Bool) {
        lock.withLock {
            generation &+= 1
            entries = entries.filter { !matches($0.value.value) }
        }
    }

    var count: Int { lock.withLock { entries.count } }
}
