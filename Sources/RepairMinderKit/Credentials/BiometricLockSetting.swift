import Foundation

/// The biometric lock's setting (`BiometricLock`), kept in the credential store (the Keychain
/// on a phone) with the session it protects, not in `UserDefaults`.
public struct BiometricLockSetting: Codable, Sendable, Equatable {
    /// The lock is on: Face ID or Touch ID before the session is used.
    public var isEnabled: Bool
    /// The staff session's refresh token is stored under `.biometryCurrentSet` and its access
    /// token kept in memory only, so the Keychain itself asks before the session can be used.
    public var guardsCredentials: Bool

    public init(isEnabled: Bool, guardsCredentials: Bool) {
        self.isEnabled = isEnabled
        self.guardsCredentials = guardsCredentials
    }
}

extension CredentialStore {
    /// The biometric lock's setting; nil when it was never set.
    public func biometricLockSetting() throws -> BiometricLockSetting? { try decode(BiometricLockSetting.self, .biometricLock) }

    /// Records the biometric lock's setting.
    public func saveBiometricLockSetting(_ setting: BiometricLockSetting) throws {
        try write(JSONEncoder().encode(setting), for: .biometricLock)
    }
}
