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
/// Keyed by session id; bounded and expiring as `ExpiringCache` is.
typealias StaffCallerCache = ExpiringCache<StaffCallerEntry>

/// A live staff session's user, as the bearer check read them.
struct StaffCallerEntry: Sendable {
    let user: UserRecord
    var lastUsedAt: Double?
    /// The user's enrolled factors, once a shop's policy needed them (`StaffCallers`).
    var factors: EnrolledFactors?
}

extension ExpiringCache where Value == StaffCallerEntry {
    /// The cached session `sessionId` of `userId`, if read less than `lifetime` ago.
    func entry(sessionId: String, userId: String) -> StaffCallerEntry? {
        value(for: sessionId).flatMap { $0.user.id == userId ? $0 : nil }
    }

    /// Keeps what a read that started at `generation` found, unless something was forgotten since.
    func remember(sessionId: String, user: UserRecord, lastUsedAt: Double?, readAt: ContinuousClock.Instant, generation: UInt64) {
        remember(StaffCallerEntry(user: user, lastUsedAt: lastUsedAt), for: sessionId, readAt: readAt, generation: generation)
    }

    /// Keeps the factors read for the session's user until the entry expires.
    func remember(factors: EnrolledFactors, sessionId: String) {
        update(sessionId) { $0.factors = factors }
    }

    /// Records that the session's `last_used_at` was written.
    func touched(sessionId: String, at lastUsedAt: Double) {
        update(sessionId) { $0.lastUsedAt = lastUsedAt }
    }

    /// The session was revoked (or is about to be): its next request reads the database.
    func forget(sessionId: String) { forget(sessionId) }

    /// The user's row changed (or is about to): every session of theirs reads the database.
    func forget(userId: String) { forget { $0.user.id == userId } }
}
