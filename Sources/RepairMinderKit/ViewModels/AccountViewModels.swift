import Foundation
import Observation
import RepairMinderModels

extension FormValidation {
    /// What is wrong with a new password by the rules a client can check (`PasswordRules`,
    /// docs/API.md §9); nil when those pass. The server also refuses common passwords, with
    /// its own message.
    public static func passwordProblem(_ password: String, email: String = "") -> String? {
        PasswordRules.problem(password, email: email)
    }
}

/// The "register a shop" screen: the shop and its admin, then the emailed code, which signs
/// in (the app then shows the pending-approval screen).
@MainActor @Observable
public final class RegistrationViewModel: AsyncForm {
    public var companyName = ""
    public var firstName = ""
    public var lastName = ""
    public var email = ""
    public var password = ""
    public var isLoading = false
    public var errorMessage: String?
    /// The address the code was sent to, once the details were accepted.
    public private(set) var codeSentTo: String?
    public private(set) var code = ""
    public let auth: StaffAuth

    public init(auth: StaffAuth) {
        self.auth = auth
    }

    /// The password rule a person should see while typing, if one is broken.
    public var passwordHint: String? { password.isEmpty ? nil : FormValidation.passwordProblem(password, email: email) }

    public var canSubmit: Bool {
        let filled = [companyName, firstName, lastName].allSatisfy { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        return filled && FormValidation.isValidEmail(email) && FormValidation.passwordProblem(password, email: email) == nil && !isLoading
    }

    /// Sends the details; a code is emailed.
    public func submit() async {
        guard canSubmit else { return }
        await perform {
            codeSentTo = try await auth.register(
                companyName: companyName, firstName: firstName, lastName: lastName, email: email, password: password)
        }
    }

    /// Updates the code as typed; the 6th digit verifies it.
    public func codeChanged(_ input: String) async {
        code = FormValidation.digits(input)
        guard code.count == 6, let email = codeSentTo else { return }
        let succeeded = await perform { try await auth.verifyRegistration(email: email, code: code) }
        if succeeded { password = "" } else { code = "" }
    }

    /// Back to the details (a typo in the email, say).
    public func editDetails() {
        codeSentTo = nil
        code = ""
    }
}

/// The "forgot password" screen: the email, then the emailed code and a new password.
@MainActor @Observable
public final class ForgotPasswordViewModel: AsyncForm {
    public var email = ""
    public var code = ""
    public var newPassword = ""
    public var isLoading = false
    public var errorMessage: String?
    /// Whether the code was requested (the code and new password fields show).
    public private(set) var codeRequested = false
    /// Whether the password was reset: the screen says so and leads back to sign-in.
    public private(set) var isDone = false
    public let auth: StaffAuth

    public init(auth: StaffAuth) {
        self.auth = auth
    }

    public var passwordHint: String? { newPassword.isEmpty ? nil : FormValidation.passwordProblem(newPassword, email: email) }

    public var canRequest: Bool { FormValidation.isValidEmail(email) && !isLoading }

    public var canReset: Bool {
        codeRequested && FormValidation.digits(code).count == 6
            && FormValidation.passwordProblem(newPassword, email: email) == nil && !isLoading
    }

    /// Emails a reset code (the answer is the same whether or not the address has an account).
    public func requestCode() async {
        guard canRequest else { return }
        if await perform({ try await auth.requestPasswordReset(email: email) }) { codeRequested = true }
    }

    public func reset() async {
        guard canReset else { return }
        if await perform({ try await auth.resetPassword(email: email, code: FormValidation.digits(code), newPassword: newPassword) }) {
            isDone = true
            newPassword = ""
        }
    }
}

/// Settings → "Change password" (or "Set a password" for an account without one).
@MainActor @Observable
public final class ChangePasswordViewModel: AsyncForm {
    public var currentPassword = ""
    public var newPassword = ""
    public var confirmation = ""
    public var isLoading = false
    public var errorMessage: String?
    /// Shown after a success: other devices were signed out.
    public private(set) var confirmationMessage: String?
    public let auth: StaffAuth

    public init(auth: StaffAuth) {
        self.auth = auth
    }

    /// Whether the account has a password (then the current one is asked for).
    public var hasPassword: Bool {
        if case .signedIn(let me) = auth.state { return me.hasPassword }
        return true
    }

    private var email: String {
        if case .signedIn(let me) = auth.state { return me.user.email }
        return ""
    }

    public var passwordHint: String? {
        if newPassword.isEmpty { return nil }
        if let problem = FormValidation.passwordProblem(newPassword, email: email) { return problem }
        return !confirmation.isEmpty && confirmation != newPassword ? "The two passwords differ" : nil
    }

    public var canSubmit: Bool {
        (!hasPassword || !currentPassword.isEmpty) && FormValidation.passwordProblem(newPassword, email: email) == nil
            && newPassword == confirmation && !isLoading
    }

    public func submit() async {
        guard canSubmit else { return }
        let hadPassword = hasPassword
        confirmationMessage = nil
        if await perform({ try await auth.changePassword(current: hadPassword ? currentPassword : nil, new: newPassword) }) {
            currentPassword = ""
            newPassword = ""
            confirmation = ""
            confirmationMessage = hadPassword ? "Password changed. Your other devices were signed out." : "Password set."
        }
    }
}

/// Settings → "Delete account" (App Review's guideline 5.1.1(v), docs/API.md §9.5), for staff
/// and customers: the password when the account has one, a typed confirmation, and, for a
/// shop's only member, the shop's closing too.
@MainActor @Observable
public final class DeleteAccountViewModel: AsyncForm {
    public var password = ""
    /// The person types DELETE, so a stray tap deletes nothing.
    public var confirmation = ""
    public var isLoading = false
    public var errorMessage: String?
    /// Set when the server answered that the shop closes with the account: the screen says so
    /// and the next submit confirms it.
    public private(set) var mustCloseShop = false
    /// Set when the sign-in is too old to stand for a password: the screen offers to sign out.
    public private(set) var mustSignInAgain = false
    private let staff: StaffAuth?
    private let customer: CustomerAuth?

    public convenience init(staff: StaffAuth) { self.init(staff: staff, customer: nil) }
    public convenience init(customer: CustomerAuth) { self.init(staff: nil, customer: customer) }

    /// For whichever of the two is signed in (Settings holds one).
    init(staff: StaffAuth?, customer: CustomerAuth?) {
        self.staff = staff
        self.customer = customer
    }

    /// The word typed to confirm.
    public static let confirmationWord = "DELETE"

    /// Whether the password is asked for (a staff account that has one).
    public var hasPassword: Bool {
        if case .signedIn(let me) = staff?.state { return me.hasPassword }
        return false
    }

    public var canSubmit: Bool {
        (!hasPassword || !password.isEmpty) && confirmation.trimmingCharacters(in: .whitespaces) == Self.confirmationWord && !isLoading
    }

    /// Deletes the account; the app then shows sign-in with the notice "Your account has been deleted."
    public func submit() async {
        guard canSubmit else { return }
        let (closeShop, password) = (mustCloseShop, hasPassword ? self.password : nil)
        await perform {
            do {
                if let staff {
                    try await staff.deleteAccount(password: password, closeShop: closeShop)
                } else {
                    try await customer?.deleteAccount()
                }
            } catch let error as APIError {
                mustCloseShop = error.code == .shopCloseRequired
                mustSignInAgain = error.code == .reauthenticationRequired
                throw error
            }
        }
    }

    /// After `mustSignInAgain`: signs out, so the person signs in again and comes back.
    public func signInAgain() async {
        if let staff { await staff.logout() } else { await customer?.logout() }
    }
}

/// Settings → "Signed-in devices": every session of the account, this one marked; sign one or
/// all the others out.
@MainActor @Observable
public final class SignedInDevicesViewModel: AsyncForm {
    public private(set) var sessions: [SessionInfo] = []
    public var isLoading = false
    public var errorMessage: String?
    public let auth: StaffAuth

    public init(auth: StaffAuth) {
        self.auth = auth
    }

    public var hasOtherDevices: Bool { sessions.contains { !$0.current } }

    public func load() async {
        await perform { sessions = try await auth.sessions() }
    }

    public func signOut(_ session: SessionInfo) async {
        guard !session.current else { return }
        await perform {
            try await auth.revokeSession(session.id)
            sessions = try await auth.sessions()
        }
    }

    public func signOutOtherDevices() async {
        await perform {
            try await auth.signOutOtherDevices()
            sessions = try await auth.sessions()
        }
    }
}

/// Settings → "Passkeys": the account's passkeys; add one made on this device, remove one.
@MainActor @Observable
public final class PasskeysViewModel: AsyncForm {
    public private(set) var passkeys: [Passkey] = []
    public var isLoading = false
    public var errorMessage: String?
    /// What the next passkey is called ("iPhone").
    public var newName = ""
    public let auth: StaffAuth

    public init(auth: StaffAuth) {
        self.auth = auth
    }

    /// Whether this device can make a passkey.
    public var canAdd: Bool { auth.passkeyAuthenticator != nil && !isLoading }

    public func load() async {
        await perform { passkeys = try await auth.passkeys() }
    }

    public func add() async {
        let name = newName.trimmingCharacters(in: .whitespacesAndNewlines)
        let added = await perform {
            try await auth.addPasskey(name: name.isEmpty ? nil : name)
            passkeys = try await auth.passkeys()
        }
        if added { newName = "" }
    }

    public func remove(_ passkey: Passkey) async {
        await perform {
            try await auth.removePasskey(passkey.id)
            passkeys = try await auth.passkeys()
        }
    }
}
