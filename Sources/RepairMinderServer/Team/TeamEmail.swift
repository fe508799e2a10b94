import Foundation
import RepairMinderModels

/// The team's mails (docs/API.md §12): an invitation, the answer to an invitation of an address
/// that already has an account, and the notice of an admin's reset of someone's sign-in methods.
enum TeamEmail {
    /// Shop names and people's names go in the body only, never the subject: a subject line is
    /// what spam filters judge first, and a name is whatever someone typed; in the body they
    /// cannot become links (`unlinkable`).
    static func invitation(
        to email: String, shop: String, invitedBy: String, role: UserRole, link: String, validDays: Int, now: Double
    ) -> MailMessage {
        MailMessage(
            to: email, subject: "You are invited to join a team on Repair Minder",
            text: """
                \(invitedBy.unlinkable) invited you to join \(shop.unlinkable) on Repair Minder as \(role.spokenName).

                Accept the invitation: \(link)

                The link works once and expires in \(validDays) days. If you did not expect it, you can ignore this email.
                """,
            sentAt: Timestamp.iso8601(now))
    }

    /// An invitation to an address that has a staff account already: one address belongs to one
    /// shop, so this invitation cannot be accepted; the mail says how to sign in instead.
    static func accountExists(to email: String, shop: String, signInURL: String, now: Double) -> MailMessage {
        MailMessage(
            to: email, subject: "You already have a Repair Minder account",
            text: """
                \(shop.unlinkable) invited this address to its team on Repair Minder, but the address already has a Repair Minder account, \
                and an account belongs to one shop.

                Sign in at \(signInURL) with your account, or ask the shop to invite another address. If you have forgotten your \
                password, reset it from the sign-in screen.
                """,
            sentAt: Timestamp.iso8601(now))
    }

    static func factorsReset(to email: String, shop: String, now: Double) -> MailMessage {
        MailMessage(
            to: email, subject: "Your Repair Minder sign-in methods were reset",
            text: """
                An admin of \(shop.unlinkable) reset your sign-in methods: your authenticator app, recovery codes and passkeys were removed, \
                and you were signed out everywhere.

                Sign in with your password and the code we email you, then set up an authenticator app or a passkey again. If you \
                did not ask for this, contact your shop's admin.
                """,
            sentAt: Timestamp.iso8601(now))
    }
}

extension UserRole {
    /// The role as a sentence says it ("a senior engineer").
    var spokenName: String {
        switch self {
        case .masterAdmin: "a platform administrator"
        case .admin: "an admin"
        case .seniorEngineer: "a senior engineer"
        case .engineer: "an engineer"
        case .office: "office staff"
        case .unknown(let raw): raw
        }
    }
}
