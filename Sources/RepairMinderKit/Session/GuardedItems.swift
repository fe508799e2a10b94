/// Where a guarded session is kept: two `.biometryCurrentSet` items used in turn, and an
/// ordinary item naming the one that holds the session. A new refresh token is written to the
/// other item before the old one is given up, so a write the device refuses loses nothing: a
/// locked phone cannot write such items, and a refresh can happen while it is locked (a
/// background task, a notification extension). Replacing one item in place would delete the
/// old token before the new one is written, and the next refresh would then send a rotated
/// token: reuse, and the whole session family revoked (issue 52, item 3).
struct GuardedItems: Sendable {
    let first: CredentialKey
    let second: CredentialKey
    /// Names `first` or `second`; none (a version before this one) is `first`.
    let current: CredentialKey

    /// The staff session's.
    static let staff = GuardedItems(first: .staffGuarded, second: .staffGuardedSpare, current: .staffGuardedCurrent)

    /// The item that holds the session in `store`.
    func holder(in store: any CredentialStore) throws -> CredentialKey {
        let named = try store.read(current).flatMap { String(data: $0, encoding: .utf8) }
        return named == second.rawValue ? second : first
    }

    /// The item that does not.
    func other(than holder: CredentialKey) -> CredentialKey { holder == first ? second : first }

    /// Every item, for a sign-out.
    var all: [CredentialKey] { [first, second, current] }
}
