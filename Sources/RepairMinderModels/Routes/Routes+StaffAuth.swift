/// Staff sign-in and the authenticator app: `/api/auth/*` (docs/API.md §2).
extension Routes {
    public struct StaffAuth: RouteFeature {
        public static let name = "Staff sign-in"
        public let login = Route<LoginRequest, LoginChallengeResponse>(
            .post, "/api/auth/login", .none, "Login step 1: check the password and open a login challenge",
            budgets: [.clientIP, .failedSecrets(by: .bodyEmail)],
            failures: [
                .invalidCredentials, .accountDeactivated, .accountArchived,
                .noPasswordSet,
            ])
        public let requestTwoFactorCode = Route<TwoFactorCodeRequest, MessageResponse>(
            .post, "/api/auth/2fa/request", .none,
            "Login step 2: email a 6-digit code (nothing is sent to a user with an authenticator app or passkeys)",
            budgets: [.clientIP, .challengeEmails, .codeEmails(by: .foundByHandler, namespace: "login")],
            failures: [.loginChallengeExpired])
        public let verifyTwoFactorCode = Route<TwoFactorVerifyRequest, StaffTokenResponse>(
            .post, "/api/auth/2fa/verify", .none,
            "Login step 3: one of the methods step 1 named (an emailed, authenticator or recovery code, or a passkey) completes sign-in",
            budgets: [.clientIP, .secondFactors(by: .foundByHandler)],
            failures: [
                .invalidCode, .codeExpired, .loginChallengeExpired,
                .tooManyAttempts, .passkeyInvalid,
            ])
        public let requestMagicLink = Route<MagicLinkRequest, MessageResponse>(
            .post, "/api/auth/magic-link/request", .none, "Email a sign-in code (magic link)",
            budgets: [.clientIP, .codeEmails(by: .bodyEmail)])
        public let verifyMagicLink = Route<MagicLinkVerifyRequest, MagicLinkVerifyResponse>(
            .post, "/api/auth/magic-link/verify-code", .none,
            "Sign in with a magic-link code; a user with an authenticator app or passkeys gets login step 1's answer instead",
            budgets: [.clientIP, .wrongCodes(by: .bodyEmail)], failures: [.invalidCode])
        public let refresh = Route<RefreshRequest, RefreshResponse>(
            .post, "/api/auth/refresh", .none, "Rotate the refresh token; a new access token",
            quarantine: .allowed, budgets: [.clientIP],
            failures: DocumentedFailure.refreshTokenRefusals)
        public let me = Route<EmptyPayload, StaffMeResponse>(
            .get, "/api/auth/me", .staff, "The signed-in staff member and their company", quarantine: .allowed,
            enrolment: .allowed)
        public let logout = Route<EmptyPayload, EmptyPayload>(
            .post, "/api/auth/logout", .staff, "Revoke this session", quarantine: .allowed, enrolment: .allowed)

        public let totpSetup = Route<EmptyPayload, TOTPSetupResponse>(
            .post, "/api/auth/totp/setup", .staff, "Start authenticator-app enrolment: a new pending secret",
            enrolment: .allowed, failures: [.totpAlreadyEnabled])
        public let totpVerifySetup = Route<TOTPCodeRequest, TOTPEnabledResponse>(
            .post, "/api/auth/totp/verify-setup", .staff, "Confirm enrolment with a code; returns recovery codes",
            enrolment: .allowed, budgets: [.failedSecrets(by: .callerId, namespace: "totp")],
            failures: [.invalidCodeInput, .totpSetupRequired, .totpAlreadyEnabled])
        public let totpDisable = Route<TOTPCodeRequest, TOTPDisabledResponse>(
            .post, "/api/auth/totp/disable", .staff, "Turn the authenticator app off with a current or recovery code",
            budgets: [.failedSecrets(by: .callerId, namespace: "totp")],
            failures: [.invalidCodeInput, .totpNotEnabled])
        public let totpStatus = Route<EmptyPayload, TOTPStatusResponse>(
            .get, "/api/auth/totp/status", .staff, "Whether the authenticator app is on, and recovery codes left")
    }
    /// Staff sign-in: the routes of this feature.
    public static let staffAuth = StaffAuth()
}
