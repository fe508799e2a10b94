import Foundation
import RepairMinderModels

/// The mail of `repairminder admin create`: an invitation to administer the platform.
enum PlatformAdminEmail {
    /// The link, and what the platform's policy asks before anything else (a passkey, at
    /// once or within its grace period). Names stay out of the subject, as `TeamEmail`'s. It
    /// names no inviter: the operator's OS account means nothing to the invitee.
    static func invitation(
        to email: String, name: String, company: String, link: String, validDays: Int, policy: ShopPolicy, now: Double
    ) -> MailMessage {
        MailMessage(
            to: email, subject: "You are invited to administer Repair Minder",
            text: """
                Hello \(name),

                The operators of Repair Minder invited you to be a platform administrator (\(company)): you will manage every \
                shop on it.

                Accept the invitation: \(link)

                \([
                    "The link works once and expires in \(validDays) days.", requirement(policy),
                    "If you did not expect it, you can ignore this email.",
                ].filter { !$0.isEmpty }.joined(separator: " "))
                """,
            sentAt: Timestamp.iso8601(now))
    }

    /// What the invitee must do once they have accepted.
    private static func requirement(_ policy: ShopPolicy) -> String {
        let factor =
            switch policy.requiredFactor {
            case .notRequired: ""
            case .appOrPasskey: "an authenticator app or a passkey"
            case .passkey, .unknown: "a passkey"
            }
        guard !factor.isEmpty else { return "" }
        let when = policy.enrolmentGraceDays == 0 ? "before anything else" : "within \(policy.enrolmentGraceDays) days"
        return "The platform requires \(factor): once you have accepted, add one in the Repair Minder app or a browser \(when)."
    }
}
