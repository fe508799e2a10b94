#if canImport(AuthenticationServices)
import AuthenticationServices
import RepairMinderKit

/// One `ASAuthorizationController` run: its delegate, kept alive until the controller answers,
/// which converts the credential where it arrives (the main actor). Cancelling the Swift task
/// cancels the controller, whose sheet then closes.
@available(iOS 17, macOS 14, *)
@MainActor
final class AuthorizationSession<Answer: Sendable>: NSObject {
    private let anchor: ASPresentationAnchor
    private let scope: PasskeyRequestScope
    private let convert: (any ASAuthorizationCredential) throws -> Answer
    private var continuation: CheckedContinuation<Answer, any Error>?
    private var controller: ASAuthorizationController?
    private var started = ContinuousClock.now
    private var cancelledByTask = false

    init(anchor: ASPresentationAnchor, scope: PasskeyRequestScope, convert: @escaping (any ASAuthorizationCredential) throws -> Answer) {
        self.anchor = anchor
        self.scope = scope
        self.convert = convert
    }

    /// Shows the system sheet for `request` and waits for its answer.
    func perform(_ request: ASAuthorizationRequest) async throws -> Answer {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard !Task.isCancelled else { return continuation.resume(throwing: PasskeyError.cancelled) }
                self.continuation = continuation
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

    private func finish(_ result: Result<Answer, any Error>) {
        continuation?.resume(with: result)
        continuation = nil
        controller = nil
    }
}

@available(iOS 17, macOS 14, *)
extension AuthorizationSession: ASAuthorizationControllerDelegate {
    func authorizationController(controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization) {
        finish(Result { try convert(authorization.credential) })
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
