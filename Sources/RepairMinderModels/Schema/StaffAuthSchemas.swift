/// Staff sign-in and the authenticator app (docs/API.md §2).

extension LoginRequest: WireRequest {
    public static let fields: [RequestField<Self>] = [
        .string("email", \.email, FieldRules.email),
        .string("password", \.password, FieldRules.secret.described("Sent exactly as typed")),
    ]
    public static var example: LoginRequest { LoginRequest(email: WireExample.staffEmail, password: "correct horse battery") }
}

extension LoginUserSummary: WireType {
    public static var schema: JSONSchema {
        .object([
            .init("id", .nonEmptyText),
            .init("email", .email),
            .init("firstName", .text, required: false),
            .init("lastName", .text, required: false),
            .init("companyId", .nonEmptyText),
        ])
    }
    public static var example: LoginUserSummary {
        LoginUserSummary(
            id: WireExample.userId, email: WireExample.staffEmail, firstName: "Ada", lastName: "Lovelace",
            companyId: WireExample.companyId)
    }
}

extension LoginChallengeResponse: WireType {
    public static var schema: JSONSchema {
        .object(
            [
                .init("requiresTwoFactor", .boolean),
                .init("userId", .nonEmptyText),
                .init("email", .email),
                .init("user", .ref(LoginUserSummary.self)),
                .init("methods", .array(.cases(of: TwoFactorMethod.self)), required: false),
                .init(
                    "twoFactorMethods", .array(.string(.init(allowed: ["email", "totp"], description: "Deprecated: methods"))),
                    required: false),
                .init("challengeToken", .challengeToken, required: false),
                .init("passkey", .ref(PublicKeyCredentialRequestOptionsJSON.self), required: false),
            ],
            description: "The password was right; a second factor completes sign-in")
    }
    public static var example: LoginChallengeResponse {
        LoginChallengeResponse(
            userId: WireExample.userId, email: WireExample.staffEmail, user: .example,
            methods: [.totp, .recoveryCode, .passkey], challengeToken: WireExample.challengeToken,
            passkey: .example)
    }
}

extension TwoFactorCodeRequest: WireRequest {
    public static let fields: [RequestField<Self>] = [
        .string("userId", \.userId, FieldRules.identifier),
        .string("email", \.email, FieldRules.email),
        .optional("challengeToken", \.challengeToken, FieldRules.challengeToken),
    ]
    public static var example: TwoFactorCodeRequest {
        TwoFactorCodeRequest(userId: WireExample.userId, email: WireExample.staffEmail, challengeToken: WireExample.challengeToken)
    }
}

extension TwoFactorVerifyRequest: WireRequest {
    public static let fields: [RequestField<Self>] = [
        .string("userId", \.userId, FieldRules.identifier),
        .optional("code", \.code, FieldRules.secondFactorCode),
        .optional("challengeToken", \.challengeToken, FieldRules.challengeToken),
        .optionalObject("passkey", \.passkey),
    ]
    public static let exactlyOneOf = ["code", "passkey"]
    public static var bodyDescription: String? {
        "A code (emailed, authenticator or recovery, as step 1's methods say) or a passkey's answer to step 1's passkey options"
    }
    public static var example: TwoFactorVerifyRequest {
        TwoFactorVerifyRequest(userId: WireExample.userId, code: WireExample.code, challengeToken: WireExample.challengeToken)
    }
}

extension MagicLinkRequest: WireRequest {
    public static let fields: [RequestField<Self>] = [.string("email", \.email, FieldRules.email)]
    public static var example: MagicLinkRequest { MagicLinkRequest(email: WireExample.staffEmail) }
}

extension MagicLinkVerifyRequest: WireRequest {
    public static let fields: [RequestField<Self>] = [
        .string("email", \.email, FieldRules.email),
        .string("code", \.code, FieldRules.sixDigitCode),
    ]
    public static var example: MagicLinkVerifyRequest {
        MagicLinkVerifyRequest(email: WireExample.staffEmail, code: WireExample.code)
    }
}

extension MagicLinkVerifyResponse: WireType {
    public static var schema: JSONSchema {
        .oneOf([.ref(StaffTokenResponse.self), .ref(LoginChallengeResponse.self)])
    }
    public static var example: MagicLinkVerifyResponse { .signedIn(.example) }
}

extension RefreshRequest: WireRequest {
    public static let fields: [RequestField<Self>] = [.string("refreshToken", \.refreshToken, FieldRules.refreshToken)]
    public static var example: RefreshRequest { RefreshRequest(refreshToken: WireExample.refreshToken) }
}

extension RefreshResponse: WireType {
    public static var schema: JSONSchema {
        .object([
            .init("token", .jwt),
            .init("refreshToken", .nonEmptyText),
            .init("expiresIn", .integer(minimum: 1)),
        ])
    }
    public static var example: RefreshResponse {
        RefreshResponse(token: WireExample.accessToken, refreshToken: WireExample.refreshToken, expiresIn: 900)
    }
}

extension StaffTokenResponse: WireType {
    public static var schema: JSONSchema {
        .object(
            [
                .init("token", .jwt),
                .init("refreshToken", .nonEmptyText),
                .init("expiresIn", .integer(minimum: 1)),
                .init("user", .ref(StaffUser.self)),
                .init("company", .ref(Company.self)),
            ],
            description: "A completed staff sign-in")
    }
    public static var example: StaffTokenResponse {
        StaffTokenResponse(
            token: WireExample.accessToken, refreshToken: WireExample.refreshToken, expiresIn: 900, user: .example,
            company: .example)
    }
}

extension StaffMeResponse: WireType {
    public static var schema: JSONSchema {
        .object([
            .init("user", .ref(StaffUser.self)),
            .init("company", .ref(Company.self)),
            .init("hasPassword", .boolean),
        ])
    }
    public static var example: StaffMeResponse { StaffMeResponse(user: .example, company: .example, hasPassword: true) }
}

extension TOTPSetupResponse: WireType {
    public static var schema: JSONSchema {
        .object([
            .init("secret", .string(.init(pattern: "^[A-Z2-7]+=*$", description: "Base32, for manual entry"))),
            .init("otpauthUrl", .string(.init(format: "uri", pattern: "^otpauth://totp/"))),
        ])
    }
    public static var example: TOTPSetupResponse {
        let secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
        return TOTPSetupResponse(
            secret: secret,
            otpauthUrl: "otpauth://totp/Repair%20Minder:admin@acme.test?secret=\(secret)"
                + "&issuer=Repair%20Minder&algorithm=SHA1&digits=6&period=30")
    }
}

extension TOTPCodeRequest: WireRequest {
    public static let fields: [RequestField<Self>] = [.string("code", \.code, FieldRules.secondFactorCode)]
    public static var bodyDescription: String? {
        "verify-setup takes a current 6-digit code (anything else is a wrong code); disable also takes a recovery code"
    }
    public static var example: TOTPCodeRequest { TOTPCodeRequest(code: WireExample.code) }
}

extension TOTPEnabledResponse: WireType {
    public static var schema: JSONSchema {
        .object([
            .init("enabled", .boolean),
            .init(
                "recoveryCodes",
                .array(.string(.init(pattern: "^[A-HJKMNP-Z2-9]{8}$", description: "Shown this once")))),
        ])
    }
    public static var example: TOTPEnabledResponse {
        TOTPEnabledResponse(recoveryCodes: [
            "ABCD2345", "K7M9P3QX", "ZT4H8NWR", "F2J6Y9UV", "R3S8E5GB", "W9X2C4HM", "N6P7Q2TK", "V3Y8J5AD",
            "H4G7B2ZS", "U9E3R6WX",
        ])
    }
}

extension TOTPDisabledResponse: WireType {
    public static var schema: JSONSchema { .object([.init("enabled", .boolean)]) }
    public static var example: TOTPDisabledResponse { TOTPDisabledResponse() }
}

extension TOTPStatusResponse: WireType {
    public static var schema: JSONSchema {
        .object([
            .init("enabled", .boolean),
            .init("recoveryCodesRemaining", .integer(minimum: 0)),
        ])
    }
    public static var example: TOTPStatusResponse { TOTPStatusResponse(enabled: true, recoveryCodesRemaining: 9) }
}
