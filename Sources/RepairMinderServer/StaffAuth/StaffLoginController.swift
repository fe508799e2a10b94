import Foundation
import RepairMinderModels

/// Staff sign-in with a password and a second factor: docs/API.md §2.1–§2.3.
struct StaffLoginController {
    let settings: ServerSettings
    let clock: ServerClock
    let accounts: AccountStore
    let hasher: PasswordHasher
    let limits: AbuseLimits
    let challenges: LoginChallengeStore
    let hashing: SecretHashing
    let mail: MailQueue
    let authenticatorApp: AuthenticatorApp
    let issuer: TokenIssuer

    /// The scope of login-challenge code hashes.
    private static let challengeCodeScope = "2fa"

    func mount(on routes: RouteMounter) {
        routes.on(Routes.StaffAuth.login, use: login)
        routes.on(Routes.StaffAuth.requestTwoFactorCode, use: requestTwoFactorCode)
        routes.on(Routes.StaffAuth.verifyTwoFactorCode, use: verifyTwoFactorCode)
    }

    // MARK: Login step 1 (§2.1)

    @Sendable func login(_ call: RouteCall<LoginRequest>) async throws -> LoginChallengeResponse {
        let email = call.body.email
        try await limits.admitLoginAttempt(for: email)
        let user = try await accounts.user(email: email)
        // Always run bcrypt, against a dummy hash for unknown emails or password-less users, so
        // response time does not reveal which accounts exist.
        let passwordMatches = try await hasher.verify(call.body.password, against: user?.passwordHash)
        guard let user else { throw APIError.invalidCredentials }
        guard user.passwordHash != nil else { throw APIError.noPasswordSet }
        guard passwordMatches else { throw APIError.invalidCredentials }
        try await limits.clearLoginFailures(for: email)
        guard user.isActive != 0 else { throw APIError.accountDeactivated }
        guard user.archived == 0 else { throw APIError.accountArchived }
        _ = try await challenges.open(
            userId: user.id, email: user.email, now: clock.now(), ttl: Double(settings.loginChallengeTTL))
        let summary = LoginUserSummary(
            id: user.id, email: user.email, firstName: user.firstName, lastName: user.lastName, companyId: user.companyId)
        let methods: [TwoFactorMethod] = try await authenticatorApp.isEnabled(userId: user.id) ? [.email, .totp] : [.email]
        return LoginChallengeResponse(userId: user.id, email: user.email, user: summary, twoFactorMethods: methods)
    }

    // MARK: Login step 2 (§2.2)

    @Sendable func requestTwoFactorCode(_ call: RouteCall<TwoFactorCodeRequest>) async throws -> MessageResponse {
        let now = clock.now()
        guard let challenge = try await challenges.openChallenge(userId: call.body.userId, now: now),
            challenge.email == call.body.email
        else { throw APIError.loginChallengeExpired }
        let interval = Double(settings.codeResendInterval)
        if let last = challenge.lastCodeSentAt, now - last < interval {
            throw APIError.rateLimited(retryAfter: last + interval - now)
        }
        try await limits.admitCodeEmail(to: challenge.email)
        let code = RandomToken.digits(6)
        let email = CodeEmail.twoFactor(to: challenge.email, code: code, validMinutes: settings.codeTTL / 60, now: now)
        // Conditional on the spacing again: of two concurrent requests only one replaces the code.
        if let wait = try await challenges.storeCode(
            challengeId: challenge.id, codeHash: hashing.codeHash(code, scope: Self.challengeCodeScope),
            now: now, codeTTL: Double(settings.codeTTL), minInterval: interval, mail: try mail.seal(email, now: now))
        {
            throw APIError.rateLimited(retryAfter: wait)
        }
        mail.deliverSoon()
        return MessageResponse(message: "2FA code sent to your email")
    }

    // MARK: Login step 3 (§2.3)

    @Sendable func verifyTwoFactorCode(_ call: RouteCall<TwoFactorVerifyRequest>) async throws -> StaffTokenResponse {
        let code = call.body.code
        let now = clock.now()
        guard let challenge = try await challenges.openChallenge(userId: call.body.userId, now: now) else {
            throw APIError.loginChallengeExpired
        }
        let emailed = hashing.codeHash(code, scope: Self.challengeCodeScope)
        let isEmailedCode = challenge.codeHash.map { SecretHashing.constantTimeEquals($0, emailed) } ?? false
        if isEmailedCode, let expiry = challenge.codeExpiresAt, expiry <= now { throw APIError.verificationCodeExpired }
        // The emailed code, or else the authenticator app (a TOTP or recovery code): of
        // concurrent requests, only the one that closes the challenge signs in. An authenticator
        // factor is spent only after that, so a request that loses the race (to a right code, or
        // to wrong ones using up the attempts) leaves it unused.
        let completed: Bool
        if isEmailedCode {
            completed = try await challenges.complete(challengeId: challenge.id, codeHash: emailed, now: now)
        } else if let factor = try await countingFailure(challenge, now: now, {
            try await authenticatorApp.check(code, userId: challenge.userId, now: now)
        }) {
            guard try await challenges.close(challengeId: challenge.id, now: now) else { throw APIError.loginChallengeExpired }
            guard try await authenticatorApp.use(factor, userId: challenge.userId, now: now) else {
                // Used up meanwhile by another sign-in (a replayed TOTP code): this challenge is over.
                throw APIError.invalidVerificationCode
            }
            completed = true
        } else {
            completed = false
        }
        guard completed else {
            let used = try await challenges.recordFailure(
                challengeId: challenge.id, maxAttempts: settings.maxCodeAttempts, now: now)
            guard let used else { throw APIError.loginChallengeExpired }
            throw used >= settings.maxCodeAttempts ? APIError.tooManyAttempts : APIError.invalidVerificationCode
        }
        return try await issuer.signIn(userId: challenge.userId, isMobile: call.isMobile, method: .password)
    }

    /// Runs a check of a submitted code; if it fails with an error (a secret that does not
    /// decrypt, a query that fails), the try still counts against the challenge before the
    /// error answers 500, so errors cannot become unlimited guesses.
    private func countingFailure<T: Sendable>(
        _ challenge: LoginChallenge, now: Double, _ check: () async throws -> T
    ) async throws -> T {
        do {
            return try await check()
        } catch {
            _ = try? await challenges.recordFailure(challengeId: challenge.id, maxAttempts: settings.maxCodeAttempts, now: now)
            throw error
        }
    }
}
