import Foundation
import Hummingbird
import RepairMinderModels

/// Staff sign-in: `/api/auth/*` of API.md §2.1–§2.9.
struct StaffAuthController {
    let services: AuthServices

    private var issuer: TokenIssuer { TokenIssuer(services: services) }
    private var settings: ServerSettings { services.settings }
    private static let codeScope2FA = "2fa"
    private static let magicPurpose = "staff"

    /// Adds the sign-in routes to `group`, and `me`/`logout` behind `StaffAuthenticator`.
    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.post("login", use: login)
        group.post("2fa/request", use: requestTwoFactorCode)
        group.post("2fa/verify", use: verifyTwoFactorCode)
        group.post("magic-link/request", use: requestMagicLink)
        group.post("magic-link/verify-code", use: verifyMagicLink)
        group.post("refresh", use: refresh)
        group.group()
            .add(middleware: StaffAuthenticator(services: services))
            .get("me", use: me)
            .post("logout", use: logout)
    }

    // MARK: Login step 1 (§2.1)

    @Sendable func login(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await JSONBody(request: request, limit: settings.maxBodySize)
        let email = try body.email()
        let password = try body.untrimmedString("password")
        try await services.limits.admitLoginAttempt(for: email)
        let user = try await services.accounts.user(email: email)
        // Always run bcrypt, against a dummy hash for unknown emails or password-less users, so
        // response time does not reveal which accounts exist.
        let passwordMatches = try await services.hasher.verify(password, against: user?.passwordHash)
        guard let user else { throw APIError.invalidCredentials }
        guard user.passwordHash != nil else { throw APIError.noPasswordSet }
        guard passwordMatches else { throw APIError.invalidCredentials }
        try await services.limits.clearLoginFailures(for: email)
        guard user.isActive != 0 else { throw APIError.accountDeactivated }
        guard user.archived == 0 else { throw APIError.accountArchived }
        _ = try await services.challenges.open(
            userId: user.id, email: user.email, now: services.clock.now(), ttl: Double(settings.loginChallengeTTL))
        let summary = LoginUserSummary(
            id: user.id, email: user.email, firstName: user.firstName, lastName: user.lastName, companyId: user.companyId)
        let methods: [TwoFactorMethod] =
            try await AuthenticatorApp(services: services).isEnabled(userId: user.id) ? [.email, .totp] : [.email]
        return .envelope(
            LoginChallengeResponse(userId: user.id, email: user.email, user: summary, twoFactorMethods: methods))
    }

    // MARK: Login step 2 (§2.2)

    @Sendable func requestTwoFactorCode(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await JSONBody(request: request, limit: settings.maxBodySize)
        let userId = try body.identifier("userId")
        let email = try body.email()
        let now = services.clock.now()
        guard let challenge = try await services.challenges.openChallenge(userId: userId, now: now),
            challenge.email == email
        else { throw APIError.loginChallengeExpired }
        let interval = Double(settings.codeResendInterval)
        if let last = challenge.lastCodeSentAt, now - last < interval {
            throw APIError.rateLimited(retryAfter: last + interval - now)
        }
        try await services.limits.admitCodeEmail(to: email)
        let code = RandomToken.digits(6)
        // Conditional on the spacing again: of two concurrent requests only one replaces the code.
        if let wait = try await services.challenges.storeCode(
            challengeId: challenge.id, codeHash: services.hashing.codeHash(code, scope: Self.codeScope2FA),
            now: now, codeTTL: Double(settings.codeTTL), minInterval: interval)
        {
            throw APIError.rateLimited(retryAfter: wait)
        }
        try await services.mailer.send(
            CodeEmail.twoFactor(to: challenge.email, code: code, validMinutes: settings.codeTTL / 60, now: now))
        return .envelope(MessageResponse(message: "2FA code sent to your email"))
    }

    // MARK: Login step 3 (§2.3)

    @Sendable func verifyTwoFactorCode(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await JSONBody(request: request, limit: settings.maxBodySize)
        let userId = try body.identifier("userId")
        let code = try body.secondFactorCode()
        let now = services.clock.now()
        guard let challenge = try await services.challenges.openChallenge(userId: userId, now: now) else {
            throw APIError.loginChallengeExpired
        }
        let emailed = services.hashing.codeHash(code, scope: Self.codeScope2FA)
        let isEmailedCode = challenge.codeHash.map { SecretHashing.constantTimeEquals($0, emailed) } ?? false
        if isEmailedCode, let expiry = challenge.codeExpiresAt, expiry <= now { throw APIError.verificationCodeExpired }
        // The emailed code, or else the authenticator app (a TOTP or recovery code), then close
        // the challenge: of concurrent requests, only the one that closes it signs in.
        let completed: Bool
        if isEmailedCode {
            completed = try await services.challenges.complete(challengeId: challenge.id, codeHash: emailed, now: now)
        } else if try await AuthenticatorApp(services: services).accept(code, userId: challenge.userId, now: now) {
            completed = try await services.challenges.close(challengeId: challenge.id, now: now)
        } else {
            completed = false
        }
        guard completed else {
            let used = try await services.challenges.recordFailure(
                challengeId: challenge.id, maxAttempts: settings.maxCodeAttempts, now: now)
            guard let used else { throw APIError.loginChallengeExpired }
            throw used >= settings.maxCodeAttempts ? APIError.tooManyAttempts : APIError.invalidVerificationCode
        }
        return .envelope(try await issuer.signIn(userId: challenge.userId, isMobile: ClientKind.isMobile(request)))
    }

    // MARK: Magic link (§2.4, §2.5)

    @Sendable func requestMagicLink(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await JSONBody(request: request, limit: settings.maxBodySize)
        let email = try body.email()
        // Counted for every address, known or not, so the answer never tells them apart.
        try await services.limits.admitCodeEmail(to: email)
        if let user = try await services.accounts.user(email: email), user.canSignIn, user.magicLinkEnabled != 0 {
            let now = services.clock.now()
            let code = RandomToken.digits(6)
            try await services.magicCodes.issue(
                purpose: Self.magicPurpose, email: email,
                codeHash: services.hashing.codeHash(code, scope: Self.magicPurpose), now: now, ttl: Double(settings.codeTTL))
            try await services.mailer.send(
                CodeEmail.magicLink(to: user.email, code: code, validMinutes: settings.codeTTL / 60, now: now))
        }
        return .envelope(MessageResponse(message: "Magic link sent"))
    }

    @Sendable func verifyMagicLink(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await JSONBody(request: request, limit: settings.maxBodySize)
        let email = try body.email()
        let code = try body.numericCode()
        let now = services.clock.now()
        guard let live = try await services.magicCodes.live(purpose: Self.magicPurpose, email: email, now: now) else {
            throw APIError.invalidOrExpiredCode
        }
        let submitted = services.hashing.codeHash(code, scope: Self.magicPurpose)
        guard SecretHashing.constantTimeEquals(live.codeHash, submitted),
            try await services.magicCodes.consume(id: live.id, codeHash: submitted, now: now)
        else {
            try await services.magicCodes.recordFailure(id: live.id, maxAttempts: settings.maxCodeAttempts, now: now)
            throw APIError.invalidOrExpiredCode
        }
        guard let user = try await services.accounts.user(email: email), user.magicLinkEnabled != 0 else {
            throw APIError.invalidOrExpiredCode
        }
        return .envelope(try await issuer.signIn(userId: user.id, isMobile: ClientKind.isMobile(request)))
    }

    // MARK: Tokens (§2.7–§2.9)

    @Sendable func refresh(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await JSONBody(request: request, limit: settings.maxBodySize)
        let presented = try body.string("refreshToken")
        guard presented.utf8.count <= 512 else { throw APIError.invalidRefreshToken }
        let now = services.clock.now()
        let rotated = try await services.rotation.rotate(presented, now: now)
        guard let user = try await services.accounts.user(id: rotated.userId) else { throw APIError.invalidRefreshToken }
        let token = try issuer.accessToken(for: user, sessionId: rotated.sessionId, isMobile: rotated.isMobile, now: now)
        return .envelope(
            RefreshResponse(token: token, refreshToken: rotated.refreshToken, expiresIn: settings.accessTokenTTL))
    }

    @Sendable func me(_ request: Request, context: AppRequestContext) async throws -> Response {
        let staff = try context.requireStaff()
        return .envelope(
            StaffMeResponse(
                user: staff.user.wire(companyStatus: staff.company.companyStatus), company: staff.company.wire(serverURL: settings.serverURL),
                hasPassword: staff.user.passwordHash != nil))
    }

    @Sendable func logout(_ request: Request, context: AppRequestContext) async throws -> Response {
        let staff = try context.requireStaff()
        try await services.sessions.revoke(id: staff.claims.sid, reason: "logout", now: services.clock.now())
        return .bareSuccess
    }
}
