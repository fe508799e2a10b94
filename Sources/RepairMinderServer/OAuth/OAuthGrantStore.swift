import Foundation
import RepairMinderModels
import SQLKit

/// A staff user as a connected app's session sees them: the account of the OpenID Connect
/// realm (`SessionRealm.oauth`), whose refresh tokens only `/oauth/token` exchanges.
struct OAuthGrantUser: SessionAccount {
    static var realm: SessionRealm { .oauth }
    let user: UserRecord
    var id: String { user.id }
    var canSignIn: Bool { user.canSignIn }

    init(from decoder: any Decoder) throws { user = try UserRecord(from: decoder) }

    /// A web session's: the app refreshes as a browser's session would.
    static func refreshLifetime(isMobile: Bool, settings: ServerSettings) -> Double { Double(settings.refreshTokenTTLWeb) }
}

/// An authorization code as stored, once claimed.
struct OAuthCodeRecord: Decodable, Sendable {
    var codeHash: String
    var appId: String
    var userId: String
    var redirectUri: String
    var scope: String
    var nonce: String?
    var codeChallenge: String
    var authTime: Double
    var amr: String?
    var expiresAt: Double
    var usedAt: Double?

    var scopes: [String] { scope.split(separator: " ").map(String.init) }
}

/// A connected app's session: one code's exchange and the refresh tokens after it.
struct OAuthSessionRecord: Decodable, Sendable {
    var id: String
    var userId: String
    var appId: String
    var scope: String
    var authTime: Double
    var amr: String?
    var revokedAt: Double?

    var scopes: [String] { scope.split(separator: " ").map(String.init) }
}

/// What people allowed apps (consents), the codes of authorizations and the sessions they
/// start (docs/API.md §16.3, §16.4). A code is claimed by one conditional statement, so of two
/// exchanges racing, on any instance, exactly one wins; the loser's answer revokes what the
/// winner got (RFC 6749 §4.1.2: a code used twice may have been stolen).
struct OAuthGrantStore: Sendable {
    let database: Database
    let revocation: SessionRevocation
    /// A code lives this long (docs/API.md §16.3; RFC 6749 advises at most 10 minutes).
    static let codeLifetime: Double = 60

    // MARK: Consents

    /// The scopes `userId` allowed app `appId`, if they ever did.
    func consent(userId: String, appId: String) async throws -> Set<String>? {
        try await database.withConnection { db in
            try await db.raw("SELECT scopes FROM oauth_consents WHERE user_id = \(bind: userId) AND app_id = \(bind: appId)")
                .first(decodingColumn: "scopes", as: String.self)
        }.map { Set($0.split(separator: " ").map(String.init)) }
    }

    // MARK: Codes

    /// A code for `userId`'s authorization of `app` (consent given, or kept from before: its
    /// scopes are added to the stored consent); returns the code, which is never stored.
    func issueCode(
        app: OAuthAppRecord, userId: String, redirectUri: String, scopes: [String], nonce: String?, codeChallenge: String,
        authTime: Double, amr: String?, consented: Bool, now: Double, device: ClientDevice
    ) async throws -> String {
        let code = RandomToken.base64URL(byteCount: 32)
        let scope = scopes.joined(separator: " ")
        try await database.transaction { db in
            if consented {
                let before = try await db.raw(
                    "SELECT scopes FROM oauth_consents WHERE user_id = \(bind: userId) AND app_id = \(bind: app.id)"
                ).first(decodingColumn: "scopes", as: String.self)
                let kept = Set((before ?? "").split(separator: " ").map(String.init)).union(scopes)
                let all = OAuthScope.all.filter(kept.contains).joined(separator: " ")
                try await db.raw(
                    """
                    INSERT INTO oauth_consents (user_id, app_id, scopes, granted_at) VALUES (\(bind: userId), \(bind: app.id), \(bind: all), \(bind: now))
                    ON CONFLICT (user_id, app_id) DO UPDATE SET scopes = \(bind: all), granted_at = \(bind: now)
                    """
                ).run()
                try await ActivityLog.record(
                    .oauthConsentGiven, userId: userId, device: device, at: now, companyId: app.companyId,
                    detail: ["clientId": app.clientId, "scope": scope], on: db)
            }
            try await db.raw(
                """
                INSERT INTO oauth_codes (code_hash, app_id, user_id, redirect_uri, scope, nonce, code_challenge, auth_time, amr,
                    created_at, expires_at)
                VALUES (\(bind: SecretHashing.tokenHash(code)), \(bind: app.id), \(bind: userId), \(bind: redirectUri), \(bind: scope),
                    \(bind: nonce), \(bind: codeChallenge), \(bind: authTime), \(bind: amr), \(bind: now), \(bind: now + Self.codeLifetime))
                """
            ).run()
            try await ActivityLog.record(
                .oauthAuthorized, userId: userId, device: device, at: now, companyId: app.companyId,
                detail: ["clientId": app.clientId, "scope": scope], on: db)
        }
        return code
    }

    /// What presenting `code` led to.
    enum Redemption: Sendable {
        /// Unused until now, and now used: the session it started (and its first refresh token).
        case redeemed(OAuthCodeRecord, sessionId: String, refreshToken: String?)
        /// Used before: a replay. What its first use started is revoked.
        case replayed
        /// Unknown, or past its 60 seconds.
        case invalid
    }

    /// Redeems `code` for its one use, in one transaction serialized on the code (on every
    /// instance): claimed by a conditional statement, checked by `check` (a refusal still spends
    /// it), and the session started, with a refresh token when `wantsRefreshToken` says so for
    /// the code's scopes. A code used before revokes every session its first use started; being
    /// serialized, that use's session exists by then.
    func redeem(
        code: String, now: Double, refreshTTL: Double, device: ClientDevice,
        check: @Sendable (OAuthCodeRecord) throws -> Void
    ) async throws -> Redemption {
        let hash = SecretHashing.tokenHash(code)
        let outcome: (Redemption, refusal: (any Error)?) = try await revocation.transaction(serializedOn: "oauth-code:" + hash) { ending in
            let db = ending.db
            let claimed = try await db.raw(
                """
                UPDATE oauth_codes SET used_at = \(bind: now)
                WHERE code_hash = \(bind: hash) AND used_at IS NULL AND expires_at > \(bind: now) RETURNING *
                """
            ).first(decoding: OAuthCodeRecord.self, with: AccountStore.rowDecoder)
            guard let claimed else {
                let found = try await db.raw("SELECT * FROM oauth_codes WHERE code_hash = \(bind: hash)")
                    .first(decoding: OAuthCodeRecord.self, with: AccountStore.rowDecoder)
                guard let found, found.usedAt != nil else { return (.invalid, nil) }
                let sessions = try await db.raw(
                    "SELECT id FROM oauth_sessions WHERE code_hash = \(bind: hash) AND revoked_at IS NULL"
                ).all(decodingColumn: "id", as: String.self)
                for id in sessions { try await ending.revoke(session: id, realm: .oauth, reason: "code_replayed", now: now) }
                try await ActivityLog.record(.oauthCodeReplayed, userId: found.userId, at: now, detail: ["appId": found.appId], on: db)
                return (.replayed, nil)
            }
            // Refused after the claim: the code stays spent (committed), nothing else is made.
            do {
                try check(claimed)
            } catch {
                return (.invalid, error)
            }
            let refreshToken = claimed.scopes.contains("offline_access") ? RandomToken.base64URL(byteCount: 32) : nil
            let id = try await Self.startSession(from: claimed, refreshToken: refreshToken, refreshTTL: refreshTTL, device: device, now: now, on: db)
            return (.redeemed(claimed, sessionId: id, refreshToken: refreshToken), nil)
        }
        if let refusal = outcome.refusal { throw refusal }
        return outcome.0
    }

    /// Starts the session a redeemed code makes, with its first refresh token when one is given.
    private static func startSession(
        from code: OAuthCodeRecord, refreshToken: String?, refreshTTL: Double, device: ClientDevice, now: Double, on db: any SQLDatabase
    ) async throws -> String {
        let id = UUID().uuidString.lowercased()
        let userAgent = device.userAgent.map { String($0.prefix(SessionStore.userAgentLimit)) }
        try await db.raw(
            """
            INSERT INTO oauth_sessions (id, user_id, app_id, scope, code_hash, auth_time, is_mobile, created_at, user_agent,
                ip_address, last_used_at, amr)
            VALUES (\(bind: id), \(bind: code.userId), \(bind: code.appId), \(bind: code.scope), \(bind: code.codeHash),
                \(bind: code.authTime), 0, \(bind: now), \(bind: userAgent), \(bind: device.ipAddress), \(bind: now), \(bind: code.amr))
            """
        ).run()
        if let refreshToken {
            try await db.raw(
                """
                INSERT INTO oauth_refresh_tokens (token_hash, session_id, issued_at, expires_at)
                VALUES (\(bind: SecretHashing.tokenHash(refreshToken)), \(bind: id), \(bind: now), \(bind: now + refreshTTL))
                """
            ).run()
        }
        return id
    }

    /// Session `id`, live or not.
    func session(_ id: String) async throws -> OAuthSessionRecord? {
        try await database.withConnection { db in
            try await db.raw("SELECT * FROM oauth_sessions WHERE id = \(bind: id)")
                .first(decoding: OAuthSessionRecord.self, with: AccountStore.rowDecoder)
        }
    }

    /// The session refresh token `token` belongs to, if it is one of ours: spent or not, or with
    /// `usableAt`, only while it can still be exchanged then (not rotated, not expired).
    func session(ofRefreshToken token: String, usableAt now: Double? = nil) async throws -> OAuthSessionRecord? {
        let usable: SQLQueryString = now.map { " AND rt.rotated_at IS NULL AND rt.expires_at > \(bind: $0)" } ?? ""
        return try await database.withConnection { db in
            try await db.raw(
                """
                SELECT s.* FROM oauth_refresh_tokens rt JOIN oauth_sessions s ON s.id = rt.session_id
                WHERE rt.token_hash = \(bind: SecretHashing.tokenHash(token))\(usable)
                """
            ).first(decoding: OAuthSessionRecord.self, with: AccountStore.rowDecoder)
        }
    }

    /// Ends session `id` (a revocation, a logout); true when it was live.
    @discardableResult
    func revoke(session id: String, reason: String, now: Double) async throws -> Bool {
        try await revocation.transaction { try await $0.revoke(session: id, realm: .oauth, reason: reason, now: now) }
    }

    /// Takes back everything `userId` allowed app `appId`: the consent and every session
    /// (docs/API.md §16.3, My account → Connected apps).
    func withdraw(userId: String, appId: String, device: ClientDevice, now: Double) async throws -> Int {
        try await revocation.transaction { ending in
            try await ending.db.raw("DELETE FROM oauth_consents WHERE user_id = \(bind: userId) AND app_id = \(bind: appId)").run()
            let sessions = try await ending.db.raw(
                "SELECT id FROM oauth_sessions WHERE user_id = \(bind: userId) AND app_id = \(bind: appId) AND revoked_at IS NULL"
            ).all(decodingColumn: "id", as: String.self)
            for id in sessions { try await ending.revoke(session: id, realm: .oauth, reason: "consent_withdrawn", now: now) }
            try await ActivityLog.record(
                .oauthConsentWithdrawn, userId: userId, device: device, at: now, detail: ["appId": appId], on: ending.db)
            return sessions.count
        }
    }

    /// The apps `userId` allowed, newest first, with the scopes, when, and whose app it is.
    func consentedApps(userId: String) async throws -> [(app: OAuthAppRecord, owner: String, scopes: [String], grantedAt: Double)] {
        let rows = try await database.withConnection { db in
            try await db.raw(
                """
                SELECT c.app_id, c.scopes, c.granted_at, co.name AS owner FROM oauth_consents c
                JOIN oauth_apps a ON a.id = c.app_id LEFT JOIN companies co ON co.id = a.company_id
                WHERE c.user_id = \(bind: userId) ORDER BY c.granted_at DESC, c.app_id
                """
            ).all()
        }
        let apps = OAuthAppStore(database: database)
        var found: [(OAuthAppRecord, String, [String], Double)] = []
        for row in rows {
            guard let app = try await apps.app(id: try row.decode(column: "app_id", as: String.self)) else { continue }
            found.append(
                (app, try row.decode(column: "owner", as: String?.self) ?? "Repair Minder",
                 try row.decode(column: "scopes", as: String.self).split(separator: " ").map(String.init),
                 try row.decode(column: "granted_at", as: Double.self)))
        }
        return found
    }
}
