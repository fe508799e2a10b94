import Foundation
import Observation

/// The 2FA screen: a 6-digit emailed or authenticator code (submitted at the 6th digit), or an
/// 8-character recovery code; "resend code" with a cooldown.
@MainActor @Observable
public final class TwoFactorViewModel: AsyncForm {
    public var isLoading = false
    public var errorMessage: String?
    /// Typing a recovery code instead of a 6-digit code.
    public var usesRecoveryCode = false
    public private(set) var code = ""
    /// Seconds until "resend" is allowed again.
    public private(set) var resendCooldown = 0
    public let auth: StaffAuth

    public init(auth: StaffAuth) {
        self.auth = auth
    }

    /// Whether the server offered the authenticator app for this login.
    public var offersAuthenticator: Bool {
        if case .awaitingSecondFactor(let challenge) = auth.state { return (challenge.twoFactorMethods ?? []).contains(.totp) }
        return false
    }

    public var canSubmit: Bool { (usesRecoveryCode ? code.count == 8 : code.count == 6) && !isLoading }

    /// Updates the code as typed; a complete 6-digit code submits itself.
    public func codeChanged(_ input: String) async {
        code = usesRecoveryCode ? FormValidation.recoveryCode(input) : FormValidation.digits(input)
        if !usesRecoveryCode, code.count == 6 { await submit() }
    }

    public func submit() async {
        guard canSubmit else { return }
        let succeeded = await perform { try await auth.verifySecondFactor(code: code) }
        if !succeeded { code = "" }
    }

    public func resend() async {
        guard resendCooldown == 0 else { return }
        if await perform({ try await auth.requestEmailCode() }) { resendCooldown = 30 }
    }

    /// Called once a second by the view while the cooldown runs.
    public func tick() { resendCooldown = max(0, resendCooldown - 1) }
}

/// A screen where a 6-digit emailed code is typed and submitted at the 6th digit.
@MainActor
public protocol EmailCodeEntry: AsyncForm, Observable {
    var code: String { get }
    /// Updates the code as typed; a complete one is verified.
    func codeChanged(_ input: String) async
    /// Abandons the sign-in in progress.
    func cancel()
}

/// The staff magic-link code screen.
@MainActor @Observable
public final class MagicCodeViewModel: EmailCodeEntry {
    public var isLoading = false
    public var errorMessage: String?
    public private(set) var code = ""
    public let auth: StaffAuth

    public init(auth: StaffAuth) {
        self.auth = auth
    }

    public func codeChanged(_ input: String) async {
        code = FormValidation.digits(input)
        guard code.count == 6 else { return }
        if !(await perform { try await auth.verifyMagicCode(code) }) { code = "" }
    }

    public func cancel() { auth.cancel() }
}

/// The customer's code screen; may lead to company selection.
@MainActor @Observable
public final class CustomerCodeViewModel: EmailCodeEntry {
    public var isLoading = false
    public var errorMessage: String?
    public private(set) var code = ""
    public let auth: CustomerAuth

    public init(auth: CustomerAuth) {
        self.auth = auth
    }

    public func codeChanged(_ input: String) async {
        code = FormValidation.digits(input)
        guard code.count == 6 else { return }
        if !(await perform { try await auth.verify(code: code) }) { code = "" }
    }

    public func cancel() { auth.cancel() }
}
