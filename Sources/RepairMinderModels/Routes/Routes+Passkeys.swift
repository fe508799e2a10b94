/// Passkeys: enrolment by a signed-in staff member, and sign-in with one (docs/API.md §11).
extension Routes {
    public struct Passkeys: RouteFeature {
        public static let name = "Passkeys"
        public let registrationOptions = Route<EmptyPayload, PasskeyRegistrationOptions>(
            .post, "/api/auth/passkeys/register/options", .staff,
            "Start enrolling a passkey: creation options with a challenge that lives 5 minutes, once", quarantine: .allowed,
            enrolment: .allowed, budgets: [.passkeyEnrolments], failures: [.passkeyLimit])
        public let register = Route<PasskeyRegistrationRequest, Passkey>(
            .post, "/api/auth/passkeys/register/verify", .staff, "Finish enrolling: check the authenticator's answer and keep the passkey",
            quarantine: .allowed, enrolment: .allowed, successStatus: 201, failures: [.passkeyRefused, .passkeyLimit])
        public let list = Route<EmptyPayload, [Passkey]>(
            .get, "/api/auth/passkeys", .staff, "The caller's passkeys, oldest first", quarantine: .allowed)
        public let remove = Route<EmptyPayload, EmptyPayload>(
            .delete, "/api/auth/passkeys/{id}", .staff, "Remove one of the caller's passkeys", quarantine: .allowed,
            failures: [.notFound])
        public let loginOptions = Route<EmptyPayload, PasskeyLoginOptions>(
            .post, "/api/auth/passkeys/login/options", .none,
            "Start a passkey sign-in: request options for any of this site's passkeys (usernameless)", budgets: [.clientIP])
        public let login = Route<PasskeyLoginRequest, StaffTokenResponse>(
            .post, "/api/auth/passkeys/login/verify", .none, "Sign in with a passkey: a user-verified passkey is a whole sign-in",
            budgets: [.clientIP],
            failures: [.passkeyInvalid, .accountDeactivated, .accountArchived])
    }
    /// Passkeys: the routes of this feature.
    public static let passkeys = Passkeys()
}
