import Foundation
import Observation

/// The first screen: staff or customer (seed 003). The choice is remembered.
@MainActor @Observable
public final class RoleSelectionViewModel {
    public private(set) var role: AppRole?
    private let store: any CredentialStore

    public init(store: any CredentialStore) {
        self.store = store
        role = try? store.role()
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
