import Foundation
import RepairMinderModels

/// The second factors a staff user enrolled, and so what login step 3 takes from them
/// (docs/API.md §11.1): the strongest enrolled, never a mailbox once something stronger is there.
struct EnrolledFactors: Sendable {
    let hasAuthenticatorApp: Bool
    let hasPasskeys: Bool
    /// The user's passkeys' credential ids (base64url), where the challenge lists them.
    var passkeyCredentialIds: [String] = []
    /// The shop requires a passkey and the user has one: the app's codes no longer sign in (§13.3).
    var passkeysOnly = false

    init(hasAuthenticatorApp: Bool, hasPasskeys: Bool) {
        self.hasAuthenticatorApp = hasAuthenticatorApp
        self.hasPasskeys = hasPasskeys
    }

    init(hasAuthenticatorApp: Bool, passkeyCredentialIds: [String]) {
        self.init(hasAuthenticatorApp: hasAuthenticatorApp, hasPasskeys: !passkeyCredentialIds.isEmpty)
        self.passkeyCredentialIds = passkeyCredentialIds
    }

    /// Whether step 3 takes the app's codes (TOTP and recovery codes).
    var acceptsAuthenticatorApp: Bool { hasAuthenticatorApp && !passkeysOnly }

    var methods: [TwoFactorMethod] {
        var methods: [TwoFactorMethod] = acceptsAuthenticatorApp ? [.totp, .recoveryCode] : []
        if hasPasskeys { methods.append(.passkey) }
        return methods.isEmpty ? [.email] : methods
    }

    var acceptsEmailedCode: Bool { !hasAuthenticatorApp && !hasPasskeys }

    /// Login step 2's answer when nothing is emailed: where the user's code or passkey is instead.
    var instead: String {
        acceptsAuthenticatorApp ? "Enter the code from your authenticator app" : "Use your passkey to finish signing in"
    }
}

/// Opens a login challenge for a user who passed the first step (a password, or a magic-link
/// code standing in for it) and answers docs/API.md §2.1's shape: shared by login step 1 and
/// magic-link verify, so both name the same methods and bind the same passkey options.
struct SecondFactorChallenge: Sendable {
    let settings: ServerSettings
    let clock: ServerClock
    let challenges: LoginChallengeStore
    let authenticatorApp: AuthenticatorApp
    let passkeys: PasskeyStore
    let relyingParty: WebAuthnRelyingParty
    let accounts: AccountStore

    /// What step 3 takes from `userId`: their enrolled factors, as their shop's policy counts them.
    func factors(ofUser userId: String) async throws -> EnrolledFactors {
        var factors = EnrolledFactors(
            hasAuthenticatorApp: try await authenticatorApp.isEnabled(userId: userId),
            passkeyCredentialIds: try await passkeys.passkeys(ofUser: userId).map(\.credentialId))
        if factors.hasPasskeys, factors.hasAuthenticatorApp {
            factors.passkeysOnly = try await accounts.requiredFactor(ofUser: userId) == .passkey
        }
        return factors
    }

    /// Opens the challenge of `user`, whose enrolled second factors are `factors`, after the
    /// first proof `openedBy` (the password, or a magic-link code standing in for it).
    func open(for user: UserRecord, factors: EnrolledFactors, openedBy: SignInFactor, _ call: RouteCall<some Sendable>) async throws
        -> LoginChallengeResponse
    {
        let challengeToken = RandomToken.base64URL(byteCount: 32)
        let binding = ChallengeBinding(
            tokenHash: SecretHashing.tokenHash(challengeToken), clientIP: call.context.clientIP,
            userAgent: call.request.headers[.userAgent])
        let passkey = factors.hasPasskeys ? WebAuthnRelyingParty.newChallenge() : nil
        _ = try await challenges.open(
            userId: user.id, email: user.email, binding: binding, passkeyChallengeHash: passkey?.hash, openedBy: openedBy,
            now: clock.now(),
            ttl: Double(settings.loginChallengeTTL))
        let summary = LoginUserSummary(
            id: user.id, email: user.email, firstName: user.firstName, lastName: user.lastName, companyId: user.companyId)
        return LoginChallengeResponse(
            userId: user.id, email: user.email, user: summary, methods: factors.methods, challengeToken: challengeToken,
            passkey: passkey.map { relyingParty.requestOptions(challenge: $0.challenge, allowing: factors.passkeyCredentialIds) })
    }
}
