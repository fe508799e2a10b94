/// Whose sessions: Repair Minder staff, or REKI's users (docs/API.md §10). Both keep their
/// sessions and rotating refresh tokens in tables of the same shape, so one implementation
/// (`SessionStore`, `RefreshTokenRotation`, `Purge`) serves both; only the table names differ,
/// and what hangs off a staff session.
struct SessionRealm: Sendable, Hashable {
    /// The sessions table (`id`, `user_id`, `is_mobile`, `created_at`, `revoked_at`,
    /// `revoked_reason`, `user_agent`, `ip_address`, `last_used_at`).
    let sessions: String
    /// Its refresh tokens (`token_hash`, `session_id`, `issued_at`, `expires_at`, `rotated_at`, `successor_hash`).
    let refreshTokens: String
    /// The accounts `user_id` names.
    let accounts: String
    /// Staff sessions own push device tokens and write the activity log (docs/API.md §9.4),
    /// both of which reference staff users; REKI has neither.
    let isStaff: Bool

    static let staff = SessionRealm(sessions: "sessions", refreshTokens: "refresh_tokens", accounts: "users", isStaff: true)
    static let reki = SessionRealm(
        sessions: "reki_sessions", refreshTokens: "reki_refresh_tokens", accounts: "reki_users", isStaff: false)
    /// What staff members allowed connected apps (docs/API.md §16): sessions of staff users that
    /// only the app's token endpoint refreshes, with no device tokens.
    static let oauth = SessionRealm(
        sessions: "oauth_sessions", refreshTokens: "oauth_refresh_tokens", accounts: "users", isStaff: false)
    static let all: [SessionRealm] = [.staff, .reki, .oauth]

    /// Whether the sessions' accounts are staff users, whose audit log records a stolen refresh token.
    var auditsStaffUsers: Bool { accounts == Self.staff.accounts }
}

/// An account that signs in to sessions of a realm: what `RefreshTokenRotation` reads back
/// with a token (decoded from the account table's row).
protocol SessionAccount: Decodable, Sendable {
    static var realm: SessionRealm { get }
    var id: String { get }
    /// False once the account may not use its sessions any more (deactivated, archived).
    var canSignIn: Bool { get }
    /// Seconds a new refresh token of this realm lives, sliding with each rotation.
    static func refreshLifetime(isMobile: Bool, settings: ServerSettings) -> Double
}

extension UserRecord: SessionAccount {
    static var realm: SessionRealm { .staff }
    /// docs/API.md §2.7: longer for the mobile apps.
    static func refreshLifetime(isMobile: Bool, settings: ServerSettings) -> Double {
        Double(isMobile ? settings.refreshTokenTTLMobile : settings.refreshTokenTTLWeb)
    }
}

extension SessionAccount {
    /// When a refresh token issued `now` in a session that began at `sessionStart` expires:
    /// after its sliding lifetime, but never past the session's absolute end.
    static func refreshExpiry(now: Double, sessionStart: Double, isMobile: Bool, settings: ServerSettings) -> Double {
        min(now + refreshLifetime(isMobile: isMobile, settings: settings), sessionStart + settings.sessionMaxLifetime(isMobile: isMobile))
    }

    /// A new session's first refresh token's lifetime.
    static func firstRefreshLifetime(isMobile: Bool, settings: ServerSettings) -> Double {
        refreshExpiry(now: 0, sessionStart: 0, isMobile: isMobile, settings: settings)
    }
}
