import Foundation

/// Shops' policies read in the last `lifetime`, for the bearer check and refresh (docs/API.md
/// §13.3: a tightening reaches this server's routes on every instance within seconds, and a
/// session at its next refresh), which would otherwise read them on every request.
///
/// One per server instance; a change made here is forgotten at once (`forget`), others' within
/// `lifetime`. Bounded: at most `capacity` shops (all forgotten at once when full).
final class ShopPolicyCache: @unchecked Sendable {
    let capacity: Int
    let lifetime: Duration
    let now: @Sendable () -> ContinuousClock.Instant
    private let lock = NSLock()
    private var entries: [String: (policy: ShopPolicy, readAt: ContinuousClock.Instant)] = [:]
    /// Counts `forget`s: a read that started before one may not fill the cache with what it read.
    private var generation: UInt64 = 0

    init(capacity: Int = 4096, lifetime: Duration = .seconds(2), now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.capacity = capacity
        self.lifetime = lifetime
        self.now = now
    }

    func policy(companyId: String) -> ShopPolicy? {
        lock.withLock {
            guard let entry = entries[companyId], entry.readAt.duration(to: now()) < lifetime else { return nil }
            return entry.policy
        }
    }

    var currentGeneration: UInt64 { lock.withLock { generation } }

    /// Keeps what a read that started at `readAt` and `generation` found, unless something was
    /// forgotten since; it counts as read when the read started.
    func remember(_ policy: ShopPolicy, companyId: String, readAt: ContinuousClock.Instant, generation: UInt64) {
        lock.withLock {
            guard generation == self.generation else { return }
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[companyId] = (policy, readAt)
        }
    }

    func forget(companyId: String) {
        lock.withLock {
            generation &+= 1
            entries[companyId] = nil
        }
    }
}
