/// REKI's own contract under `/auth/*` (docs/API.md §10, seed 002): plain JSON answers and
/// seed 002's error shape instead of the envelope, its own users and tokens.
extension Routes {
    public struct REKI: RouteFeature {
        public static let name = "REKI"
        /// The prefix of every REKI route.
        public static let prefix = "/auth/"

        public let register = Route<LoginRequest, REKIAuthResponse>(
            .post, "/auth/register", .none, "Create a REKI account and sign in",
            budgets: [.clientIP], format: .plain, successStatus: 201,
            failures: [.weakPassword, .emailTaken])
        public let login = Route<LoginRequest, REKIAuthResponse>(
            .post, "/auth/login", .none, "Sign in with email and password",
            budgets: [.clientIP, .failedSecrets(by: .bodyEmail, namespace: "reki")], format: .plain,
            failures: [.invalidCredentials])
        public let refresh = Route<RefreshRequest, REKITokenPair>(
            .post, "/auth/refresh", .none,
            "Exchange a refresh token for a new pair (rotation: the token sent is used up; reuse ends the session)",
            budgets: [.clientIP], format: .plain, failures: [.unauthorized])
        public let me = Route<EmptyPayload, REKIUser>(.get, "/auth/me", .reki, "The signed-in REKI user", format: .plain)
        public let logout = Route<EmptyPayload, MessageResponse>(
            .post, "/auth/logout", .reki, "End the session: its refresh and access tokens stop working", format: .plain)
        public let deleteAccount = Route<REKIDeleteAccountRequest, MessageResponse>(
            .delete, "/auth/me", .reki, "Delete the REKI account: every session ends and the address is free again",
            budgets: [.clientIP], format: .plain, failures: [.invalidCredentials])
        public let forgotPassword = Route<ForgotPasswordRequest, MessageResponse>(
            .post, "/auth/forgot-password", .none, "Email a password reset link (the same answer for every address)",
            budgets: [.clientIP, .codeEmails(by: .bodyEmail, namespace: "reki")], format: .plain)
        public let resetPassword = Route<REKIResetPasswordRequest, MessageResponse>(
            .post, "/auth/reset-password", .none, "Set a new password with the link's token; every session is revoked",
            budgets: [.clientIP], format: .plain, failures: [.weakPassword, .invalidCodeInput])

        /// Whether `path` (as requested, before routing) is under REKI's prefix: its failures
        /// take seed 002's shape.
        public static func contains(path: some StringProtocol) -> Bool {
            path.split(separator: "/").first == "auth"
        }
    }
    /// REKI: the routes of this feature.
    public static let reki = REKI()
}
