/// `POST /api/auth/password/forgot` body (docs/API.md §9.2).
public struct ForgotPasswordRequest: Codable, Sendable, Equatable {
    public var email: String
    public init(email: String) { self.email = email }
}

extension ForgotPasswordRequest: WireRequest {
    public static var unknownFields: UnknownFields { .tolerated }
    public static let fields: [RequestField<Self>] = [.string("email", \.email, FieldRules.email)]
    public static var example: ForgotPasswordRequest { ForgotPasswordRequest(email: WireExample.staffEmail) }
}

/// `POST /api/auth/password/reset` body (docs/API.md §9.2): the emailed code and the new password.
public struct ResetPasswordRequest: Codable, Sendable, Equatable {
    public var email: String
    public var code: String
    public var password: String
    public init(email: String, code: String, password: String) {
        self.email = email
        self.code = code
        self.password = password
    }
}

extension ResetPasswordRequest: WireRequest {
    public static var unknownFields: UnknownFields { .tolerated }
    public static let fields: [RequestField<Self>] = [
        .string("email", \.email, FieldRules.email),
        .string("code", \.code, FieldRules.sixDigitCode),
        .string("password", \.password, FieldRules.newPassword),
    ]
    public static var example: ResetPasswordRequest {
        ResetPasswordRequest(email: WireExample.staffEmail, code: WireExample.code, password: "violet kettle 1987 drum")
    }
}

/// `PUT /api/users/me/password` body (docs/API.md §9.3). `currentPassword` is required when the
/// user has a password, ignored when they have none.
public struct ChangePasswordRequest: Codable, Sendable, Equatable {
    public var currentPassword: String?
    public var newPassword: String
    public init(currentPassword: String?, newPassword: String) {
        self.currentPassword = currentPassword
        self.newPassword = newPassword
    }
}

extension ChangePasswordRequest: WireRequest {
    public static var unknownFields: UnknownFields { .tolerated }
    public static let fields: [RequestField<Self>] = [
        .optional("currentPassword", \.currentPassword, FieldRules.secret.described("Required when the user has a password")),
        .string("newPassword", \.newPassword, FieldRules.newPassword),
    ]
    public static var example: ChangePasswordRequest {
        // The demo admin's password, kept: trying the example (schemathesis does, signed in as the
        // demo admin) succeeds without locking the demo account out of its own password.
        ChangePasswordRequest(currentPassword: "correct horse battery", newPassword: "correct horse battery")
    }
}
