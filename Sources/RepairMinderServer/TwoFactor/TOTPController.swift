import ExtrasBase64
import Foundation
import RepairMinderModels

/// `/api/auth/totp/*` (docs/API.md §2.10), for signed-in staff. Quarantined staff cannot reach
/// it: the route table does not allow it in quarantine. Codes typed here spend the caller's
/// failed-secret budget (the routes declare it), so a stolen access token cannot guess them
/// at the per-IP rate for ever.
struct TOTPController {
    let app: AuthenticatorApp
    let clock: ServerClock

    func mount(on routes: RouteMounter) {
        routes.on(Routes.staffAuth.totpSetup, use: setup)
        routes.on(Routes.staffAuth.totpVerifySetup, use: verifySetup)
        routes.on(Routes.staffAuth.totpDisable, use: disable)
        routes.on(Routes.staffAuth.totpStatus, use: status)
    }

    @Sendable func setup(_ call: RouteCall<EmptyPayload>) async throws -> TOTPSetupResponse {
        let staff = try call.staff
        var generator = SystemRandomNumberGenerator()
        let secret = (0..<20).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let sealed = try app.secretBox.seal(secret, owner: staff.user.id)
        guard try await app.store.savePending(userId: staff.user.id, sealed: sealed) else { throw APIError.totpAlreadyEnabled }
        // RFC 4648 base32 without padding: how authenticator apps take a secret.
        let encoded = String(base32Encoding: secret, options: .omitPaddingCharacter)
        return TOTPSetupResponse(secret: encoded, otpauthUrl: AuthenticatorApp.otpauthURL(secret: encoded, email: staff.user.email))
    }

    @Sendable func verifySetup(_ call: RouteCall<TOTPCodeRequest>) async throws -> TOTPEnabledResponse {
        let staff = try call.staff
        // The body's rule also takes recovery codes (disable's); for enrolment one is just wrong.
        let code = call.body.code
        let credential = try await app.store.credential(userId: staff.user.id)
        if credential?.isEnabled == true { throw APIError.totpAlreadyEnabled }
        guard let sealed = credential?.pendingSecretSealed else { throw APIError.totpSetupRequired }
        let secret = try app.secretBox.open(sealed, owner: staff.user.id)
        let now = clock.now()
        guard code.count == 6, let step = app.generator.matchingStep(of: code, secret: secret, at: now) else {
            throw APIError.invalidTOTPCode
        }
        let codes = RecoveryCodes.generate()
        let hashes = codes.map { app.recoveryHash($0, userId: staff.user.id) }
        guard try await app.store.enable(userId: staff.user.id, sealed: sealed, step: step, recoveryHashes: hashes, hashKey: app.hashing.keyID, device: call.device, now: now)
        else { throw APIError.totpSetupRequired }
        return TOTPEnabledResponse(recoveryCodes: codes)
    }

    @Sendable func disable(_ call: RouteCall<TOTPCodeRequest>) async throws -> TOTPDisabledResponse {
        let staff = try call.staff
        let code = call.body.code
        guard try await app.isEnabled(userId: staff.user.id) else { throw APIError.totpNotEnabled }
        guard try await app.accept(code, userId: staff.user.id, now: clock.now()) else { throw APIError.invalidTOTPCode }
        try await app.store.disable(userId: staff.user.id, device: call.device, now: clock.now())
        return TOTPDisabledResponse()
    }

    @Sendable func status(_ call: RouteCall<EmptyPayload>) async throws -> TOTPStatusResponse {
        let staff = try call.staff
        let enabled = try await app.isEnabled(userId: staff.user.id)
        let remaining = enabled ? try await app.store.remainingRecoveryCodes(userId: staff.user.id) : 0
        return TOTPStatusResponse(enabled: enabled, recoveryCodesRemaining: remaining)
    }
}
