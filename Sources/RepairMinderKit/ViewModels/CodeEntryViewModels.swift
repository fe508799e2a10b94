import Foundation
import Observation
import RepairMinderModels

/// "Resend code" and its cooldown, the same on every code screen: a resend is allowed once the
/// server's spacing between code emails (30 s, docs/API.md §7) has passed.
@MainActor
public protocol ResendableCode: AsyncForm {
    /// Where the code was sent, shown on the screen ("We emailed a code to …").
    var email: String? { get }
    /// Seconds until "resend" is allowed again.
    var resendCooldown: Int { get set }
    /// Asks the server for a new code.
    func sendAgain() async throws
}

extension ResendableCode {
    /// The seconds between two code emails to one address.
    public static var resendInterval: Int { 30 }

    /// Emails a new code, then waits out the cooldown; a 429's `Retry-After` sets the cooldown.
    public func resend() async {
        guard resendCooldown == 0 else { return }
        var wait: Int?
        let sent = await perform {
            do { try await sendAgain() } catch APIError.rateLimited(let retryAfter, let message) {
                wait = retryAfter
                throw APIError.rateLimited(retryAfter: retryAfter, message: message)
            }
        }
        if sent { resendCooldown = Self.resendInterval } else if let wait { resendCooldown = wait }
    }

    /// Called once a second by the view while the cooldown runs.
    public func tick() { resendCooldown = max(0, resendCooldown - 1) }
}

/// The 2FA screen: a 6-digit emailed or authenticator code (submitted at the 6th digit), or an
/// 8-character recovery code; "resend code" with a cooldown.
@MainActor @Observable
public final class TwoFactorViewModel: ResendableCode {
    public var isLoading = false
    public var errorMessage: String?
    /// Typing a recovery code instead of a 6-digit code.
    public var usesRecoveryCode = false
    public private(set) var code = ""
    public var resendCooldown = 0
    public let auth: StaffAuth

    /// A code was just emailed (step 2 runs before this screen), so "resend" waits out the
    /// server's spacing first instead of inviting a 429 (issue 28); nothing to wait for when
    /// nothing was emailed.
    public init(auth: StaffAuth) {
        self.auth = auth
        if offersEmailedCode { resendCooldown = Self.resendInterval }
    }

    /// The second factors this login takes (docs/API.md §11.1).
    public var methods: [TwoFactorMethod] {
        if case .awaitingSecondFactor(let challenge) = auth.state { return challenge.methods ?? [.email] }
        return []
    }

    /// Whether the server offered the authenticator app for this login.
    public var offersAuthenticator: Bool { methods.contains(.totp) }
    /// Whether a code was (or can be) emailed: only for a user with nothing stronger enrolled.
    public var offersEmailedCode: Bool { methods.contains(.email) }
    /// Whether the user can answer with a passkey on this device.
    public var offersPasskey: Bool { methods.contains(.passkey) && auth.passkeyAuthenticator != nil }

    /// Answers with a passkey instead of a code.
    public func usePasskey() async {
        _ = await perform { try await auth.verifySecondFactorWithPasskey() }
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

    public var email: String? {
        if case .awaitingSecondFactor(let challenge) = auth.state { return challenge.email }
        return nil
    }

    public func sendAgain() async throws { try await auth.requestEmailCode() }
}

/// A screen where a 6-digit emailed code is typed and submitted at the 6th digit, with the
/// address it went to and "resend".
@MainActor
public protocol EmailCodeEntry: ResendableCode, Observable {
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
    /// The first code was just sent: no resend before the server's spacing.
    public var resendCooldown = MagicCodeViewModel.resendInterval
    public let auth: StaffAuth

    public init(auth: StaffAuth) {
        self.auth = auth
    }

    public func codeChanged(_ input: String) async {
        code = FormValidation.digits(input)
        guard code.count == 6 else { return }
        if !(await perform { try await auth.verifyMagicCode(code) }) { code = "" }
    }

    public var email: String? {
        if case .awaitingMagicCode(let email) = auth.state { return email }
        return nil
    }

    public func sendAgain() async throws {
        guard let email else { throw SignInFlowError.noLoginInProgress }
        try await auth.requestMagicLink(email: email)
    }

    public func cancel() { auth.cancel() }
}

/// The customer's code screen; may lead to company selection.
@MainActor @Observable
public final class CustomerCodeViewModel: EmailCodeEntry {
    public var isLoading = false
    public var errorMessage: String?
    public private(set) var code = ""
    /// The first code was just sent: no resend before the server's spacing.
    public var resendCooldown = CustomerCodeViewModel.resendInterval
    public let auth: CustomerAuth

    public init(auth: CustomerAuth) {
        self.auth = auth
    }

    public func codeChanged(_ input: String) async {
        code = FormValidation.digits(input)
        guard code.count == 6 else { return }
        if !(await perform { try await auth.verify(code: code) }) { code = "" }
    }

    public var email: String? {
        switch auth.state {
        case .codeSent(let email): email
        case .selectingCompany(let selection): selection.email
        default: nil
        }
    }

    public func sendAgain() async throws {
        guard let email else { throw SignInFlowError.noLoginInProgress }
        try await auth.requestCode(email: email)
    }

    public func cancel() { auth.cancel() }
}
