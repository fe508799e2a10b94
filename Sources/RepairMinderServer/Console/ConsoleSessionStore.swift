import Foundation
import SQLKit

/// The web console's sessions (docs/API.md §15.6): rows of the staff sessions table, so each is
/// listed among the account's signed-in devices, ended by any revocation and purged as any
/// session is; a browser holds one by the token in its cookie, stored only as its SHA-256.
struct ConsoleSessionStore: Sendable {
    let database: Database

    /// A console session unused this long has ended (OWASP's guidance for a console of this
    /// kind is hours, not days; its absolute lifetime is a web session's).
    static let idleLimit: Double = 12 * 3600

    /// A live console session: who it is and how they signed in.
    struct Live: Decodable, Sendable {
        let id: String
        let userId: String
        let role: String
        let companyId: String
        let amr: String?
        /// When the sign-in started it: where the shop's current lifetime counts from.
        let createdAt: Double
    }

    /// Makes `sessionId`, which a sign-in just started, the console's: held by `token`, and
    /// ending `lifetime` seconds after `now` (the absolute lifetime of a web session under the
    /// shop's policy) unless it is idle for `idleLimit` first. Its refresh token was never handed
    /// out, so only the cookie can use the session.
    func adopt(sessionId: String, token: String, lifetime: Double, now: Double) async throws {
        try await database.transaction { db in
            try await db.raw(
                "UPDATE sessions SET console_token_hash = \(bind: SecretHashing.tokenHash(token)) WHERE id = \(bind: sessionId)"
            ).run()
            try await db.raw(
                "UPDATE refresh_tokens SET expires_at = \(bind: now + lifetime) WHERE session_id = \(bind: sessionId)"
            ).run()
        }
    }

    /// The live session `token` holds: not revoked, used within `idleLimit`, before its end.
    func live(token: String, now: Double) async throws -> Live? {
        try await database.withConnection { db in
            try await db.raw(
                """
                SELECT s.id, s.user_id, s.amr, s.created_at, u.role, u.company_id FROM sessions s JOIN users u ON u.id = s.user_id
                WHERE s.console_token_hash = \(bind: SecretHashing.tokenHash(token)) AND s.revoked_at IS NULL
                  AND COALESCE(s.last_used_at, s.created_at) > \(bind: now - Self.idleLimit)
                  AND EXISTS (SELECT 1 FROM refresh_tokens WHERE session_id = s.id AND expires_at > \(bind: now))
                """
            ).first(decoding: Live.self, with: AccountStore.rowDecoder)
        }
    }
}
