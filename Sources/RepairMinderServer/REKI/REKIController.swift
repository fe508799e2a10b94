import Foundation
import RepairMinderModels

/// REKI's contract, `/auth/*` (docs/API.md §10, seed 002), on the machinery of the staff API:
/// the password policy and hasher, the sign-in limits, the session store and the refresh
/// rotation (on REKI's own tables), the mail queue. Failures are rendered in seed 002's shape
/// by `ErrorMiddleware`; the messages are REKI's (`APIError.reki...`).
struct REKIController {
    let database: Database
    let settings: ServerSettings
    let clock: ServerClock
    let users: REKIUserStore
    let sessions: SessionStore
    let revocation: SessionRevocation
    let rotation: RefreshTokenRotation<REKIUserRecord>
    let resets: REKIPasswordResets
    let signer: TokenSigner
    let hasher: PasswordHasher
    let policy: PasswordPolicy

    func mount(on routes: RouteMounter) {
        routes.on(Routes.reki.register, use: register)
        routes.on(Routes.reki.login, use: login)
        routes.on(Routes.reki.refresh, use: refresh)
        routes.on(Routes.reki.me, use: me)
        routes.on(Routes.reki.logout, use: logout)
        routes.on(Routes.reki.deleteAccount, use: deleteAccount)
        routes.on(Routes.reki.forgotPassword, use: forgotPassword)
        routes.on(Routes.reki.resetPassword, use: resetPassword)
    }

    /// The account and its first session in one transaction: of two registrations of one
    /// address, one gets 201 and the other 409.
    @Sendable func register(_ call: RouteCall<LoginRequest>) async throws -> REKIAuthResponse {
        let email = call.body.email
        try policy.check(call.body.password, email: email)
        let hash = try await hasher.hash(call.body.password)
        let now = clock.now(), device = call.device, refreshToken = RandomToken.base64URL(byteCount: 32)
        let sessionId = UUID().uuidString.lowercased()
        let lifetime = REKIUserRecord.firstRefreshLifetime(isMobile: device.isMobile, settings: settings)
        let user = try await database.transaction { db in
            guard let user = try await REKIUserStore.create(email: email, passwordHash: hash, now: now, on: db) else {
                throw APIError.rekiEmailExists
            }
            try await SessionStore.create(
                id: sessionId, userId: user.id, device: device, refreshToken: refreshToken, now: now, refreshTTL: lifetime,
                realm: .reki, on: db)
            return user
        }
        return REKIAuthResponse(
            user: user.wire, accessToken: try await accessToken(for: user, sessionId: sessionId, now: now), refreshToken: refreshToken)
    }

    /// bcrypt runs for unknown addresses too (against a dummy hash), so both failures take as
    /// long; failures count against the address's budget (docs/API.md §7), apart from staff's.
    @Sendable func login(_ call: RouteCall<LoginRequest>) async throws -> REKIAuthResponse {
        let email = call.body.email
        let user = try await users.user(email: email)
        let match = try await hasher.verify(call.body.password, against: user?.passwordHash)
        guard let user, let match, user.canSignIn else { throw APIError.invalidCredentials }
        let now = clock.now(), refreshToken = RandomToken.base64URL(byteCount: 32)
        if let upgraded = match.upgradedHash {
            // Best effort: the old hash still verifies, and the next sign-in tries again.
            do {
                try await users.upgradePassword(userId: user.id, from: user.passwordHash, to: upgraded, now: now)
            } catch {
                call.context.logger.warning("Password hash not upgraded: \(String(reflecting: type(of: error)))")
            }
        }
        let sessionId = try await sessions.create(
            userId: user.id, device: call.device, refreshToken: refreshToken, now: now,
            refreshTTL: REKIUserRecord.firstRefreshLifetime(isMobile: call.isMobile, settings: settings))
        return REKIAuthResponse(
            user: user.wire, accessToken: try await accessToken(for: user, sessionId: sessionId, now: now), refreshToken: refreshToken)
    }

    /// The staff rotation on REKI's tables; every refusal (unknown, expired, reused, revoked)
    /// is REKI's one 401.
    @Sendable func refresh(_ call: RouteCall<RefreshRequest>) async throws -> REKITokenPair {
        let presented = call.body.refreshToken
        let now = clock.now()
        let rotated: RefreshTokenRotation<REKIUserRecord>.Rotated
        do {
            rotated = try await rotation.rotate(presented, device: call.device, logger: call.context.logger, now: now)
        } catch let error as APIError where error.status == .unauthorized {
            throw APIError.unauthorized
        }
        return REKITokenPair(
            accessToken: try await accessToken(for: rotated.user, sessionId: rotated.sessionId, now: now),
            refreshToken: rotated.refreshToken)
    }

    @Sendable func me(_ call: RouteCall<EmptyPayload>) async throws -> REKIUser {
        try call.rekiUser.user.wire
    }

    @Sendable func logout(_ call: RouteCall<EmptyPayload>) async throws -> MessageResponse {
        let session = try call.rekiUser.claims.sid, device = call.device, now = clock.now()
        // Whether the session was still live does not change the answer.
        _ = try await revocation.transaction {
            try await $0.revoke(session: session, realm: .reki, reason: "logout", device: device, now: now)
        }
        return MessageResponse(message: "success")
    }

    /// The password again, then in one transaction every session ended and the account with
    /// its sessions, refresh tokens and reset links deleted: REKI keeps no audit log, so
    /// nothing of it stays (docs/API.md §10).
    @Sendable func deleteAccount(_ call: RouteCall<REKIDeleteAccountRequest>) async throws -> MessageResponse {
        let user = try call.rekiUser.user
        guard try await hasher.verify(call.body.password, against: user.passwordHash) != nil else { throw APIError.invalidCredentials }
        let now = clock.now()
        try await revocation.transaction { deleting in
            try await deleting.revokeAll(ofUser: user.id, realm: .reki, reason: "account_deleted", device: nil, now: now)
            let db = deleting.db
            try await db.raw(
                "DELETE FROM reki_refresh_tokens WHERE session_id IN (SELECT id FROM reki_sessions WHERE user_id = \(bind: user.id))"
            ).run()
            for table in ["reki_sessions", "reki_password_resets"] {
                try await db.raw("DELETE FROM \(ident: table) WHERE user_id = \(bind: user.id)").run()
            }
            try await db.raw("DELETE FROM reki_users WHERE id = \(bind: user.id)").run()
        }
        return MessageResponse(message: "success")
    }

    /// The same answer, in about the same time, for every address; the address's mail budget
    /// (docs/API.md §7) is counted either way.
    @Sendable func forgotPassword(_ call: RouteCall<ForgotPasswordRequest>) async throws -> MessageResponse {
        let email = call.body.email
        try await takingAtLeast(.milliseconds(settings.codeRequestMinimumMilliseconds)) {
            guard let user = try await users.user(email: email), user.canSignIn else { return }
            try await resets.issue(for: user, publicURL: settings.serverURL, now: clock.now())
        }
        return MessageResponse(message: "If the email exists, a password reset link has been sent")
    }

    @Sendable func resetPassword(_ call: RouteCall<REKIResetPasswordRequest>) async throws -> MessageResponse {
        try await setPassword(with: call.body)
        return MessageResponse(message: "success")
    }

    /// Sets a new password with a reset link's token, for `POST /auth/reset-password` and for the
    /// link's own page (`REKIResetPageController`) alike, so that both apply one set of rules.
    /// A weak password leaves the token unused (400 `WEAK_PASSWORD`); otherwise, in one
    /// transaction, the token is used up (with the user's other links), the password set and
    /// every session revoked. An unknown, used or expired token: `APIError.rekiInvalidResetToken`.
    /// `request` has passed its field rules (`REKIResetPasswordRequest.fields`).
    func setPassword(with request: REKIResetPasswordRequest) async throws {
        let token = request.token
        let now = clock.now()
        guard let userId = try await resets.liveToken(token, now: now), let user = try await users.user(id: userId) else {
            throw APIError.rekiInvalidResetToken
        }
        try policy.check(request.newPassword, email: user.email)
        let hash = try await hasher.hash(request.newPassword)
        try await revocation.transaction { ending in
            guard try await REKIPasswordResets.consume(token, now: now, on: ending.db) == user.id else {
                throw APIError.rekiInvalidResetToken
            }
            try await REKIUserStore.setPassword(userId: user.id, hash: hash, now: now, on: ending.db)
            try await ending.revokeAll(ofUser: user.id, realm: .reki, reason: "password_reset", device: nil, now: now)
        }
    }

    /// A 15-minute HS256 token (`--access-token-ttl`) with seed 002's claims and the session.
    private func accessToken(for user: REKIUserRecord, sessionId: String, now: Double) async throws -> String {
        let issuedAt = Int(now)
        return try await signer.sign(
            REKITokenClaims(
                email: user.email, userId: user.id, sessionId: sessionId, issuedAt: issuedAt,
                expiresAt: issuedAt + settings.accessTokenTTL))
    }
}

extension APIError {
    // REKI (docs/API.md §10, seed 002's messages).
    static let rekiEmailExists = APIError(.emailTaken, "Email already exists")
    static let rekiInvalidResetToken = APIError(.invalidCodeInput, "Invalid or expired reset token")
}
