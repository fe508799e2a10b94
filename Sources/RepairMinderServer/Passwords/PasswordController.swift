import Foundation
import RepairMinderModels

/// Password reset while signed out, and set or change while signed in: docs/API.md §9.2, §9.3.
struct PasswordController {
    let clock: ServerClock
    let accounts: AccountStore
    let revocation: SessionRevocation
    let hasher: PasswordHasher
    let policy: PasswordPolicy
    let codes: EmailedCodes

    func mount(on routes: RouteMounter) {
        routes.on(Routes.accountLifecycle.forgotPassword, use: forgot)
        routes.on(Routes.accountLifecycle.resetPassword, use: reset)
        routes.on(Routes.accountLifecycle.changePassword, use: change)
    }

    // MARK: Reset (§9.2)

    /// The same answer for every address; only an account that can sign in gets a code.
    @Sendable func forgot(_ call: RouteCall<ForgotPasswordRequest>) async throws -> MessageResponse {
        let email = call.body.email
        let accounts = self.accounts
        try await codes.send(.passwordReset, to: email) { code, minutes, now in
            guard let user = try await accounts.user(email: email), user.canSignIn else { return nil }
            return CodeEmail.passwordReset(to: user.email, code: code, validMinutes: minutes, now: now)
        }
        return MessageResponse(message: "If an account exists, a password reset code has been sent")
    }

    /// Checks the code, then the new password (a weak one leaves the code unused), then in one
    /// transaction uses the code up, sets the password and revokes every session of the user.
    @Sendable func reset(_ call: RouteCall<ResetPasswordRequest>) async throws -> MessageResponse {
        let body = call.body
        let matched = try await codes.match(.passwordReset, email: body.email, code: body.code)
        guard let user = try await accounts.user(email: body.email), user.canSignIn else { throw APIError.invalidOrExpiredCode }
        try policy.check(body.password, email: user.email)
        let hash = try await hasher.hash(body.password)
        let now = clock.now(), codes = self.codes, device = call.device
        try await revocation.transaction { ending in
            guard try await codes.consume(matched, now: now, on: ending.db) else { throw APIError.invalidOrExpiredCode }
            try await AccountStore.setPassword(userId: user.id, hash: hash, now: now, on: ending.db)
            ending.changedUser(user.id)
            try await ActivityLog.record(.passwordReset, userId: user.id, device: device, at: now, on: ending.db)
            try await ending.revokeAll(ofUser: user.id, reason: "password_reset", device: device, now: now)
        }
        return MessageResponse(message: "Your password has been reset. Please sign in.")
    }

    // MARK: Set or change (§9.3)

    /// With a password: the current one is required and counted like a login (§7). Without one
    /// (a magic-link user): sets the first. Every other session of the user is revoked.
    @Sendable func change(_ call: RouteCall<ChangePasswordRequest>) async throws -> MessageResponse {
        let staff = try call.staff
        let user = staff.user
        if let existing = user.passwordHash {
            guard let current = call.body.currentPassword else { throw APIError.validation("currentPassword is required") }
            guard try await hasher.verify(current, against: existing) != nil else { throw APIError.invalidCredentials }
        }
        try policy.check(call.body.newPassword, email: user.email)
        let hash = try await hasher.hash(call.body.newPassword)
        let now = clock.now(), session = staff.claims.sid, device = call.device
        try await revocation.transaction { ending in
            // Conditional on the password checked above: of two changes from it, one wins.
            guard
                try await AccountStore.replacePassword(
                    userId: user.id, expected: user.passwordHash, with: hash, now: now, on: ending.db)
            else { throw APIError.invalidCredentials }
            ending.changedUser(user.id)
            try await ActivityLog.record(.passwordChanged, userId: user.id, sessionId: session, device: device, at: now, on: ending.db)
            try await ending.revokeAll(ofUser: user.id, keeping: session, reason: "password_changed", device: device, now: now)
        }
        return MessageResponse(message: "Password updated")
    }
}
