/// What a security event of the activity log was (docs/API.md §9.4).
public enum ActivityEventType: String, Codable, Sendable, CaseIterable {
    case loginSucceeded = "login_succeeded"
    case loginFailed = "login_failed"
    case twoFactorFailed = "two_factor_failed"
    case sessionRevoked = "session_revoked"
    case tokenReuseDetected = "token_reuse_detected"
    case passwordChanged = "password_changed"
    case passwordReset = "password_reset"
    case totpEnabled = "totp_enabled"
    case totpDisabled = "totp_disabled"
    case recoveryCodeUsed = "recovery_code_used"
    case passkeyAdded = "passkey_added"
    case passkeyRemoved = "passkey_removed"
    case registered
}

/// One event of a staff user's activity log (`GET /api/auth/activity`): never a secret.
public struct ActivityEvent: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    /// The event's type; a client keeps a type this version does not know as its raw string.
    public var type: String
    /// ISO 8601 UTC.
    public var at: String
    public var ipAddress: String?
    public var userAgent: String?
    /// The session the event happened in or to, when there is one.
    public var sessionId: String?
    public init(id: String, type: String, at: String, ipAddress: String?, userAgent: String?, sessionId: String?) {
        self.id = id
        self.type = type
        self.at = at
        self.ipAddress = ipAddress
        self.userAgent = userAgent
        self.sessionId = sessionId
    }

    /// The type, if this version knows it.
    public var knownType: ActivityEventType? { ActivityEventType(rawValue: type) }

    enum CodingKeys: String, CodingKey {
        case id, type, at, ipAddress, userAgent, sessionId
    }

    public func encode(to encoder: any Encoder) throws {
        // Explicit so unknown values are sent as `null`, not left out.
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(type, forKey: .type)
        try c.encode(at, forKey: .at)
        try c.encode(ipAddress, forKey: .ipAddress)
        try c.encode(userAgent, forKey: .userAgent)
        try c.encode(sessionId, forKey: .sessionId)
    }
}
