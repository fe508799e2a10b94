/// What a security event of the activity log was (docs/API.md §9.4).
public enum ActivityEventType: WireEnum {
    case loginSucceeded
    case loginFailed
    case twoFactorFailed
    case sessionRevoked
    case tokenReuseDetected
    case passwordChanged
    case passwordReset
    case totpEnabled
    case totpDisabled
    case recoveryCodeUsed
    case passkeyAdded
    case passkeyRemoved
    case registered
    /// An event a newer server records that this version has no name for.
    case unknown(String)

    /// The values this version knows: the OpenAPI document lists these.
    public static let allCases: [ActivityEventType] = [
        .loginSucceeded, .loginFailed, .twoFactorFailed, .sessionRevoked, .tokenReuseDetected, .passwordChanged,
        .passwordReset, .totpEnabled, .totpDisabled, .recoveryCodeUsed, .passkeyAdded, .passkeyRemoved, .registered,
    ]

    /// The value as the wire spells it.
    public var rawValue: String {
        switch self {
        case .loginSucceeded: "login_succeeded"
        case .loginFailed: "login_failed"
        case .twoFactorFailed: "two_factor_failed"
        case .sessionRevoked: "session_revoked"
        case .tokenReuseDetected: "token_reuse_detected"
        case .passwordChanged: "password_changed"
        case .passwordReset: "password_reset"
        case .totpEnabled: "totp_enabled"
        case .totpDisabled: "totp_disabled"
        case .recoveryCodeUsed: "recovery_code_used"
        case .passkeyAdded: "passkey_added"
        case .passkeyRemoved: "passkey_removed"
        case .registered: "registered"
        case .unknown(let raw): raw
        }
    }
}

/// One event of a staff user's activity log (`GET /api/auth/activity`): never a secret.
public struct ActivityEvent: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    /// The event's type; one this version does not know is `.unknown` with its raw string.
    public var type: ActivityEventType
    /// ISO 8601 UTC.
    public var at: String
    public var ipAddress: String?
    public var userAgent: String?
    /// The session the event happened in or to, when there is one.
    public var sessionId: String?
    public init(id: String, type: ActivityEventType, at: String, ipAddress: String?, userAgent: String?, sessionId: String?) {
        self.id = id
        self.type = type
        self.at = at
        self.ipAddress = ipAddress
        self.userAgent = userAgent
        self.sessionId = sessionId
    }

    /// The type, if this version knows it.
    public var knownType: ActivityEventType? { type.isKnown ? type : nil }

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

extension ActivityEvent: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("id", \.id, .nonEmptyText),
        .init("type", \.type, .cases(of: ActivityEventType.self)),
        .init("at", \.at, .timestamp),
        .init("ipAddress", \.ipAddress, .nullable(.text)),
        .init("userAgent", \.userAgent, .nullable(.text)),
        .init("sessionId", \.sessionId, .nullable(.text)),
    ]
    public static var schema: JSONSchema { .object(fields, description: "A security event of the caller's account") }
    public static var example: ActivityEvent {
        ActivityEvent(
            id: "2b9d4e1f-6a3c-4f7e-9d21-8c5b0a3e7f16", type: .loginSucceeded,
            at: WireExample.timestamp, ipAddress: "203.0.113.7", userAgent: "RepairMinder-iOS/1.0 (iPhone; iOS 18.0)",
            sessionId: "7c1e9a3b-4d2f-4b8e-a6c5-0e9f3d2b1a74")
    }
}
