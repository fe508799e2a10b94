import Foundation
import Observation
import RepairMinderModels

/// How the screens name what a shop requires (docs/API.md §13.3).
public enum EnrolmentText {
    /// "an authenticator app or a passkey", "a passkey": the factors `methods` names.
    public static func factors(_ methods: [TwoFactorMethod]) -> String {
        let names = methods.compactMap { method -> String? in
            switch method {
            case .totp: "an authenticator app"
            case .passkey: "a passkey"
            default: nil
            }
        }
        return names.isEmpty ? "an authenticator app or a passkey" : names.joined(separator: " or ")
    }
}

/// The enrolment screen (docs/API.md §13.3): shown instead of the tabs when the session is
/// restricted until the user sets up what their shop requires, and from the grace banner
/// before the deadline. It offers an authenticator app and a passkey as the policy allows, sets
/// one up through `StaffAuth`, and then refreshes the session (`finish()`), which gives full
/// access without signing in again.
///
/// The app: `startAuthenticatorApp()` shows the secret (`authenticatorSetup`), the 6th digit of
/// the app's code (`codeChanged`) enables it and shows the recovery codes once, and `finish()`
/// ("Continue") refreshes. A passkey: `addPasskey()` makes it and refreshes at once.
@MainActor @Observable
public final class EnrolmentViewModel: AsyncForm {
    public var isLoading = false
    public var errorMessage: String?
    /// The authenticator app's pending setup (the secret to type, the `otpauth://` URL to open
    /// or scan); nil until `startAuthenticatorApp()`, and again once the app is enabled.
    public private(set) var authenticatorSetup: TOTPSetupResponse?
    public private(set) var code = ""
    /// The recovery codes of the app just enabled, to show once before `finish()` (kept by
    /// `StaffAuth`, so a screen made anew after a refresh shows them too).
    public var recoveryCodes: [String] { auth.recoveryCodesToAcknowledge }
    /// What the passkey is called ("iPhone"); empty: the server's "Passkey".
    public var passkeyName = ""
    /// The factor is enrolled and the refreshed session has full access: the app moves on (a
    /// restricted session's screen becomes the tabs; the grace banner's sheet closes).
    public private(set) var isFinished = false
    public let auth: StaffAuth

    public init(auth: StaffAuth) {
        self.auth = auth
    }

    /// The factors the shop accepts, as the last sign-in or refresh said.
    public var methods: [TwoFactorMethod] { auth.enrolment.methods }
    /// Whether the shop accepts an authenticator app.
    public var offersAuthenticatorApp: Bool { methods.contains(.totp) }
    /// Whether the shop accepts a passkey and this device can make one.
    public var offersPasskey: Bool { methods.contains(.passkey) && auth.passkeyAuthenticator != nil }
    /// The shop accepts only a passkey, and this device cannot make one: the user adds one
    /// elsewhere (a browser, another device) and comes back to "Check again" (`finish()`).
    public var needsAnotherDevice: Bool { !offersAuthenticatorApp && !offersPasskey }

    /// What the screen says first.
    public var explanation: String {
        let factors = EnrolmentText.factors(methods)
        if auth.enrolment.isRestricted { return "Your shop requires \(factors). Set one up to continue." }
        return "Your shop requires \(factors). Set one up now, before your deadline."
    }

    /// Asks the server for a new authenticator-app secret to show.
    public func startAuthenticatorApp() async {
        await perform { authenticatorSetup = try await auth.startAuthenticatorApp() }
    }

    /// Updates the app's code as typed; the 6th digit enables the app and shows the recovery
    /// codes. A wrong code clears the field.
    public func codeChanged(_ input: String) async {
        code = FormValidation.digits(input)
        guard code.count == 6, authenticatorSetup != nil else { return }
        let confirmed = await perform { _ = try await auth.confirmAuthenticatorApp(code: code) }
        code = ""
        if confirmed { authenticatorSetup = nil }
    }

    /// Makes a passkey on this device, enrols it, and refreshes the session.
    public func addPasskey() async {
        let name = passkeyName.trimmingCharacters(in: .whitespacesAndNewlines)
        let added = await perform { try await auth.addPasskey(name: name.isEmpty ? nil : name) }
        if added { await finish() }
    }

    /// Refreshes the session to see where it stands: after an enrolment here ("Continue" under
    /// the recovery codes) or elsewhere ("Check again"), full access at once. Still short of
    /// the requirement: the screen says so.
    public func finish() async {
        let refreshed = await perform { try await auth.refreshEnrolment() }
        guard refreshed else { return }
        if auth.enrolment.requirement == nil {
            auth.acknowledgeRecoveryCodes()
            isFinished = true
        } else {
            errorMessage = "Your shop still requires \(EnrolmentText.factors(methods)). Set one up first."
        }
    }

    /// Signs out instead (the person cannot enrol now).
    public func signOut() async {
        await auth.logout()
    }
}

/// The banner over the tabs during the grace period (docs/API.md §13.3): the session has full
/// access, and the shop requires a factor by a deadline. Its text is nil when there is nothing
/// to say (no requirement, or a restricted session, which sees the enrolment screen instead).
@MainActor @Observable
public final class EnrolmentBannerViewModel {
    public let auth: StaffAuth
    private let locale: Locale
    private let timeZone: TimeZone

    /// - Parameters: `locale` and `timeZone` write the deadline (the device's by default).
    public init(auth: StaffAuth, locale: Locale = .current, timeZone: TimeZone = .current) {
        self.auth = auth
        self.locale = locale
        self.timeZone = timeZone
    }

    /// Whether the banner shows.
    public var isShown: Bool { auth.enrolment.isInGracePeriod }

    /// "Your shop requires an authenticator app or a passkey by 3 Dec 2026 at 10:00."
    public var text: String? {
        let status = auth.enrolment
        guard status.isInGracePeriod else { return nil }
        let factors = EnrolmentText.factors(status.methods)
        guard let deadline = status.deadline else { return "Your shop requires \(factors). Set one up soon." }
        let style = Date.FormatStyle(date: .abbreviated, time: .shortened, locale: locale, timeZone: timeZone)
        return "Your shop requires \(factors) by \(deadline.formatted(style))."
    }
}
