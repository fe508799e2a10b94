/// `POST /api/auth/totp/setup`'s answer (docs/API.md §2.10): the pending secret, for manual entry,
/// and the `otpauth://` URL an authenticator app scans.
public struct TOTPSetupResponse: Codable, Sendable, Equatable {
    public var secret: String
    public var otpauthUrl: String
    public init(secret: String, otpauthUrl: String) {
        self.secret = secret
        self.otpauthUrl = otpauthUrl
    }
}

/// The body of `verify-setup` and `disable`: a current TOTP code (or, to disable, a recovery code).
public struct TOTPCodeRequest: Codable, Sendable, Equatable {
    public var code: String
    public init(code: String) { self.code = code }
}

/// `verify-setup`'s answer: the recovery codes, shown this once.
public struct TOTPEnabledResponse: Codable, Sendable, Equatable {
    public var enabled: Bool
    public var recoveryCodes: [String]
    public init(recoveryCodes: [String]) {
        enabled = true
        self.recoveryCodes = recoveryCodes
    }
}

/// `disable`'s answer.
public struct TOTPDisabledResponse: Codable, Sendable, Equatable {
    public var enabled: Bool
    public init() { enabled = false }
}

/// `GET /api/auth/totp/status`'s answer.
public struct TOTPStatusResponse: Codable, Sendable, Equatable {
    public var enabled: Bool
    public var recoveryCodesRemaining: Int
    public init(enabled: Bool, recoveryCodesRemaining: Int) {
        self.enabled = enabled
        self.recoveryCodesRemaining = recoveryCodesRemaining
    }
}
