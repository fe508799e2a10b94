import Foundation
import Observation
import RepairMinderModels

/// Staff login: email and password, or email only for a magic link (seeds 000, 003).
@MainActor @Observable
public final class StaffLoginViewModel: AsyncForm {
    public enum Mode: Sendable { case password, magicLink }

    public var email = ""
    public var password = ""
    public var mode = Mode.password
    public var isLoading = false
    public var errorMessage: String?
    public let auth: StaffAuth

    public init(auth: StaffAuth) {
        self.auth = auth
    }

    public var canSubmit: Bool {
        FormValidation.isValidEmail(email) && (mode == .magicLink || !password.isEmpty) && !isLoading
    }

    /// Password: login step 1, then the emailed code is requested unless an authenticator app
    /// is enrolled (then the person chooses). Magic link: the code is emailed.
    public func submit() async {
        guard canSubmit else { return }
        await perform {
            switch mode {
            case .password:
                try await auth.login(email: email, password: password)
                if case .awaitingSecondFactor(let challenge) = auth.state, challenge.acceptsEmailedCode {
                    try await auth.requestEmailCode()
                }
                password = ""
            case .magicLink:
                try await auth.requestMagicLink(email: email)
            }
        }
    }

    /// Whether "Sign in with a passkey" is offered: this device has an authenticator.
    public var offersPasskey: Bool { auth.passkeyAuthenticator != nil }

    /// Signs in with a passkey alone; no email or password needed. A device with no passkey for
    /// the site leaves the password form up, saying so.
    public func signInWithPasskey() async {
        guard !isLoading else { return }
        if await perform({ try await auth.signInWithPasskey() }) { password = "" }
        if errorMessage == PasskeyError.noPasskeyOnDevice.message { mode = .password }
    }
}
