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
    // The team (§12): each names the admin who acted (`ActivityEvent.actor`).
    case invitationSent
    case invitationRevoked
    case invitationAccepted
    case roleChanged
    case userDeactivated
    case userReactivated
    case userArchived
    case sessionsRevokedByAdmin
    case factorsReset
    /// A member's names or emailed-code sign-in changed (`detail`: the fields as they now are).
    case memberUpdated
    /// The shop's security policy changed (docs/API.md §13).
    case policyChanged
    /// A client of the shop was added, changed or deleted (docs/API.md §14).
    case clientCreated
    case clientUpdated
    case clientDeleted
    /// A client was mailed an invitation to the portal, signed out, or clients were imported.
    case clientPortalInvited
    case clientSessionsRevoked
    case clientsImported
    /// The shop's clients were exported (a bulk read of personal data).
    case clientsExported
    /// A connected app was allowed scopes, given an authorization code, had a code used twice
    /// (what it started was revoked), or was taken back (docs/API.md §16; `detail.clientId`).
    case oauthConsentGiven
    case oauthAuthorized
    case oauthCodeReplayed
    case oauthConsentWithdrawn
    /// An event a newer server records that this version has no name for.
    case unknown(String)

    /// The values this version knows: the OpenAPI document lists these.
    public static let allCases: [ActivityEventType] = [
        .loginSucceeded, .loginFailed, .twoFactorFailed, .sessionRevoked, .tokenReuseDetected, .passwordChanged,
        .passwordReset, .totpEnabled, .totpDisabled, .recoveryCodeUsed, .passkeyAdded, .passkeyRemoved, .registered,
        .invitationSent, .invitationRevoked, .invitationAccepted, .roleChanged, .userDeactivated, .userReactivated,
        .userArchived, .sessionsRevokedByAdmin, .factorsReset, .memberUpdated, .policyChanged,
        .clientCreated, .clientUpdated, .clientDeleted, .clientPortalInvited, .clientSessionsRevoked, .clientsImported,
        .clientsExported, .oauthConsentGiven, .oauthAuthorized, .oauthCodeReplayed, .oauthConsentWithdrawn,
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
        case .invitationSent: "invitation_sent"
        case .invitationRevoked: "invitation_revoked"
        case .invitationAccepted: "invitation_accepted"
        case .roleChanged: "role_changed"
        case .userDeactivated: "user_deactivated"
        case .userReactivated: "user_reactivated"
        case .userArchived: "user_archived"
        case .sessionsRevokedByAdmin: "sessions_revoked_by_admin"
        case .factorsReset: "factors_reset"
        case .memberUpdated: "member_updated"
        case .policyChanged: "policy_changed"
        case .clientCreated: "client_created"
        case .clientUpdated: "client_updated"
        case .clientDeleted: "client_deleted"
        case .clientPortalInvited: "client_portal_invited"
        case .clientSessionsRevoked: "client_sessions_revoked"
        case .clientsImported: "clients_imported"
        case .clientsExported: "clients_exported"
        case .oauthConsentGiven: "oauth_consent_given"
        case .oauthAuthorized: "oauth_authorized"
        case .oauthCodeReplayed: "oauth_code_replayed"
        case .oauthConsentWithdrawn: "oauth_consent_withdrawn"
        case .unknown(let raw): raw
        }
    }
}

extension ActivityEventType {
    /// The event as a person reads it (the console's tables, `repairminder activity`); one with
    /// no words here, as the API names it ("Client created").
    public var spokenName: String {
        if let words { return words }
        let words = rawValue.replacingOccurrences(of: "_", with: " ")
        return words.prefix(1).uppercased() + words.dropFirst()
    }

    private var words: String? {
        switch self {
        case .loginSucceeded: "Signed in"
        case .loginFailed: "Wrong password"
        case .twoFactorFailed: "Wrong code"
        case .sessionRevoked: "Signed out a device"
        case .tokenReuseDetected: "A stolen session was stopped"
        case .oauthConsentGiven: "Allowed an app"
        case .oauthAuthorized: "Signed in to an app"
        case .oauthCodeReplayed: "An app's sign-in was used twice and ended"
        case .oauthConsentWithdrawn: "Took back an app's access"
        case .passwordChanged: "Password changed"
        case .passwordReset: "Password reset"
        case .totpEnabled: "Authenticator app set up"
        case .totpDisabled: "Authenticator app turned off"
        case .recoveryCodeUsed: "Recovery code used"
        case .passkeyAdded: "Passkey added"
        case .passkeyRemoved: "Passkey removed"
        case .registered: "Registered"
        case .roleChanged: "Role changed"
        case .userDeactivated: "Deactivated"
        case .userReactivated: "Reactivated"
        case .sessionsRevokedByAdmin: "Signed out everywhere by an admin"
        case .factorsReset: "Sign-in methods reset"
        case .policyChanged: "Shop security policy changed"
        default: nil
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
    /// The admin who did it, when it was not the user (the team's events, docs/API.md §12).
    public var actor: ActorSummary?
    /// What changed, for events that say: `from` and `to` of `role_changed`, the invitee's
    /// `email` of the invitations' events.
    public var detail: [String: String]?
    public init(
        id: String, type: ActivityEventType, at: String, ipAddress: String?, userAgent: String?, sessionId: String?,
        actor: ActorSummary? = nil, detail: [String: String]? = nil
    ) {
        self.id = id
        self.type = type
        self.at = at
        self.ipAddress = ipAddress
        self.userAgent = userAgent
        self.sessionId = sessionId
        self.actor = actor
        self.detail = detail
    }

    /// The type, if this version knows it.
    public var knownType: ActivityEventType? { type.isKnown ? type : nil }

    enum CodingKeys: String, CodingKey {
        case id, type, at, ipAddress, userAgent, sessionId, actor, detail
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
        .init("actor", \.actor, .ref(ActorSummary.self), required: false),
        .init(
            "detail", \.detail,
            .object(
                [.init("from", .text, required: false), .init("to", .text, required: false), .init("email", .email, required: false)],
                description: "role_changed: from and to; the invitations' events: the invitee's email"),
            required: false),
    ]
    public static var schema: JSONSchema { .object(fields, description: "A security event of the caller's account") }
    public static var example: ActivityEvent {
        ActivityEvent(
            id: "2b9d4e1f-6a3c-4f7e-9d21-8c5b0a3e7f16", type: .loginSucceeded,
            at: WireExample.timestamp, ipAddress: "203.0.113.7", userAgent: "RepairMinder-iOS/1.0 (iPhone; iOS 18.0)",
            sessionId: "7c1e9a3b-4d2f-4b8e-a6c5-0e9f3d2b1a74")
    }
}
