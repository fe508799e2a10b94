import Foundation

/// Tokens this instance has verified, with their claims: the same access token comes back on
/// every request of its session, and decoding and checking it again (base64, two JSON
/// documents, an HMAC) was over a tenth of a `/me` request.
///
/// Only what cannot change is kept: that these exact bytes carry this signature and these
/// claims. Expiry is checked on every use; whether the session is still live is not this
/// cache's business (the database's, or `StaffCallerCache`'s for two seconds). Bounded: at most
/// `capacity` tokens, forgotten all at once when full (a new token is verified, as before).
final class VerifiedTokens: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [Key: any Sendable] = [:]
    let capacity: Int

    private struct Key: Hashable {
        let token: String
        let kind: ObjectIdentifier
    }

    init(capacity: Int = 4096) {
        self.capacity = capacity
    }

    /// The claims `token` was verified with as `Claims`, if it was.
    func claims<Claims: Sendable>(of token: String, as type: Claims.Type) -> Claims? {
        lock.withLock { entries[Key(token: token, kind: ObjectIdentifier(type))] } as? Claims
    }

    func remember<Claims: Sendable>(_ claims: Claims, of token: String) {
        lock.withLock {
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[Key(token: token, kind: ObjectIdentifier(Claims.self))] = claims
        }
    }

    /// Forgets every token (a key left the key set).
    func removeAll() {
        lock.withLock { entries.removeAll() }
    }

    var count: Int { lock.withLock { entries.count } }
}
