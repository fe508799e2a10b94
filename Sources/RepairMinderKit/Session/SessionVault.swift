import Foundation

/// Where a refreshable session's credentials are kept: in the credential store as they are,
/// or, guarded (`BiometricLockSetting.guardsCredentials`), the refresh token in a
/// `.biometryCurrentSet` item (`GuardedItems`) and the access token in memory only. A guarded
/// session is unusable after a launch until `unlock()` read that item, which is when the OS
/// asks for Face ID or Touch ID; the first request then refreshes, since no access token was kept.
///
/// In memory, a guarded session is always the newest: a refresh's tokens are kept there first,
/// then written; a write the device refuses (locked) leaves the session working, and is done
/// again at the next save or `saveUnsaved()` (the app's return to the foreground).
final class SessionVault: @unchecked Sendable {
    let store: any CredentialStore
    /// The item of the session as it is.
    let key: CredentialKey
    /// The guarded items; nil for a kind that is never guarded (REKI).
    let guardedItems: GuardedItems?
    private let lock = NSLock()
    /// Held for a whole `saveUnsaved()`: a refresh's save and the foreground's retry must not
    /// interleave, or an older token could be written over a newer one.
    private let writing = NSLock()
    private var memory: SessionCredentials?
    private var guarded: Bool
    /// `memory` is newer than the guarded item.
    private var unsaved = false

    init(store: any CredentialStore, key: CredentialKey, guardedItems: GuardedItems?) {
        self.store = store
        self.key = key
        self.guardedItems = guardedItems
        // Unreadable setting: not guarded; the launch shows the read error anyway.
        guarded = guardedItems != nil && ((try? store.biometricLockSetting())?.guardsCredentials ?? false)
    }

    /// Whether the session is kept guarded.
    var isGuarded: Bool { lock.withLock { guarded } }

    /// The credentials; nil when signed out. Guarded and not unlocked in this launch:
    /// `CredentialAccessError.sessionLocked`.
    func read() throws -> SessionCredentials? {
        let (guarded, memory) = lock.withLock { (self.guarded, self.memory) }
        guard guarded, let guardedItems else { return try store.sessionCredentials(key) }
        if let memory { return memory }
        guard try store.contains(guardedItems.holder(in: store)) else { return nil }
        throw CredentialAccessError.sessionLocked
    }

    /// What is known without a prompt: the credentials, or nil when they are guarded and
    /// locked (or unreadable).
    func peek() -> SessionCredentials? { try? read() }

    /// Whether a session is stored, without a prompt.
    func exists() throws -> Bool {
        let (guarded, memory) = lock.withLock { (self.guarded, self.memory) }
        guard guarded, let guardedItems else { return try store.contains(key) }
        return try memory != nil || store.contains(guardedItems.holder(in: store))
    }

    /// Reads the guarded item (the OS asks for Face ID or Touch ID) and keeps it in memory;
    /// whether there is a session. Not guarded: whether there is one, without a prompt.
    /// A cancelled or failed prompt throws `CredentialAccessError`.
    func unlock() throws -> Bool {
        let (guarded, memory) = lock.withLock { (self.guarded, self.memory) }
        guard guarded, let guardedItems else { return try exists() }
        if memory != nil { return true }
        guard let unlocked = try store.sessionCredentials(guardedItems.holder(in: store)) else { return false }
        lock.withLock { self.memory = unlocked }
        return true
    }

    /// Keeps `credentials` as the session's. Guarded, they are the session at once (in memory)
    /// whether or not the device lets them be written now (`saveUnsaved()`).
    func save(_ credentials: SessionCredentials) throws {
        guard isGuarded, guardedItems != nil else { return try store.saveSession(credentials, as: key) }
        lock.withLock {
            memory = credentials
            unsaved = true
        }
        // Refused (a locked device): kept in memory, written at the next save or `saveUnsaved()`.
        try? saveUnsaved()
        // No copy outside the guarded items.
        try store.delete(key)
    }

    /// Whether the guarded session in memory is newer than what the device holds.
    var hasUnsavedSession: Bool { lock.withLock { unsaved } }

    /// Writes the guarded session in memory to the item that does not hold the older one, then
    /// names it as the holder, then deletes the older: the stored session is whole at every step.
    func saveUnsaved() throws {
        try writing.withLock { try writeUnsaved() }
    }

    private func writeUnsaved() throws {
        guard let guardedItems, let pending = lock.withLock({ unsaved ? memory : nil }) else { return }
        var kept = pending
        kept.accessToken = ""
        kept.accessTokenExpiresAt = .distantPast
        let holder = try guardedItems.holder(in: store)
        // The first save goes to the first item; later ones to the one that does not hold the session.
        let older = try store.contains(holder) ? holder : nil, next = older.map(guardedItems.other) ?? holder
        try store.delete(next)  // a leftover of an interrupted save, never the session
        try store.write(JSONEncoder().encode(kept), for: next, protection: .biometryCurrentSet)
        try store.write(Data(next.rawValue.utf8), for: guardedItems.current)
        if let older { try store.delete(older) }
        lock.withLock {
            // A newer save may have come meanwhile: it is still to be written.
            if memory == pending { unsaved = false }
        }
    }

    /// Forgets the session, in memory and in the store.
    func delete() throws {
        lock.withLock {
            memory = nil
            unsaved = false
        }
        try store.delete(key)
        for item in guardedItems?.all ?? [] { try store.delete(item) }
    }

    /// Guards the session from now on, or stops: a stored session moves to the guarded item
    /// or back. Stopping while the session is locked throws `CredentialAccessError.sessionLocked`.
    func setGuarded(_ on: Bool) throws {
        guard let guardedItems, on != isGuarded else { return }
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
                unsaved = false
            }
            if let current { try store.saveSession(current, as: key) }
            for item in guardedItems.all { try store.delete(item) }
        }
    }
}
