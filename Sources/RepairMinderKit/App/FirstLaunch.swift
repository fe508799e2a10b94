import Foundation

/// Keychain items outlive the app: after an uninstall and a reinstall, the old session and role
/// would silently come back. The first launch of an installation therefore deletes every item
/// the SDK stores, as Auth0's SDK recommends. "Installed" is remembered in `UserDefaults`,
/// which an uninstall does remove.
///
/// Call it before making the `APIClient` (which reads the stored session when it starts):
/// `RepairMinderAppDelegate` does.
public enum FirstLaunch {
    /// The `UserDefaults` key that marks this installation as launched before.
    public static let launchedKey = "com.repairminder.kit.launched"

    /// On an installation's first launch, deletes every credential in `store` and returns true;
    /// later launches change nothing. A delete that fails (the Keychain is locked while the
    /// device has not been unlocked since boot) throws and leaves the mark unset, so the next
    /// launch tries again: a stale session is never kept for lack of a retry.
    @discardableResult
    public static func clearCredentialsIfNewInstall(_ store: any CredentialStore, defaults: UserDefaults = .standard) throws -> Bool {
        guard !defaults.bool(forKey: launchedKey) else { return false }
        for key in CredentialKey.allCases { try store.delete(key) }
        defaults.set(true, forKey: launchedKey)
        return true
    }
}
