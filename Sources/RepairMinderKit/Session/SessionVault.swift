import Foundation

/// Where a refreshable session's credentials are kept: in the credential store as they are,
/// or, guarded (`BiometricLockSetting.guardsCredentials`), the refresh token in a
/// `.biometryCurrentSet` item and the access token in memory only. A guarded session is
/// unusable after a launch until `unlock()` read that item, which is when the OS asks for
/// Face ID or Touch ID; the first request then refreshes, since no access token was kept.
final class SessionVault: @unchecked Sendable {
    let store: any CredentialStore
    /// The item of the session as it is.
    let key: CredentialKey
    /// The guarded item; nil for a kind that is never guarded (REKI).
    let guardedKey: CredentialKey?
    private let lock = NSLock()
    private var memory: SessionCredentials?
    private var guarded: Bool

    init(store: any CredentialStore, key: CredentialKey, guardedKey: CredentialKey?) {
        self.store = store
        self.key = key
        self.guardedKey = guardedKey
        // Unreadable setting: not guarded; the launch shows the read error anyway.
        guarded = guardedKey != nil && ((try? store.biometricLockSetting())?.guardsCredentials ?? false)
    }

    /// Whether the session is kept guarded.
    var isGuarded: Bool { lock.withLock { guarded } }

    /// The credentials; nil when signed out. Guarded and not unlocked in this launch:
    /// `CredentialAccessError.sessionLocked`.
    func read() throws -> SessionCredentials? {
        let (guarded, memory) = lock.withLock { (self.guarded, self.memory) }
        guard guarded, let guardedKey else { return try store.sessionCredentials(key) }
        if let memory { return memory }
        guard try store.contains(guardedKey) else { return nil }
        throw CredentialAccessError.sessionLocked
    }

    /// What is known without a prompt: the credentials, or nil when they are guarded and
    /// locked (or unreadable).
    func peek() -> SessionCredentials? { try? read() }

    /// Whether a session is stored, without a prompt.
    func exists() throws -> Bool {
        let (guarded, memory) = lock.withLock { (self.guarded, self.memory) }
        guard guarded, let guardedKey else { return try store.contains(key) }
        return try memory != nil || store.contains(guardedKey)
    }

    /// Reads the guarded item (the OS asks for Face ID or Touch ID) and keeps it in memory;
    /// whether there is a session. Not guarded: whether there is one, without a prompt.
    /// A cancelled or failed prompt throws `CredentialAccessError`.
    func unlock() throws -> Bool {
        let (guarded, memory) = lock.withLock { (self.guarded, self.memory) }
        guard guarded, let guardedKey else { return try exists() }
        if memory != nil { return true }
        guard let unlocked = try store.sessionCredentials(guardedKey) else { return false }
        lock.withLock { self.memory = unlocked }
        return true
    }

    /// Keeps `credentials` as the session's.
    func save(_ credentials: SessionCredentials) throws {
        guard isGuarded, let guardedKey else { return try store.saveSession(credentials, as: key) }
        var kept = credentials
        kept.accessToken = ""
        kept.accessTokenExpiresAt = .distantPast
        try store.write(JSONEncoder().encode(kept), for: guardedKey, protection: .biometryCurrentSet)
        lock.withLock { memory = credentials }
        // No copy outside the guarded item.
        try store.delete(key)
    }

    /// Forgets the session, in memory and in the store.
    func delete() throws {
        lock.withLock { memory = nil }
        try store.delete(key)
        if let guardedKey { try store.delete(guardedKey) }
    }

    /// Guards the session from now on, or stops: a stored session moves to the guarded item
    /// or back. Stopping while the session is locked throws `CredentialAccessError.sessionLocked`.
    func setGuarded(_ on: Bool) throws {
        guard let guardedKey, on != isGuarded else { return }
        if on {
            guard store.supportsBiometricProtection else { throw CredentialAccessError.protectionUnavailable }
            let current = try store.sessionCredentials(key)
            lock.withLock { guarded = true }
            if let current { try save(current) }
        } else {
            let current = try read()
            lock.withLock {
                guarded = false
                memory = nil
            }
            if let current { try store.saveSession(current, as: key) }
            try store.delete(guardedKey)
        }
    }
}
