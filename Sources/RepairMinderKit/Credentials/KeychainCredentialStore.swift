#if canImport(Security)
import Foundation
import Security

/// Credentials in the Keychain, readable after first unlock, never synced off this device.
/// Any status other than "not found" is an error, never "signed out".
///
/// `accessGroup` (a Keychain access group of the app's entitlements, `TEAMID.com.example.shared`)
/// shares the items with the app's extensions, such as a notification service extension that
/// fetches an order for a rich notification. On macOS the items go to the data protection
/// keychain (`kSecUseDataProtectionKeychain`), which behaves as on iOS, rather than the legacy
/// file-based one.
public struct KeychainCredentialStore: CredentialStore {
    public let service: String
    public let accessGroup: String?

    public init(service: String = "com.repairminder.credentials", accessGroup: String? = nil) {
        self.service = service
        self.accessGroup = accessGroup
    }

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
        var result: AnyObject?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess, let data = result as? Data else { throw KeychainError(status: status) }
        return data
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
