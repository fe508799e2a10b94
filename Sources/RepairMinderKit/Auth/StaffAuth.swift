import Foundation
import Observation
import RepairMinderModels

/// The staff sign-in state machine (docs/API.md §2): password → second factor → signed in, or
/// magic link → code → signed in; session restore at launch; logout.
@MainActor @Observable
public final class StaffAuth {
    /// Where sign-in stands.
    public enum State: Equatable, Sendable {
        case signedOut
        /// The password was right; a second factor is needed for this login challenge.
        case awaitingSecondFactor(LoginChallengeResponse)
        /// A magic-link code was sent to this email.
        case awaitingMagicCode(email: String)
        case signedIn(StaffMeResponse)
        /// Credentials are stored but the server could not be reached to confirm them.
        case offline
    }

    public private(set) var state: State = .signedOut
    public let api: APIClient
    /// A device token this session registered, unregistered at logout.
    public var registeredDeviceToken: String?

    public init(api: APIClient) {
        self.api = api
    }

    /// At launch: signed in if stored credentials still work, `offline` if the server cannot
    /// be reached (the session is kept), signed out otherwise.
    public func restoreSession() async {
        guard (try? api.store.staffCredentials()) != nil else {
            state = .signedOut
            return
        }
        do {
            state = .signedIn(try await api.send(Routes.StaffAuth.me))
        } catch APIError.network {
            state = .offline
        } catch {
            state = .signedOut
        }
    }

    /// Login step 1. Emails are trimmed; the server compares them case-insensitively.
    public func login(email: String, password: String) async throws {
        let challenge = try await api.send(
            Routes.StaffAuth.login,
            LoginRequest(email: email.trimmingCharacters(in: .whitespacesAndNewlines), password: password))
        state = .awaitingSecondFactor(challenge)
    }

    /// Login step 2: email a code (also "resend code").
    public func requestEmailCode() async throws {
        guard case .awaitingSecondFactor(let challenge) = state else { throw StaffAuthError.noLoginInProgress }
        _ = try await api.send(
            Routes.StaffAuth.requestTwoFactorCode,
            TwoFactorCodeRequest(userId: challenge.userId, email: challenge.email, challengeToken: challenge.challengeToken))
    }

    /// Login step 3 with an emailed code, an authenticator code or a recovery code.
    public func verifySecondFactor(code: String) async throws {
        guard case .awaitingSecondFactor(let challenge) = state else { throw StaffAuthError.noLoginInProgress }
        let tokens = try await api.send(
            Routes.StaffAuth.verifyTwoFactorCode,
            TwoFactorVerifyRequest(
                userId: challenge.userId, code: code.trimmingCharacters(in: .whitespaces), challengeToken: challenge.challengeToken))
        try await finishSignIn(tokens)
    }

    public func requestMagicLink(email: String) async throws {
        let trimmed = email.trimmingCharacters(in: .whitespacesAndNewlines)
        _ = try await api.send(Routes.StaffAuth.requestMagicLink, MagicLinkRequest(email: trimmed))
        state = .awaitingMagicCode(email: trimmed)
    }

    public func verifyMagicCode(_ code: String) async throws {
        guard case .awaitingMagicCode(let email) = state else { throw StaffAuthError.noLoginInProgress }
        let tokens = try await api.send(Routes.StaffAuth.verifyMagicLink, MagicLinkVerifyRequest(email: email, code: code))
        try await finishSignIn(tokens)
    }

    /// Abandons a login in progress.
    public func cancel() {
        if case .signedIn = state { return }
        state = .signedOut
    }

    /// Signs out: tells the server (best effort), unregisters this device's push token, and
    /// always clears local state, even when the server cannot be reached.
    public func logout() async {
        if let token = registeredDeviceToken {
            _ = try? await api.send(Routes.Push.unregisterDeviceToken, DeviceTokenRemoval(deviceToken: token))
        }
        _ = try? await api.send(Routes.StaffAuth.logout)
        registeredDeviceToken = nil
        try? await api.signedOut(.staff, reason: .userInitiated)
        state = .signedOut
    }

    private func finishSignIn(_ tokens: StaffTokenResponse) async throws {
        try await api.signedIn(staff: tokens)
        state = .signedIn(StaffMeResponse(user: tokens.user, company: tokens.company, hasPassword: true))
        // The token response does not say whether a password is set; /me does.
        if let me = try? await api.send(Routes.StaffAuth.me) { state = .signedIn(me) }
    }
}

/// A step was called out of order.
public enum StaffAuthError: Error, Equatable {
    case noLoginInProgress
}
