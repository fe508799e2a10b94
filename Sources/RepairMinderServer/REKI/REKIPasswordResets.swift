import Foundation
import SQLKit

/// REKI's reset links (docs/API.md §10): `<public-url>/reset-password?token=<64 hex>`, valid
/// one hour, usable once. Only the token's SHA-256 hash is stored: it is 256 random bits, so a
/// slow salted hash would add nothing but cost.
struct REKIPasswordResets: Sendable {
    let database: Database
    let mail: MailQueue

    static let lifetime: Double = 3600

    /// Stores a new token for `user` and queues its link in one transaction, then wakes the
    /// mail worker. Earlier links stay valid until they expire or one of them is used.
    func issue(for user: REKIUserRecord, publicURL: String, now: Double) async throws {
        let token = RandomToken.hex(byteCount: 32)
        let message = REKIResetEmail.message(to: user.email, link: Self.link(token: token, publicURL: publicURL), now: now)
        let sealed = try mail.seal(message, now: now)
        try await database.transaction { db in
            try await db.raw(
                """
                INSERT INTO reki_password_resets (token_hash, user_id, created_at, expires_at)
                VALUES (\(bind: SecretHashing.tokenHash(token)), \(bind: user.id), \(bind: now), \(bind: now + Self.lifetime))
                """
            ).run()
            try await sealed.enqueue(on: db)
        }
        mail.deliverSoon()
    }

    /// The link a person follows to reset their password.
    static func link(token: String, publicURL: String) -> String {
        (publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL) + "/reset-password?token=" + token
    }

    /// The user of `token` if it is live (not used, not expired); nothing is changed.
    func liveToken(_ token: String, now: Double) async throws -> String? {
        try await database.withConnection { db in
            try await db.raw(
                """
                SELECT user_id FROM reki_password_resets
                WHERE token_hash = \(bind: SecretHashing.tokenHash(token)) AND used_at IS NULL AND expires_at > \(bind: now)
                """
            ).first(decodingColumn: "user_id", as: String.self)
        }
    }

    /// What became of a link, for the page it opens (`REKIResetPageController`) to say why it
    /// no longer works.
    enum LinkState: Sendable, Equatable {
        case live, used, expired, unknown
    }

    /// The state of `token`'s link; nothing is changed (mail scanners open links too).
    func state(of token: String, now: Double) async throws -> LinkState {
        try await database.withConnection { db in
            guard
                let row = try await db.raw(
                    "SELECT used_at, expires_at FROM reki_password_resets WHERE token_hash = \(bind: SecretHashing.tokenHash(token))"
                ).first()
            else { return .unknown }
            // A used link says so even once it has expired too: "used" tells the person more.
            if try row.decode(column: "used_at", as: Double?.self) != nil { return .used }
            return try row.decode(column: "expires_at", as: Double.self) > now ? .live : .expired
        }
    }

    /// Uses `token` up inside the caller's transaction and returns its user's id, along with
    /// every other live link of that user (a new password makes them pointless); nil when the
    /// token is unknown, used or expired. Conditional, so of concurrent resets exactly one wins.
    static func consume(_ token: String, now: Double, on db: any SQLDatabase) async throws -> String? {
        guard
            let userId = try await db.raw(
                """
                UPDATE reki_password_resets SET used_at = \(bind: now)
                WHERE token_hash = \(bind: SecretHashing.tokenHash(token)) AND used_at IS NULL AND expires_at > \(bind: now)
                RETURNING user_id
                """
            ).first(decodingColumn: "user_id", as: String.self)
        else { return nil }
        try await db.raw(
            "UPDATE reki_password_resets SET used_at = \(bind: now) WHERE user_id = \(bind: userId) AND used_at IS NULL"
        ).run()
        return userId
    }
}

/// The email that carries a REKI reset link.
enum REKIResetEmail {
    static func message(to email: String, link: String, now: Double) -> MailMessage {
        MailMessage(
            to: email, subject: "Reset your REKI password",
            text: """
                Someone asked to reset the password of your REKI account. To choose a new one, open this link within an hour:

                \(link)

                The link works once. If you did not ask for it, you can ignore this email: your password stays as it is.
                """,
            sentAt: Timestamp.iso8601(now))
    }
}
