/// The rules of each request body (docs/API.md §1–§5). Messages name the field.

extension LoginRequest: ValidatedRequest {
    public func validated() throws(FieldProblem) -> LoginRequest {
        LoginRequest(email: try FieldRules.email(email), password: try FieldRules.secret(password, "password"))
    }
}

extension TwoFactorCodeRequest: ValidatedRequest {
    public func validated() throws(FieldProblem) -> TwoFactorCodeRequest {
        TwoFactorCodeRequest(
            userId: try FieldRules.identifier(userId, "userId"), email: try FieldRules.email(email),
            challengeToken: try FieldRules.optionalIdentifier(challengeToken, "challengeToken"))
    }
}

extension TwoFactorVerifyRequest: ValidatedRequest {
    public func validated() throws(FieldProblem) -> TwoFactorVerifyRequest {
        TwoFactorVerifyRequest(
            userId: try FieldRules.identifier(userId, "userId"), code: try FieldRules.secondFactorCode(code),
            challengeToken: try FieldRules.optionalIdentifier(challengeToken, "challengeToken"))
    }
}

extension MagicLinkRequest: ValidatedRequest {
    public func validated() throws(FieldProblem) -> MagicLinkRequest {
        MagicLinkRequest(email: try FieldRules.email(email))
    }
}

extension MagicLinkVerifyRequest: ValidatedRequest {
    public func validated() throws(FieldProblem) -> MagicLinkVerifyRequest {
        MagicLinkVerifyRequest(email: try FieldRules.email(email), code: try FieldRules.sixDigitCode(code))
    }
}

extension RefreshRequest: ValidatedRequest {
    public func validated() throws(FieldProblem) -> RefreshRequest {
        // Longer than any token we issue: refused as invalid by the route, not as bad input.
        RefreshRequest(refreshToken: try FieldRules.text(refreshToken, "refreshToken", maxLength: 64 * 1024))
    }
}

extension TOTPCodeRequest: ValidatedRequest {
    /// 6 digits for verify-setup; disable also takes a recovery code (the route checks which).
    public func validated() throws(FieldProblem) -> TOTPCodeRequest {
        TOTPCodeRequest(code: try FieldRules.text(code, "code"))
    }
}

extension CustomerMagicLinkRequest: ValidatedRequest {
    public func validated() throws(FieldProblem) -> CustomerMagicLinkRequest {
        CustomerMagicLinkRequest(
            email: try FieldRules.email(email), companyId: try FieldRules.optionalIdentifier(companyId, "companyId"))
    }
}

extension CustomerVerifyCodeRequest: ValidatedRequest {
    public func validated() throws(FieldProblem) -> CustomerVerifyCodeRequest {
        CustomerVerifyCodeRequest(
            email: try FieldRules.email(email), code: try FieldRules.sixDigitCode(code),
            companyId: try FieldRules.optionalIdentifier(companyId, "companyId"))
    }
}

extension DeviceTokenRegistration: ValidatedRequest {
    public func validated() throws(FieldProblem) -> DeviceTokenRegistration {
        DeviceTokenRegistration(
            deviceToken: try FieldRules.text(deviceToken, "deviceToken", maxLength: 512), platform: platform,
            appType: appType)
    }
}

extension DeviceTokenRemoval: ValidatedRequest {
    public func validated() throws(FieldProblem) -> DeviceTokenRemoval {
        DeviceTokenRemoval(deviceToken: try FieldRules.text(deviceToken, "deviceToken", maxLength: 512))
    }
}

extension ForgotPasswordRequest: ValidatedRequest {
    public func validated() throws(FieldProblem) -> ForgotPasswordRequest {
        ForgotPasswordRequest(email: try FieldRules.email(email))
    }
}

extension ResetPasswordRequest: ValidatedRequest {
    public func validated() throws(FieldProblem) -> ResetPasswordRequest {
        ResetPasswordRequest(
            email: try FieldRules.email(email), code: try FieldRules.sixDigitCode(code),
            password: try FieldRules.secret(password, "password"))
    }
}

extension ChangePasswordRequest: ValidatedRequest {
    public func validated() throws(FieldProblem) -> ChangePasswordRequest {
        var current: String?
        if let currentPassword { current = try FieldRules.secret(currentPassword, "currentPassword") }
        return ChangePasswordRequest(currentPassword: current, newPassword: try FieldRules.secret(newPassword, "newPassword"))
    }
}

extension RegisterRequest: ValidatedRequest {
    public func validated() throws(FieldProblem) -> RegisterRequest {
        RegisterRequest(
            companyName: try FieldRules.text(companyName, "companyName", maxLength: 200),
            firstName: try FieldRules.text(firstName, "firstName", maxLength: 100),
            lastName: try FieldRules.text(lastName, "lastName", maxLength: 100), email: try FieldRules.email(email),
            password: try FieldRules.secret(password, "password"))
    }
}

extension RegisterVerifyRequest: ValidatedRequest {
    public func validated() throws(FieldProblem) -> RegisterVerifyRequest {
        RegisterVerifyRequest(email: try FieldRules.email(email), code: try FieldRules.sixDigitCode(code))
    }
}

extension REKIResetPasswordRequest: ValidatedRequest {
    /// Any token up to 1 KiB is looked up (a wrong one is "Invalid or expired reset token",
    /// not bad input); the new password is kept exactly as sent.
    public func validated() throws(FieldProblem) -> REKIResetPasswordRequest {
        REKIResetPasswordRequest(
            token: try FieldRules.text(token, "token"), newPassword: try FieldRules.secret(newPassword, "newPassword"))
    }
}
