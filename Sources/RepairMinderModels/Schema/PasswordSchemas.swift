/// Password reset and change (docs/API.md §9.2, §9.3).

extension JSONSchema {
    /// A new password as sent; the policy (§9: 8 characters to 72 bytes, not common, not the
    /// email) answers `WEAK_PASSWORD`, not a validation error.
    static var newPassword: JSONSchema {
        .nonEmptyText(maxLength: 1024, description: "At least 8 characters, at most 72 bytes of UTF-8, not a common password, not the email")
    }
}

extension ForgotPasswordRequest: WireType {
    public static var schema: JSONSchema { .object([.init("email", .email)]) }
    public static var example: ForgotPasswordRequest { ForgotPasswordRequest(email: WireExample.staffEmail) }
}

extension ResetPasswordRequest: WireType {
    public static var schema: JSONSchema {
        .object([
            .init("email", .email),
            .init("code", .sixDigitCode),
            .init("password", .newPassword),
        ])
    }
    public static var example: ResetPasswordRequest {
        ResetPasswordRequest(email: WireExample.staffEmail, code: WireExample.code, password: "violet kettle 1987 drum")
    }
}

extension ChangePasswordRequest: WireType {
    public static var schema: JSONSchema {
        .object([
            .init("currentPassword", .nonEmptyText(maxLength: 1024, description: "Required when the user has a password"), required: false),
            .init("newPassword", .newPassword),
        ])
    }
    public static var example: ChangePasswordRequest {
        // The demo admin's password, kept: trying the example (schemathesis does, signed in as the
        // demo admin) succeeds without locking the demo account out of its own password.
        ChangePasswordRequest(currentPassword: "correct horse battery", newPassword: "correct horse battery")
    }
}

extension RegisterRequest: WireType {
    public static var schema: JSONSchema {
        .object([
            .init("companyName", .nonEmptyText(maxLength: 200, description: "The shop's name")),
            .init("firstName", .nonEmptyText(maxLength: 100)),
            .init("lastName", .nonEmptyText(maxLength: 100)),
            .init("email", .email),
            .init("password", .newPassword),
        ])
    }
    public static var example: RegisterRequest {
        RegisterRequest(
            companyName: "Fixit Phones", firstName: "Ada", lastName: "Lovelace", email: "ada@fixit.test",
            password: "violet kettle 1987 drum")
    }
}

extension RegisterVerifyRequest: WireType {
    public static var schema: JSONSchema {
        .object([
            .init("email", .email),
            .init("code", .sixDigitCode),
        ])
    }
    public static var example: RegisterVerifyRequest { RegisterVerifyRequest(email: "ada@fixit.test", code: WireExample.code) }
}
