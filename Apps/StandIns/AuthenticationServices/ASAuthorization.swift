/// A controller that manages authorization requests that a provider creates.
open class ASAuthorizationController: NSObject {
    public init(authorizationRequests: [ASAuthorizationRequest]) { standIn() }
    /// A delegate that the authorization controller informs about the success or failure of an authorization attempt.
    weak open var delegate: (any ASAuthorizationControllerDelegate)?
    /// A delegate that provides a display context in which the system can present an authorization interface to the user.
    weak open var presentationContextProvider: (any ASAuthorizationControllerPresentationContextProviding)?
    /// Starts the authorization flows named during controller initialization.
    open func performRequests() { standIn() }
}

/// An interface for providing information about the outcome of an authorization request.
public protocol ASAuthorizationControllerDelegate: NSObjectProtocol {
    /// Tells the delegate when authorization completes successfully.
    func authorizationController(controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization)
    /// Tells the delegate when authorization fails.
    func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error)
}

// Apple's two delegate methods are Objective-C `optional` requirements; defaults stand for that.
extension ASAuthorizationControllerDelegate {
    public func authorizationController(controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization) {}
    public func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {}
}

/// An interface the controller uses to ask a delegate for a presentation context.
public protocol ASAuthorizationControllerPresentationContextProviding: NSObjectProtocol {
    /// Tells the delegate from which window it should present content to the user.
    func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor
}

/// A base class for different kinds of authorization requests.
open class ASAuthorizationRequest: NSObject {}

/// An encapsulation of a successful authorization performed by a controller.
open class ASAuthorization: NSObject {
    /// Information about a successful authorization.
    open var credential: any ASAuthorizationCredential { standIn() }
}

/// A protocol that represents a credential that results from a successful authorization flow.
public protocol ASAuthorizationCredential: NSObjectProtocol {}

/// An error that an authorization controller reports.
public struct ASAuthorizationError: Error, Hashable {
    public var code: ASAuthorizationError.Code { standIn() }
    /// Codes for authorization errors.
    public enum Code: Int, Sendable {
        case unknown = 1000, canceled = 1001, invalidResponse = 1002, notHandled = 1003, failed = 1004, notInteractive = 1005,
            matchedExcludedCredential = 1006
    }
}
