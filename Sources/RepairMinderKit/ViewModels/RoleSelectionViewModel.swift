import Foundation
import Observation

/// The first screen: staff or customer (seed 003). The choice is remembered.
@MainActor @Observable
public final class RoleSelectionViewModel {
    public private(set) var role: AppRole?
    /// The remembered choice could not be read (a locked Keychain): unknown, not "none".
    /// `AppModel` shows `.credentialsUnreadable` instead of this screen then.
    public private(set) var readFailed = false
    private let store: any CredentialStore

    public init(store: any CredentialStore) {
        self.store = store
        try? reload()
    }

    /// Reads the remembered choice again (after the device was unlocked); throws while the
    /// store still cannot be read.
    public func reload() throws {
        do {
            role = try store.role()
            readFailed = false
        } catch {
            readFailed = true
            throw error
        }
    }

    public func select(_ role: AppRole) {
        try? store.saveRole(role)
        self.role = role
    }

    /// Back to the role choice (e.g. "switch app" in settings).
    public func clear() {
        try? store.delete(.role)
        role = nil
    }
}
