import Foundation
import RepairMinderModels

/// The signed-in user's authenticator app (TOTP, docs/API.md §2.10): set it up in two steps,
/// the secret and then a code from the app. Both are allowed in a session restricted to
/// enrolment (§13.3); `refreshEnrolment()` afterwards lifts the restriction.
extension StaffAuth {
    /// Starts setting up an authenticator app: the new secret, and the `otpauth://` URL the app
    /// scans (as a QR code) or the secret to type. Asking again replaces the pending secret;
    /// an app already enabled is `APIError.server` with `TOTP_ALREADY_ENABLED`.
    public func startAuthenticatorApp() async throws -> TOTPSetupResponse {
        try await api.send(Routes.staffAuth.totpSetup)
    }

    /// Finishes the setup with a current 6-digit code from the app; the 10 recovery codes, to
    /// show once. A wrong code is `APIError.server` with `INVALID_CODE`.
    /// They are also kept in `recoveryCodesToAcknowledge` until `acknowledgeRecoveryCodes()`.
    @discardableResult
    public func confirmAuthenticatorApp(code: String) async throws -> [String] {
        let codes = try await api.send(
            Routes.staffAuth.totpVerifySetup, TOTPCodeRequest(code: code.trimmingCharacters(in: .whitespaces))
        ).recoveryCodes
        recoveryCodesToAcknowledge = codes
        return codes
    }

    /// The person kept the recovery codes: the app may leave the enrolment screen.
    public func acknowledgeRecoveryCodes() {
        recoveryCodesToAcknowledge = []
    }

    /// Turns the authenticator app off with a current 6-digit code from it, or one of the
    /// recovery codes (8 characters; spaces and dashes are ignored, `FormValidation.recoveryCode`).
    /// A wrong code is `APIError.server` with `INVALID_CODE`; no app enabled, `TOTP_NOT_ENABLED`.
    /// Turning it off spends the remaining recovery codes with it.
    public func disableAuthenticatorApp(code: String) async throws {
        let trimmed = code.trimmingCharacters(in: .whitespaces)
        let sent = trimmed.count == 6 && trimmed.allSatisfy(\.isNumber) ? trimmed : FormValidation.recoveryCode(trimmed)
        _ = try await api.send(Routes.staffAuth.totpDisable, TOTPCodeRequest(code: sent))
        recoveryCodesToAcknowledge = []
    }

    /// How many unused recovery codes are left (0 without an authenticator app): when few are,
    /// suggest turning the app off and on again for a new set.
    public func recoveryCodesRemaining() async throws -> Int {
        let status = try await authenticatorAppStatus()
        return status.enabled ? status.recoveryCodesRemaining : 0
    }

    /// Whether the app is enabled, and how many recovery codes are left.
    public func authenticatorAppStatus() async throws -> TOTPStatusResponse {
        try await api.send(Routes.staffAuth.totpStatus)
    }
}
