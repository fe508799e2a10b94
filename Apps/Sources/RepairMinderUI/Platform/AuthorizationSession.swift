#if canImport(AuthenticationServices)
import AuthenticationServices
import RepairMinderKit

/// One `ASAuthorizationController` run: its delegate, kept alive until the controller answers,
/// which converts the credential where it arrives (the main actor). Cancelling the Swift task
/// cancels the controller, whose sheet then closes.
///
/// Not generic, and its delegate methods in its own body's extensions: Apple's compiler refuses
/// a generic class's conformance to an Objective-C protocol in an extension, and `@objc`
/// members in a generic class's extensions (`ObjectiveCRulesTests` checks the screens for that).
@available(iOS 17, macOS 14, *)
@MainActor
final class AuthorizationSession: NSObject {
    private let anchor: ASPresentationAnchor
    private let scope: PasskeyRequestScope
    /// Where the controller's answer goes: converted and handed to the waiting task.
    private var answer: ((Result<any ASAuthorizationCredential, any Error>) -> Void)?
    private var controller: ASAuthorizationController?
    private var started = ContinuousClock.now
    private var cancelledByTask = false

    init(anchor: ASPresentationAnchor, scope: PasskeyRequestScope) {
        self.anchor = anchor
        self.scope = scope
    }

    /// Shows the system sheet for `request`, waits for its answer and converts it with `convert`
    /// on the main actor: the credential (not Sendable) never leaves it.
    func perform<Answer: Sendable>(
        _ request: ASAuthorizationRequest, convert: @escaping (any ASAuthorizationCredential) throws -> Answer
    ) async throws -> Answer {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Answer, any Error>) in
                guard !Task.isCancelled else { return continuation.resume(throwing: PasskeyError.cancelled) }
                answer = { result in continuation.resume(with: result.flatMap { credential in Result { try convert(credential) } }) }
                let controller = ASAuthorizationController(authorizationRequests: [request])
                controller.delegate = self
                controller.presentationContextProvider = self
                self.controller = controller
                started = .now
                switch scope {
                case .thisDeviceOnly: controller.performRequests(options: .preferImmediatelyAvailableCredentials)
                case .anyDevice: controller.performRequests()
                }
            }
        } onCancel: {
            Task { @MainActor in self.cancelByTask() }
        }
    }

    private func cancelByTask() {
        guard let controller else { return }
        cancelledByTask = true
        controller.cancel()
    }

    private func finish(_ result: Result<any ASAuthorizationCredential, any Error>) {
        answer?(result)
        answer = nil
        controller = nil
    }
}

@available(iOS 17, macOS 14, *)
extension AuthorizationSession: ASAuthorizationControllerDelegate {
    func authorizationController(controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization) {
        finish(.success(authorization.credential))
    }

    func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {
        let end = PasskeyRequestEnd(error)
        finish(.failure(PasskeyRequestPolicy.error(for: end, scope: scope, after: .now - started, taskCancelled: cancelledByTask)))
    }
}

@available(iOS 17, macOS 14, *)
extension AuthorizationSession: ASAuthorizationControllerPresentationContextProviding {
    func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor { anchor }
}

extension PasskeyRequestEnd {
    /// How a controller's error ended the request.
    init(_ error: any Error) {
        guard let error = error as? ASAuthorizationError else {
            self = .failed(error.localizedDescription)
            return
        }
        if #available(iOS 18.0, macOS 15.0, *), error.code == .matchedExcludedCredential {
            self = .matchedExcludedCredential
            return
        }
        switch error.code {
        case .canceled: self = .canceled
        case .notInteractive: self = .notInteractive
        default: self = .failed(error.localizedDescription)
        }
    }
}
#endif
