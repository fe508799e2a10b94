import Foundation

/// Staff sessions found live, with their users, for a few seconds: the bearer check's join of
/// session, user and company cost more to compile and decode than the rest of a `/me` request.
/// The company is still read on every request (a status change takes effect on the next one,
/// docs/API.md §4); what is cached is what API.md allows to lag: whether the session is live
/// ("at most a 5-second cache", §2.9) and the user (a deactivation by another instance or an
/// operator is seen within `lifetime`).
///
/// One per server instance. The instance forgets an entry once it has committed a revocation
/// of the session or a write of the user (`forget`), so a logout, a revocation or a password
/// change is seen at once where it was made; other instances see it when their entry expires.
///
/// Bounded: at most `capacity` entries (all forgotten at once when full), each used for at most
/// `lifetime` seconds after it was read.
final class StaffCallerCache: @unchecked Sendable {
    struct Entry: Sendable {
        let user: UserRecord
        var lastUsedAt: Double?
        let readAt: ContinuousClock.Instant
        /// The user's enrolled factors, once a shop's policy needed them (`StaffCallers`).
        var factors: EnrolledFactors?
    }

    let capacity: Int
    let lifetime: Duration
    /// What "now" is for lifetimes: the monotonic clock, or a test's.
    let now: @Sendable () -> ContinuousClock.Instant
    private let lock = NSLock()
    private var entries: [String: Entry] = [:]
    /// Counts `forget`s: a read that started before one may not fill the cache with what it read.
    private var generation: UInt64 = 0

    init(
        capacity: Int = 4096, lifetime: Duration = .seconds(2), now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) {
        self.capacity = capacity
        self.lifetime = lifetime
        self.now = now
    }

    /// The cached session `sessionId` of `userId`, if read less than `lifetime` ago.
    func entry(sessionId: String, userId: String) -> Entry? {
        lock.withLock {
            guard let entry = entries[sessionId], entry.user.id == userId else { return nil }
            guard entry.readAt.duration(to: now()) < lifetime else {
                entries[sessionId] = nil
                return nil
            }
            return entry
        }
    }

    /// Where a read that may fill the cache starts: pass it to `remember`.
    var currentGeneration: UInt64 { lock.withLock { generation } }

    /// Keeps what a read that started at `generation` found, unless something was forgotten since.
    func remember(sessionId: String, user: UserRecord, lastUsedAt: Double?, readAt: ContinuousClock.Instant, generation: UInt64) {
        lock.withLock {
            guard generation == self.generation else { return }
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[sessionId] = Entry(user: user, lastUsedAt: lastUsedAt, readAt: readAt)
        }
    }

    /// Keeps the factors read for the session's user until the entry expires.
    func remember(factors: EnrolledFactors, sessionId: String) {
        lock.withLock { entries[sessionId]?.factors = factors }
    }

    /// Records that the session's `last_used_at` was written.
    func touched(sessionId: String, at lastUsedAt: Double) {
        lock.withLock { entries[sessionId]?.lastUsedAt = lastUsedAt }
    }

    /// The session was revoked (or is about to be): its next request reads the database.
    func forget(sessionId: String) {
        lock.withLock {
            generation &+= 1
            entries[sessionId] = nil
        }
    }

    /// The user's row changed (or is about to): every session of theirs reads the database.
    func forget(userId: String) {
        lock.withLock {
            generation &+= 1
            entries = entries.filter { $0.value.user.id != userId }
        }
    }

    var count: Int { lock.withLock { entries.count } }
}
