/// Password reset and change (docs/API.md §9.2, §9.3).

extension ForgotPasswordRequest: WireRequest {
    public static let fields: [RequestField<Self>] = [.string("email", \.email, FieldRules.email)]
    public static var example: ForgotPasswordRequest { ForgotPasswordRequest(email: WireExample.staffEmail) }
}

extension ResetPasswordRequest: WireRequest {
    public static let fields: [RequestField<Self>] = [
        .string("email", \.email, FieldRules.email),
        .string("code", \.code, FieldRules.sixDigitCode),
        .string("password", \.password, FieldRules.newPassword),
    ]
    public static var example: ResetPasswordRequest {
        ResetPasswordRequest(email: WireExample.staffEmail, code: WireExample.code, password: "violet kettle 1987 drum")
    }
}

extension ChangePasswordRequest: WireRequest {
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

extension RegisterRequest: WireRequest {
    public static let fields: [RequestField<Self>] = [
        .string("companyName", \.companyName, FieldRules.text(maxLength: 200, description: "The shop's name")),
        .string("firstName", \.firstName, FieldRules.text(maxLength: 100)),
        .string("lastName", \.lastName, FieldRules.text(maxLength: 100)),
        .string("email", \.email, FieldRules.email),
        .string("password", \.password, FieldRules.newPassword),
    ]
    public static var example: RegisterRequest {
        RegisterRequest(
            companyName: "Fixit Phones", firstName: "Ada", lastName: "Lovelace", email: "ada@fixit.test",
            password: "violet kettle 1987 drum")
    }
}

extension RegisterVerifyRequest: WireRequest {
    public static let fields: [RequestField<Self>] = [
        .string("email", \.email, FieldRules.email),
        .string("code", \.code, FieldRules.sixDigitCode),
    ]
    public static var example: RegisterVerifyRequest { RegisterVerifyRequest(email: "ada@fixit.test", code: WireExample.code) }
}
