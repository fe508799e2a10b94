import Foundation
import RepairMinderModels

/// Staff sign-in with a password and a second factor (the strongest enrolled): docs/API.md §2.1–§2.3, §11.1.
struct StaffLoginController {
    let settings: ServerSettings
    let clock: ServerClock
    let accounts: AccountStore
    let hasher: PasswordHasher
    let challenges: LoginChallengeStore
    let hashing: SecretHashing
    let mail: MailQueue
    let authenticatorApp: AuthenticatorApp
    let secondFactor: SecondFactorChallenge
    let passkeys: PasskeyAssertions
    let issuer: TokenIssuer
    /// Writes an upgraded password hash and has this instance's caller cache forget the user.
    let revocation: SessionRevocation
    let policies: SecurityPolicyStore

    /// The scope of login-challenge code hashes.
    private static let challengeCodeScope = "2fa"

    func mount(on routes: RouteMounter) {
        routes.on(Routes.staffAuth.login, use: login)
        routes.on(Routes.staffAuth.requestTwoFactorCode, use: requestTwoFactorCode)
        routes.on(Routes.staffAuth.verifyTwoFactorCode, use: verifyTwoFactorCode)
    }

    // MARK: Login step 1 (§2.1)

    @Sendable func login(_ call: RouteCall<LoginRequest>) async throws -> LoginChallengeResponse {
        let email = call.body.email
        let user = try await accounts.user(email: email)
        // Always run bcrypt, against a dummy hash for unknown emails or password-less users, so
        // response time does not reveal which accounts exist.
        let match = try await hasher.verify(call.body.password, against: user?.passwordHash)
        guard let user else { throw APIError.invalidCredentials }
        guard user.passwordHash != nil else { throw APIError.noPasswordSet }
        guard let match else {
            try await ActivityLog.record(.loginFailed, userId: user.id, device: call.device, at: clock.now(), in: accounts.database)
            throw APIError.invalidCredentials
        }
        try user.checkCanSignIn()
        if let upgraded = match.upgradedHash {
            // Conditional on the hash just checked: a password changed meanwhile stays changed.
            // Best effort: the old hash still verifies, and the next sign-in tries again.
            let now = clock.now()
            do {
                try await revocation.transaction { changing in
                    if try await AccountStore.replacePassword(
                        userId: user.id, expected: user.passwordHash, with: upgraded, now: now, on: changing.db)
                    {
                        changing.changedUser(user.id)
                    }
                }
            } catch {
                call.context.logger.warning("Password hash not upgraded: \(String(reflecting: type(of: error)))")
            }
        }
        return try await secondFactor.open(
            for: user, factors: try await secondFactor.factors(ofUser: user.id), openedBy: .password, call)
    }

    /// The open challenge of `userId` if this request may act on it (docs/API.md §2.3): with a
    /// `challengeToken`, the token must be step 1's; without one (seed clients), the client IP
    /// and User-Agent must be step 1's, unless `--require-challenge-token` refuses the request.
    /// A mismatch answers as if there were no challenge and spends none of its tries, so
    /// knowing a `userId` is not enough to lock a login out or replace its code.
    private func boundChallenge(userId: String, token: String?, _ call: RouteCall<some Sendable>, now: Double) async throws
        -> LoginChallenge
    {
        if token == nil, settings.requireChallengeToken { throw APIError.validation("challengeToken is required") }
        guard let challenge = try await challenges.openChallenge(userId: userId, now: now) else {
            throw APIError.loginChallengeExpired
        }
        if let token {
            guard let expected = challenge.tokenHash,
                SecretHashing.constantTimeEquals(expected, SecretHashing.tokenHash(token))
            else { throw APIError.loginChallengeExpired }
        } else {
            guard challenge.clientIp == call.context.clientIP, challenge.userAgent == call.request.headers[.userAgent] else {
                throw APIError.loginChallengeExpired
            }
        }
        return challenge
    }

    // MARK: Login step 2 (§2.2)

    @Sendable func requestTwoFactorCode(_ call: RouteCall<TwoFactorCodeRequest>) async throws -> MessageResponse {
        let now = clock.now()
        let challenge = try await boundChallenge(userId: call.body.userId, token: call.body.challengeToken, call, now: now)
        guard challenge.email == call.body.email else { throw APIError.loginChallengeExpired }
        // A user with something stronger than a mailbox is told where their code is; nothing is sent.
        let factors = try await secondFactor.factors(ofUser: challenge.userId)
        guard factors.acceptsEmailedCode else { return MessageResponse(message: factors.instead) }
        let interval = Double(settings.codeResendInterval)
        if let last = challenge.lastCodeSentAt, now - last < interval {
            throw APIError.rateLimited(retryAfter: last + interval - now)
        }
        // The challenge's own budget and its user's, never the address's: anyone can spend that
        // one, while these take the right password.
        try await call.spend(.challengeEmails, key: challenge.id)
        try await call.spend(.codeEmails, key: challenge.userId)
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
        let now = clock.now()
        let challenge = try await boundChallenge(userId: call.body.userId, token: call.body.challengeToken, call, now: now)
        // A challenge a magic link opened ends with the shop's magic links (docs/API.md §13.3).
        if challenge.openedBy == .emailedCode, try await !magicLinksAllowed(userId: challenge.userId) {
            try await challenges.close(challengeId: challenge.id, now: now)
            throw APIError.invalidVerificationCode
        }
        // Both budgets count the try before the code is compared: the user's across all their
        // challenges (§7, settled from the answer by the route's declaration), then the
        // challenge's own. An error while checking stays counted in both.
        try await call.spend(.secondFactors, key: challenge.userId)
        guard let tries = try await challenges.recordAttempt(challengeId: challenge.id, maxAttempts: settings.maxCodeAttempts, now: now)
        else { throw APIError.loginChallengeExpired }
        let outcome: SecondFactorOutcome
        do {
            if let passkey = call.body.passkey {
                outcome = try await complete(challenge, passkey: passkey, call, now: now)
            } else {
                outcome = try await complete(challenge, code: call.body.code ?? "", device: call.device, now: now)
            }
        } catch {
            if tries >= settings.maxCodeAttempts { try? await challenges.close(challengeId: challenge.id, now: now) }
            throw error
        }
        switch outcome {
        case .signedIn(let second):
            return try await issuer.signIn(
                userId: challenge.userId, device: call.device, method: .password, factors: [challenge.openedBy, second])
        case .lostTheRace:
            throw APIError.loginChallengeExpired
        case .expiredCode, .wrongCode, .wrongPasskey:
            try await ActivityLog.record(
                .twoFactorFailed, userId: challenge.userId, device: call.device, at: now, in: accounts.database)
            if tries >= settings.maxCodeAttempts {
                try await challenges.close(challengeId: challenge.id, now: now)
                throw APIError.tooManyAttempts
            }
            switch outcome {
            case .expiredCode: throw APIError.verificationCodeExpired
            case .wrongPasskey: throw APIError.passkeyInvalid
            default: throw APIError.invalidVerificationCode
            }
        }
    }

    private func magicLinksAllowed(userId: String) async throws -> Bool {
        guard let user = try await accounts.user(id: userId) else { return false }
        return try await policies.current(companyId: user.companyId).allowMagicLink
    }

    private enum SecondFactorOutcome {
        /// With the factor that completed the challenge.
        case signedIn(SignInFactor)
        case wrongCode, expiredCode, wrongPasskey
        /// Right, but the challenge was closed meanwhile (another try signed in or used up the tries).
        case lostTheRace
    }

    /// Compares `code` with the challenge's emailed code, else with the user's authenticator app
    /// (a TOTP or recovery code), and if it is right closes the challenge and spends the factor
    /// in one transaction: of concurrent requests only the one that closes the challenge signs
    /// in, and a request that loses leaves its factor unused.
    private func complete(_ challenge: LoginChallenge, code: String, device: ClientDevice, now: Double) async throws
        -> SecondFactorOutcome
    {
        // An emailed code counts only for a user who enrolled nothing stronger (docs/API.md §11.1).
        let factors = try await secondFactor.factors(ofUser: challenge.userId)
        if let current = challenge.codeHash, let emailed = hashing.matchingHash(code, scope: Self.challengeCodeScope, stored: current),
            factors.acceptsEmailedCode
        {
            if let expiry = challenge.codeExpiresAt, expiry <= now { return .expiredCode }
            // Not open any more: closed by another try, or the code was replaced meanwhile.
            return try await challenges.complete(challengeId: challenge.id, emailedCodeHash: emailed, now: now) == .completed
                ? .signedIn(.emailedCode) : .wrongCode
        }
        // A shop that requires a passkey takes no app code from a user who has one (§13.3).
        guard factors.acceptsAuthenticatorApp, let factor = try await authenticatorApp.check(code, userId: challenge.userId, now: now) else { return .wrongCode }
        let userId = challenge.userId, app = authenticatorApp
        switch try await challenges.complete(challengeId: challenge.id, emailedCodeHash: nil, now: now, spend: { db in
            guard try await app.use(factor, userId: userId, now: now, on: db) else { return false }
            if case .recoveryCode = factor {
                try await ActivityLog.record(.recoveryCodeUsed, userId: userId, device: device, at: now, on: db)
            }
            return true
        }) {
        case .completed: return .signedIn(.authenticatorApp)
        case .notOpen: return .lostTheRace
        // Spent meanwhile by another sign-in (a replayed TOTP code): a wrong code for this one.
        case .factorAlreadyUsed: return .wrongCode
        }
    }

    /// Checks a passkey's answer to step 1's passkey options and, if it is the user's, closes
    /// the challenge and records the passkey's use in one transaction (as `complete(_:code:)`).
    private func complete(
        _ challenge: LoginChallenge, passkey: AuthenticationResponseJSON, _ call: RouteCall<some Sendable>, now: Double
    ) async throws -> SecondFactorOutcome {
        // Step 1 bound options only for a user who had passkeys then.
        guard let challengeHash = challenge.passkeyChallengeHash else { return .wrongPasskey }
        let checked: PasskeyAssertions.Checked
        do {
            checked = try await passkeys.check(passkey, challengeHash: challengeHash, user: challenge.userId)
        } catch let problem as PasskeyProblem {
            call.context.logger.info("Passkey refused at login step 3: \(String(reflecting: problem.description))")
            return .wrongPasskey
        }
        switch try await challenges.complete(challengeId: challenge.id, emailedCodeHash: nil, now: now, spend: { db in
            try await checked.record(now: now, on: db)
        }) {
        case .completed: return .signedIn(.passkey)
        case .notOpen: return .lostTheRace
        case .factorAlreadyUsed:
            call.context.logger.info("Passkey refused at login step 3: its sign counter did not move forward")
            return .wrongPasskey
        }
    }
}
