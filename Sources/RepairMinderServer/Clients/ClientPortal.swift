import Foundation
import RepairMinderModels
import SQLKit

/// A client's access to the shop's customer portal (docs/API.md §14): their live sessions,
/// ending them, and the mail that invites them to sign in.
struct ClientPortal: Sendable {
    let database: Database
    let mail: MailQueue
    /// Where the invitation's link points: `<public-url>/portal`.
    let serverURL: String

    /// The page the invitation links to (an iOS universal link, so the app opens it).
    static let pagePath = "/portal"

    /// The client's live sessions with the shop, newest first.
    func sessions(clientId: String, companyId: String, now: Double) async throws -> [ClientSession] {
        try await database.withConnection { db in
            _ = try await ClientStore.live(id: clientId, companyId: companyId, on: db)
            return try await db.raw(
                """
                SELECT id, is_mobile, user_agent, ip_address, created_at, expires_at FROM customer_sessions
                WHERE client_id = \(bind: clientId) AND revoked_at IS NULL AND expires_at > \(bind: now)
                ORDER BY created_at DESC
                """
            ).all(decoding: SessionRow.self, with: AccountStore.rowDecoder).map(\.wire)
        }
    }

    /// Ends every live session of the client with the shop; how many there were.
    func signOut(clientId: String, by staff: AuthenticatedStaff, device: ClientDevice, now: Double) async throws -> Int {
        try await database.transaction { db in
            let client = try await ClientStore.live(id: clientId, companyId: staff.company.id, on: db)
            let revoked = try await Self.endSessions(clientId: clientId, now: now, on: db)
            try await ActivityLog.record(
                .clientSessionsRevoked, userId: staff.user.id, device: device, at: now, actor: staff,
                detail: ["clientId": clientId, "email": client.email, "revoked": String(revoked)], on: db)
            return revoked
        }
    }

    /// Mails the client an invitation to the portal, spending its per-client budget first
    /// (the shop's was spent before the call); 409 when their portal is switched off.
    func invite(clientId: String, call: RouteCall<EmptyPayload>, now: Double) async throws -> MessageResponse {
        let staff = try call.staff
        let client = try await database.withConnection { db in try await ClientStore.live(id: clientId, companyId: staff.company.id, on: db) }
        guard client.mayUsePortal else { throw APIError.clientPortalDisabled }
        try await call.spend(.portalInvitesPerClient, key: clientId)
        let message = PortalEmail.invitation(
            to: client.email, name: client.firstName, shop: staff.company.name, link: serverURL + Self.pagePath, now: now)
        let mail = self.mail
        try await database.transaction { db in
            try await mail.seal(message, now: now).enqueue(on: db)
            try await ActivityLog.record(
                .clientPortalInvited, userId: staff.user.id, device: call.device, at: now, actor: staff,
                detail: ["clientId": clientId, "email": client.email], on: db)
        }
        mail.deliverSoon()
        return MessageResponse(message: "Invitation sent to \(client.email)")
    }

    /// Ends the client's sessions in the caller's transaction; how many were live.
    @discardableResult
    static func endSessions(clientId: String, now: Double, on db: any SQLDatabase) async throws -> Int {
        try await db.raw(
            """
            UPDATE customer_sessions SET revoked_at = \(bind: now)
            WHERE client_id = \(bind: clientId) AND revoked_at IS NULL AND expires_at > \(bind: now) RETURNING id
            """
        ).all().count
    }

    private struct SessionRow: Decodable {
        var id: String
        var isMobile: Int
        var userAgent: String?
        var ipAddress: String?
        var createdAt: Double
        var expiresAt: Double

        var wire: ClientSession {
            ClientSession(
                id: id, isMobile: isMobile != 0, userAgent: userAgent, ipAddress: ipAddress, createdAt: Timestamp.iso8601(createdAt),
                expiresAt: Timestamp.iso8601(expiresAt))
        }
    }
}

/// The mail of a portal invitation.
enum PortalEmail {
    static func invitation(to email: String, name: String?, shop: String, link: String, now: Double) -> MailMessage {
        let greeting = name.map { "Hello \($0.unlinkable),\n\n" } ?? ""
        return MailMessage(
            to: email, subject: "Follow your repairs with Repair Minder",
            text: """
                \(greeting)\(shop.unlinkable) invites you to follow your repairs with them on Repair Minder: see where each repair is and approve quotes.

                Sign in with this address (\(email)) in the Repair Minder app or at \(link). There is no password: we email you a code each time.

                If you did not expect it, you can ignore this email.
                """,
            sentAt: Timestamp.iso8601(now))
    }
}
