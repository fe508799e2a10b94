import Foundation
import RepairMinderKit

/// A credential store that behaves as the Keychain does where the Linux stores cannot: it can
/// be locked (every read throws, as before the device's first unlock since it started), and it
/// keeps `.biometryCurrentSet` items whose every read shows the "system prompt", answered as
/// scripted (no answer left: the person cancels).
final class FakeKeychain: CredentialStore, @unchecked Sendable {
    enum Answer { case pass, cancel, fail }
    /// `errSecInteractionNotAllowed`: the device has not been unlocked since it started.
    struct DeviceLocked: Error {}

    private let lock = NSLock()
    private var items: [CredentialKey: (data: Data, protection: CredentialProtection)] = [:]
    private var answers: [Answer] = []
    private var promptCount = 0
    private var locked = false
    private var screenLocked = false

    var isLocked: Bool {
        get { lock.withLock { locked } }
        set { lock.withLock { locked = newValue } }
    }
    /// The phone is locked after its first unlock: ordinary items (after first unlock) work, but
    /// `.biometryCurrentSet` ones (when passcode set) can be neither read nor written.
    var refusesGuardedItems: Bool {
        get { lock.withLock { screenLocked } }
        set { lock.withLock { screenLocked = newValue } }
    }
    /// The prompts shown so far.
    var prompts: Int { lock.withLock { promptCount } }
    /// How the next prompts are answered.
    func answer(_ next: Answer...) { lock.withLock { answers = next } }
    /// How an item is protected; nil when there is none.
    func protection(of key: CredentialKey) -> CredentialProtection? { lock.withLock { items[key]?.protection } }
    /// An item's bytes as a thief with the file would see them (no prompt), for assertions.
    func raw(_ key: CredentialKey) -> Data? { lock.withLock { items[key]?.data } }

    var supportsBiometricProtection: Bool { true }

    func read(_ key: CredentialKey) throws -> Data? {
        try lock.withLock {
            if locked { throw DeviceLocked() }
            guard let item = items[key] else { return nil }
            guard item.protection == .biometryCurrentSet else { return item.data }
            if screenLocked { throw DeviceLocked() }
            promptCount += 1
            switch answers.isEmpty ? .cancel : answers.removeFirst() {
            case .pass: return item.data
            case .cancel: throw CredentialAccessError.cancelled
            case .fail: throw CredentialAccessError.notRecognised
            }
        }
    }

    func contains(_ key: CredentialKey) throws -> Bool {
        try lock.withLock {
            if locked { throw DeviceLocked() }
            return items[key] != nil
        }
    }

    func write(_ data: Data, for key: CredentialKey) throws { try write(data, for: key, protection: .standard) }

    func write(_ data: Data, for key: CredentialKey, protection: CredentialProtection) throws {
        try lock.withLock {
            if locked || (screenLocked && protection == .biometryCurrentSet) { throw DeviceLocked() }
            items[key] = (data, protection)
        }
    }

    func delete(_ key: CredentialKey) throws {
        try lock.withLock {
            if locked { throw DeviceLocked() }
            items.removeValue(forKey: key)
        }
    }
}
