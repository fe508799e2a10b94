import Foundation
import SQLKit

/// The one way sessions end (docs/API.md §2.9): one session, all of a user's, all of a user's
/// but the caller's, or the session whose refresh-token family was replayed. Each revocation
/// runs inside a transaction the caller holds (`transaction`), next to whatever else that
/// transaction writes (a new password, a used-up code), and once it has committed the
/// instance's `StaffCallerCache` forgets every session it ended and every user it changed.
/// Nothing else touches the cache, so no path can end a session and leave it cached.
struct SessionRevocation: Sendable {
    let database: Database
    /// The instance's staff caller cache (REKI's sessions are not in it: forgetting their ids
    /// there is harmless); nil where there is none.
    let callerCache: StaffCallerCache?

    /// Runs `body` in one transaction; what it ended or changed is forgotten by the caller
    /// cache once that transaction has committed (not before: a read in between would refill it).
    /// With `serializedOn`, transactions with the same key run one at a time on every instance
    /// (a rule over several rows: a shop keeps an admin).
    func transaction<T: Sendable>(
        serializedOn key: String? = nil, _ body: @Sendable (Revocations) async throws -> T
    ) async throws -> T {
        let ended = Revocations.Ended()
        let result = try await database.transaction(serializedOn: key) { db in try await body(Revocations(db: db, ended: ended)) }
        if let callerCache {
            let (sessions, users) = ended.taken()
            for id in sessions { callerCache.forget(sessionId: id) }
            for id in users { callerCache.forget(userId: id) }
        }
        return result
    }
}

/// The revocations of one transaction (`db`), recorded for the caller cache.
struct Revocations: Sendable {
    let db: any SQLDatabase
    let ended: Ended

    /// What a transaction ended and changed, until it commits.
    final class Ended: @unchecked Sendable {
        private let lock = NSLock()
        private var sessions: [String] = []
        private var users: [String] = []

        func session(_ id: String) { lock.withLock { sessions.append(id) } }
        func user(_ id: String) { lock.withLock { users.append(id) } }
        func taken() -> (sessions: [String], users: [String]) {
            lock.withLock {
                defer { (sessions, users) = ([], []) }
                return (sessions, users)
            }
        }
    }

    /// Ends session `id` of `realm`: its refresh tokens and access tokens stop working and, for
    /// staff, the device tokens it registered are forgotten and the activity log records it for
    /// the session's user, from `device` (the request that caused it, if any). With `ofUser`,
    /// only if it is a live session of that user. True when it was live and is now ended.
    @discardableResult
    func revoke(
        session id: String, ofUser userId: String? = nil, realm: SessionRealm = .staff, reason: String,
        device: ClientDevice? = nil, now: Double
    ) async throws -> Bool {
        let owner: SQLQueryString = userId.map { " AND user_id = \(bind: $0)" } ?? ""
        let revoked = try await db.raw(
            """
            UPDATE \(ident: realm.sessions) SET revoked_at = \(bind: now), revoked_reason = \(bind: reason)
            WHERE id = \(bind: id) AND revoked_at IS NULL\(owner) RETURNING user_id
            """
        ).first(decodingColumn: "user_id", as: String.self)
        // Even for a session ended before: a device registered meanwhile through another
        // instance's cached copy of it is forgotten too (but not another user's, `ofUser`).
        if realm.isStaff, userId == nil || revoked != nil { try await DeviceTokenStore.removeAll(ofSession: id, on: db) }
        guard let revoked else { return false }
        ended.session(id)
        if realm.isStaff {
            try await ActivityLog.record(.sessionRevoked, userId: revoked, sessionId: id, device: device, at: now, on: db)
        }
        return true
    }

    /// Ends every live session of `userId` but `keeping` (the caller's own, when it stays
    /// signed in); how many it ended.
    @discardableResult
    func revokeAll(
        ofUser userId: String, keeping: String? = nil, realm: SessionRealm = .staff, reason: String, device: ClientDevice?,
        now: Double
    ) async throws -> Int {
        let ids = try await db.raw(
            """
            SELECT id FROM \(ident: realm.sessions)
            WHERE user_id = \(bind: userId) AND revoked_at IS NULL AND id <> \(bind: keeping ?? "")
            """
        ).all(decodingColumn: "id", as: String.self)
        for id in ids { try await revoke(session: id, realm: realm, reason: reason, device: device, now: now) }
        return ids.count
    }

    /// Records that this transaction changed `userId`'s row (a password, the last sign-in):
    /// their sessions' cached copy of it is dropped once it commits.
    func changedUser(_ userId: String) {
        ended.user(userId)
    }
}
