/// A mechanism for evaluating authentication policies and access controls.
open class LAContext: NSObject {
    public override init() { standIn() }
    /// Assesses whether authentication can proceed for a given policy.
    open func canEvaluatePolicy(_ policy: LAPolicy, error: NSErrorPointer) -> Bool { standIn() }
    /// Evaluates the specified policy.
    open func evaluatePolicy(_ policy: LAPolicy, localizedReason: String) async throws -> Bool { standIn() }
    /// The type of biometric authentication supported by the device.
    open var biometryType: LABiometryType { standIn() }
}

/// The set of available local authentication policies.
public enum LAPolicy: Int, @unchecked Sendable {
    case deviceOwnerAuthenticationWithBiometrics = 1
    case deviceOwnerAuthentication = 2
}

/// The set of available biometric authentication types.
public enum LABiometryType: Int, @unchecked Sendable {
    case none = 0, touchID = 1, faceID = 2, opticID = 4
}

/// Error codes that the framework returns when policy evaluation fails.
public struct LAError: Error, Hashable {
    public var code: LAError.Code { standIn() }
    /// Codes that the framework returns when policy evaluation fails.
    public enum Code: Int, @unchecked Sendable {
        case authenticationFailed = -1, userCancel = -2, userFallback = -3, systemCancel = -4, passcodeNotSet = -5,
            biometryNotAvailable = -6, biometryNotEnrolled = -7, biometryLockout = -8, appCancel = -9, invalidContext = -10,
            notInteractive = -1004
    }
}

/// Foundation's error out-parameter (an `AutoreleasingUnsafeMutablePointer` on Apple
/// platforms, which Linux lacks; callers here pass `nil` or `&error` alike).
public typealias NSErrorPointer = UnsafeMutablePointer<NSError?>?
