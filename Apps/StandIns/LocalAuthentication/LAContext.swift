// Declarations as in LocalAuthentication.framework's LAContext.h, LAError.h and
// LABiometryType (iOS 18 SDK), imported to Swift, and Apple's documentation pages "LAContext",
// "LAPolicy", "LABiometryType" and "LAError.Code".

/// A mechanism for evaluating authentication policies and access controls.
@available(iOS 8.0, macOS 10.10, *)
open class LAContext: NSObject {
    public override init() { standIn() }
    /// Assesses whether authentication can proceed for a given policy.
    open func canEvaluatePolicy(_ policy: LAPolicy, error: NSErrorPointer) -> Bool { standIn() }
    /// Evaluates the specified policy.
    @available(iOS 8.0, macOS 10.12.2, *)
    open func evaluatePolicy(_ policy: LAPolicy, localizedReason: String) async throws -> Bool { standIn() }
    /// The type of biometric authentication supported by the device.
    @available(iOS 11.0, macOS 10.13.2, *)
    open var biometryType: LABiometryType { standIn() }
}

/// The set of available local authentication policies.
@available(iOS 8.0, macOS 10.10, *)
public enum LAPolicy: Int, @unchecked Sendable {
    case deviceOwnerAuthenticationWithBiometrics = 1
    case deviceOwnerAuthentication = 2
}

/// The set of available biometric authentication types.
@available(iOS 11.0, macOS 10.13.2, *)
public enum LABiometryType: Int, @unchecked Sendable {
    case none = 0, touchID = 1, faceID = 2
    @available(iOS 17.0, macOS 14.0, visionOS 1.0, *)
    case opticID = 4
}

/// Error codes that the framework returns when policy evaluation fails.
@available(iOS 8.0, macOS 10.10, *)
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
