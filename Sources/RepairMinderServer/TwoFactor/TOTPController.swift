import Foundation
import Hummingbird
import RepairMinderModels

/// `/api/auth/totp/*` (API.md §2.10), for signed-in staff. Quarantined staff cannot reach it:
/// it is not on the quarantine allowlist.
struct TOTPController {
    let services: AuthServices

    private var app: AuthenticatorApp { AuthenticatorApp(services: services) }

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.group("totp")
            .add(middleware: StaffAuthenticator(services: services))
            .post("setup", use: setup)
            .post("verify-setup", use: verifySetup)
            .post("disable", use: disable)
            .get("status", use: status)
    }

    @Sendable func setup(_ request: Request, context: AppRequestContext) async throws -> Response {
        let staff = try context.requireStaff()
        var generator = SystemRandomNumberGenerator()
        let secret = (0..<20).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let sealed = try services.secretBox.seal(secret, owner: staff.user.id)
        guard try await app.store.savePending(userId: staff.user.id, sealed: sealed) else { throw APIError.totpAlreadyEnabled }
        let encoded = Base32.encode(secret)
        return .envelope(
            TOTPSetupResponse(secret: encoded, otpauthUrl: AuthenticatorApp.otpauthURL(secret: encoded, email: staff.user.email)))
    }

    @Sendable func verifySetup(_ request: Request, context: AppRequestContext) async throws -> Response {
        let staff = try context.requireStaff()
        let code = try await JSONBody(request: request, limit: services.settings.maxBodySize).numericCode()
        let credential = try await app.store.credential(userId: staff.user.id)
        if credential?.isEnabled == true { throw APIError.totpAlreadyEnabled }
        guard let sealed = credential?.pendingSecretSealed else { throw APIError.totpSetupRequired }
        let secret = try services.secretBox.open(sealed, owner: staff.user.id)
        let now = services.clock.now()
        // A stolen access token must not be able to guess codes at the per-IP rate for ever.
        try await services.limits.admitLoginAttempt(for: Self.guessKey(staff))
        guard let step = app.generator.matchingStep(of: code, secret: secret, at: now) else {
            throw APIError(.badRequest, "INVALID_CODE", "Invalid verification code")
        }
        try await services.limits.clearLoginFailures(for: Self.guessKey(staff))
        let codes = RecoveryCodes.generate()
        let hashes = codes.map { app.recoveryHash($0, userId: staff.user.id) }
        guard try await app.store.enable(userId: staff.user.id, sealed: sealed, step: step, recoveryHashes: hashes, now: now)
        else { throw APIError.totpSetupRequired }
        return .envelope(TOTPEnabledResponse(recoveryCodes: codes))
    }

    @Sendable func disable(_ request: Request, context: AppRequestContext) async throws -> Response {
        let staff = try context.requireStaff()
        let code = try await JSONBody(request: request, limit: services.settings.maxBodySize).secondFactorCode()
        guard try await app.isEnabled(userId: staff.user.id) else { throw APIError.totpNotEnabled }
        try await services.limits.admitLoginAttempt(for: Self.guessKey(staff))
        guard try await app.accept(code, userId: staff.user.id, now: services.clock.now()) else {
            throw APIError(.badRequest, "INVALID_CODE", "Invalid verification code")
        }
        try await services.limits.clearLoginFailures(for: Self.guessKey(staff))
        try await app.store.disable(userId: staff.user.id)
        return .envelope(TOTPDisabledResponse())
    }

    /// The failure budget of authenticator codes typed outside a login (shares
    /// `--login-failure-limit` per 15 minutes).
    private static func guessKey(_ staff: AuthenticatedStaff) -> String { "totp:\(staff.user.id)" }

    @Sendable func status(_ request: Request, context: AppRequestContext) async throws -> Response {
        let staff = try context.requireStaff()
        let enabled = try await app.isEnabled(userId: staff.user.id)
        let remaining = enabled ? try await app.store.remainingRecoveryCodes(userId: staff.user.id) : 0
        return .envelope(TOTPStatusResponse(enabled: enabled, recoveryCodesRemaining: remaining))
    }
}
