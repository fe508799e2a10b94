#if canImport(Security)
import Foundation
import LocalAuthentication
import Security

/// Credentials in the Keychain, readable after first unlock, never synced off this device.
/// Any status other than "not found" is an error, never "signed out".
///
/// `accessGroup` (a Keychain access group of the app's entitlements, `TEAMID.com.example.shared`)
/// shares the items with the app's extensions, such as a notification service extension that
/// fetches an order for a rich notification. On macOS the items go to the data protection
/// keychain (`kSecUseDataProtectionKeychain`), which behaves as on iOS, rather than the legacy
/// file-based one.
///
/// `.biometryCurrentSet` items (`write(_:for:protection:)`) are under `SecAccessControl` with
/// that flag: reading one shows the system prompt with `prompt`, and must not be done on the
/// main thread (the call blocks until the person answers).
public struct KeychainCredentialStore: CredentialStore {
    public let service: String
    public let accessGroup: String?
    /// The reason the Face ID or Touch ID prompt gives when a guarded item is read.
    public let prompt: String

    public init(service: String = "com.repairminder.credentials", accessGroup: String? = nil, prompt: String = "Unlock Repair Minder") {
        self.service = service
        self.accessGroup = accessGroup
        self.prompt = prompt
    }

    public var supportsBiometricProtection: Bool { true }

    private func query(_ key: CredentialKey) -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
            kSecAttrAccount as String: key.rawValue,
        ]
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        #if os(macOS)
        query[kSecUseDataProtectionKeychain as String] = true
        #endif
        return query
    }

    public func read(_ key: CredentialKey) throws -> Data? {
        var query = query(key)
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        // The reason a guarded item's prompt gives (ordinary items never prompt).
        let context = LAContext()
        context.localizedReason = prompt
        query[kSecUseAuthenticationContext as String] = context
        var result: AnyObject?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        switch status {
        case errSecItemNotFound: return nil
        case errSecUserCanceled: throw CredentialAccessError.cancelled
        case errSecAuthFailed: throw CredentialAccessError.notRecognised
        default: break
        }
        guard status == errSecSuccess, let data = result as? Data else { throw KeychainError(status: status) }
        return data
    }

    public func contains(_ key: CredentialKey) throws -> Bool {
        var query = query(key)
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        // Attributes only, and no prompt: a guarded item answers "interaction not allowed".
        query[kSecReturnAttributes as String] = true
        let context = LAContext()
        context.interactionNotAllowed = true
        query[kSecUseAuthenticationContext as String] = context
        var result: AnyObject?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        switch status {
        case errSecSuccess, errSecInteractionNotAllowed: return true
        case errSecItemNotFound: return false
        default: throw KeychainError(status: status)
        }
    }

    public func write(_ data: Data, for key: CredentialKey, protection: CredentialProtection) throws {
        guard protection == .biometryCurrentSet else { return try write(data, for: key) }
        var error: Unmanaged<CFError>?
        guard
            let access = SecAccessControlCreateWithFlags(
                nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, .biometryCurrentSet, &error)
        else { throw error.map { $0.takeRetainedValue() as Error } ?? KeychainError(status: errSecParam) }
        // Updating a guarded item would ask for biometrics: replace it instead (a delete never asks).
        try delete(key)
        let attributes: [String: Any] = [kSecValueData as String: data, kSecAttrAccessControl as String: access]
        let added = SecItemAdd(query(key).merging(attributes) { $1 } as CFDictionary, nil)
        guard added == errSecSuccess else { throw KeychainError(status: added) }
    }

    public func write(_ data: Data, for key: CredentialKey) throws {
        let attributes: [String: Any] = [
            kSecValueData as String: data,
            kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
        ]
        let status = SecItemUpdate(query(key) as CFDictionary, attributes as CFDictionary)
        if status == errSecItemNotFound {
            let added = SecItemAdd(query(key).merging(attributes) { $1 } as CFDictionary, nil)
            guard added == errSecSuccess else { throw KeychainError(status: added) }
        } else if status != errSecSuccess {
            throw KeychainError(status: status)
        }
    }

    public func delete(_ key: CredentialKey) throws {
        let status = SecItemDelete(query(key) as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw KeychainError(status: status) }
    }
}

/// A Keychain call failed with this `OSStatus`.
public struct KeychainError: Error, Equatable {
    public let status: OSStatus
}
#endif
