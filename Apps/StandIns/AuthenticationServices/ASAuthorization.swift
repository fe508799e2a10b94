// Declarations as in AuthenticationServices.framework's ASAuthorizationController.h,
// ASAuthorization.h, ASAuthorizationRequest.h, ASAuthorizationCredential.h and
// ASAuthorizationError.h (iOS 18 SDK), imported to Swift, and Apple's documentation pages
// "ASAuthorizationController", "ASAuthorizationControllerDelegate",
// "ASAuthorizationControllerPresentationContextProviding" and "ASAuthorizationError.Code".
// Isolation: the two protocols are `@MainActor` as the current SDK (Xcode 26.4) declares them;
// the iOS 18.0 SDK left them nonisolated, and a `@preconcurrency` conformance written for that
// SDK warns under the current one (UITypeCheckTests).
import StandInAvailability
import UIKit

/// A controller that manages authorization requests that a provider creates.
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
open class ASAuthorizationController: NSObject {
    /// Authorization requests that are being serviced by this controller.
    open var authorizationRequests: [ASAuthorizationRequest] { standIn() }
    /// A delegate that the authorization controller informs about the success or failure of an authorization attempt.
    weak open var delegate: (any ASAuthorizationControllerDelegate)?
    /// A delegate that provides a display context in which the system can present an authorization interface to the user.
    @available(watchOS, unavailable)
    weak open var presentationContextProvider: (any ASAuthorizationControllerPresentationContextProviding)?
    /// Creates a controller from a collection of authorization requests.
    public init(authorizationRequests: [ASAuthorizationRequest]) { standIn() }
    /// Starts the authorization flows named during controller initialization.
    open func performRequests() { standIn() }
    /// Starts the authorization flows named during controller initialization, with options.
    @available(iOS 16.0, macOS 13.0, *)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    open func performRequests(options: ASAuthorizationController.RequestOptions) { standIn() }
    /// Cancels the running authorization flows; the delegate learns of it through
    /// `didCompleteWithError` with `ASAuthorizationError.canceled`.
    @available(iOS 16.0, macOS 13.0, *)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    open func cancel() { standIn() }

    /// Options for a request (`ASAuthorizationControllerRequestOptions`).
    @available(iOS 16.0, macOS 13.0, *)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    public struct RequestOptions: OptionSet, @unchecked Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// Only credentials already on the device: with none, the request fails at once
        /// (`ASAuthorizationError.canceled` or `.notInteractive`) instead of offering another
        /// device (the QR code sheet).
        public static var preferImmediatelyAvailableCredentials: ASAuthorizationController.RequestOptions { standIn() }
    }
}

/// An interface for providing information about the outcome of an authorization request.
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
@MainActor @preconcurrency public protocol ASAuthorizationControllerDelegate: NSObjectProtocol {
    /// Tells the delegate when authorization completes successfully.
    func authorizationController(controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization)
    /// Tells the delegate when authorization fails.
    func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error)
}

// Apple's two delegate methods are Objective-C `optional` requirements; defaults stand for
// that. A misspelt one would then compile and never be called: `DelegateMethodNamesTests`
// holds every delegate method in the screens to these names (StandIns/README.md).
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
extension ASAuthorizationControllerDelegate {
    public func authorizationController(controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization) {}
    public func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {}
}

/// An interface the controller uses to ask a delegate for a presentation context.
@available(iOS 13.0, macOS 10.15, tvOS 13.0, *)
@available(watchOS, unavailable)
@MainActor @preconcurrency public protocol ASAuthorizationControllerPresentationContextProviding: NSObjectProtocol {
    /// Tells the delegate from which window it should present content to the user (required).
    func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor
}

/// A base class for different kinds of authorization requests.
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
open class ASAuthorizationRequest: NSObject {}

/// An encapsulation of a successful authorization performed by a controller.
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
open class ASAuthorization: NSObject {
    /// Information about a successful authorization.
    open var credential: any ASAuthorizationCredential { standIn() }
}

/// A protocol that represents a credential that results from a successful authorization flow.
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
public protocol ASAuthorizationCredential: NSObjectProtocol {}

/// An error that an authorization controller reports (`ASAuthorizationErrorDomain`).
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
public struct ASAuthorizationError: Error, Hashable {
    /// The error's code.
    public var code: ASAuthorizationError.Code { standIn() }
    /// Codes for authorization errors.
    @available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
    public enum Code: Int, @unchecked Sendable {
        /// The authorization attempt failed for an unknown reason.
        case unknown = 1000
        /// The user canceled the authorization attempt (or the app called `cancel()`).
        case canceled = 1001
        /// The authorization request received an invalid response.
        case invalidResponse = 1002
        /// The authorization request wasn't handled.
        case notHandled = 1003
        /// The authorization attempt failed.
        case failed = 1004
        /// The authorization request isn't interactive.
        @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, *)
        case notInteractive = 1005
        /// The user tried to register a credential that the request excluded (already registered).
        @available(iOS 18.0, macOS 15.0, visionOS 2.0, *)
        @available(tvOS, unavailable)
        @available(watchOS, unavailable)
        @available(iOS_18_0)
        case matchedExcludedCredential = 1006
    }
}
