/// Password reset and change, registration, sessions and activity (docs/API.md §9).
extension Routes {
    public struct AccountLifecycle: RouteFeature {
        public static let name = "Account lifecycle"
        public let register = Route<RegisterRequest, MessageResponse>(
            .post, "/api/auth/register", .none,
            "Register a new shop: emails a code (the same answer whether or not the email has an account)",
            budgets: [.clientIP, .codeEmails(by: .foundByHandler, perNetwork: true)], successStatus: 201,
            failures: [.weakPassword, .companyNameTaken])
        public let verifyRegistration = Route<RegisterVerifyRequest, StaffTokenResponse>(
            .post, "/api/auth/register/verify", .none,
            "Finish registration with the code: creates the shop (pending approval) and its admin, and signs in",
            budgets: [.clientIP, .wrongCodes(by: .bodyEmail)],
            failures: [.invalidCode, .emailTaken, .companyNameTaken])
        public let forgotPassword = Route<ForgotPasswordRequest, MessageResponse>(
            .post, "/api/auth/password/forgot", .none, "Email a password reset code (the same answer for every address)",
            budgets: [.clientIP, .codeEmails(by: .bodyEmail)])
        public let resetPassword = Route<ResetPasswordRequest, MessageResponse>(
            .post, "/api/auth/password/reset", .none,
            "Set a new password with the emailed code; every session of the user is revoked",
            budgets: [.clientIP, .wrongCodes(by: .bodyEmail)],
            failures: [.weakPassword, .invalidCode])
        public let changePassword = Route<ChangePasswordRequest, MessageResponse>(
            .put, "/api/users/me/password", .staff,
            "Set or change the signed-in user's password; their other sessions are revoked",
            quarantine: .allowed, budgets: [.failedSecrets(by: .callerEmail)], inputRuleBeyondSchema: "currentPassword is required when the user has a password",
            failures: [.weakPassword, .invalidCredentials])

        public let sessions = Route<EmptyPayload, [SessionInfo]>(
            .get, "/api/auth/sessions", .staff, "The caller's live sessions, newest first", quarantine: .allowed)
        public let revokeSession = Route<EmptyPayload, EmptyPayload>(
            .delete, "/api/auth/sessions/{id}", .staff, "Sign out one of the caller's sessions",
            quarantine: .allowed, failures: [.notFound])
        public let logoutOthers = Route<EmptyPayload, RevokedSessionsResponse>(
            .post, "/api/auth/logout-others", .staff, "Sign out every session of the caller but this one",
            quarantine: .allowed)

        public let activity = Route<EmptyPayload, [ActivityEvent]>(
            .get, "/api/auth/activity", .staff, "The caller's security events, newest first, paginated",
            quarantine: .allowed, format: .paginatedEnvelope, query: [.page, .limit],
            failures: [.validationError])

        public let deleteAccount = Route<DeleteAccountRequest, MessageResponse>(
            .delete, "/api/auth/me", .staff,
            "Delete the signed-in staff member's account: every session ends, the address is free again, the audit keeps the fact",
            quarantine: .allowed, enrolment: .allowed, budgets: [.failedSecrets(by: .callerEmail)],
            inputRuleBeyondSchema: "password is required when the user has a password",
            failures: [.invalidCredentials, .reauthenticationRequired, .lastAdmin, .shopCloseRequired])
        public let exportAccount = Route<EmptyPayload, AccountExport>(
            .get, "/api/auth/me/export", .staff, "Everything the server keeps about the signed-in staff member, as JSON",
            quarantine: .allowed, enrolment: .allowed)
    }
    /// Account lifecycle: the routes of this feature.
    public static let accountLifecycle = AccountLifecycle()
}
