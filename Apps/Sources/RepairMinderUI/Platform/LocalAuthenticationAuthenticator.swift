#if canImport(LocalAuthentication)
import LocalAuthentication
import RepairMinderKit

/// Face ID / Touch ID through LocalAuthentication, for `BiometricLock`. The app's Info.plist
/// needs `NSFaceIDUsageDescription`. A fresh `LAContext` per question: a context that passed
/// once would otherwise answer yes again without asking.
public struct LocalAuthenticationAuthenticator: DeviceOwnerAuthenticator {
    public init() {}

    @MainActor public var biometryName: String? {
        let context = LAContext()
        guard context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: nil) else { return nil }
        switch context.biometryType {
        case .faceID: return "Face ID"
        case .touchID: return "Touch ID"
        case .opticID: return "Optic ID"
        default: return nil
        }
    }

    @MainActor public func authenticate(reason: String) async throws -> Bool {
        do {
            return try await LAContext().evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: reason)
        } catch let error as LAError where Self.declined.contains(error.code) {
            return false
        }
    }

    /// The person said no or did not match: not a failure of the lock itself.
    private static let declined: Set<LAError.Code> = [.authenticationFailed, .userCancel, .userFallback, .systemCancel, .appCancel]
}
#endif
