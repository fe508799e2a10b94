import Foundation

/// The emails that carry codes (sign-in, registration, password reset), and the one that
/// answers a registration for an address that already has an account.
enum CodeEmail {
    static func twoFactor(to email: String, code: String, validMinutes: Int, now: Double) -> MailMessage {
        coded(
            to: email, subject: "Your Repair Minder verification code", kind: "verification", code: code, validMinutes: validMinutes,
            footer: "If you did not try to sign in, change your password.", now: now)
    }

    static func magicLink(to email: String, code: String, validMinutes: Int, now: Double) -> MailMessage {
        coded(
            to: email, subject: "Your Repair Minder sign-in code", kind: "sign-in", code: code, validMinutes: validMinutes,
            footer: "If you did not ask for it, you can ignore this email.", now: now)
    }

    static func customerLogin(to email: String, code: String, companies: [String], validMinutes: Int, now: Double) -> MailMessage {
        // Shop names go in the body only: a subject line is what spam filters and people judge
        // first, and a name is whatever its registrant typed.
        let shops = companies.count == 1 ? companies[0] : "your repair shops"
        return coded(
            to: email, subject: "Your Repair Minder login code", kind: "login", code: code, validMinutes: validMinutes,
            footer: "You asked to sign in to \(shops). If you did not ask for it, you can ignore this email.", now: now)
    }

    static func registration(to email: String, code: String, companyName: String, validMinutes: Int, now: Double) -> MailMessage {
        coded(
            to: email, subject: "Finish registering your shop with Repair Minder", kind: "registration", code: code,
            validMinutes: validMinutes,
            footer: "You are registering \(companyName.unlinkable). If you did not register a shop, you can ignore this email: "
                + "nothing is created without the code.", now: now)
    }

    static func passwordReset(to email: String, code: String, validMinutes: Int, now: Double) -> MailMessage {
        coded(
            to: email, subject: "Reset your Repair Minder password", kind: "password reset", code: code, validMinutes: validMinutes,
            footer: "If you did not ask to reset your password, you can ignore this email: your password stays as it is.", now: now)
    }

    /// Sent instead of a registration code when the address already has an account: no code,
    /// so registering cannot take an account over, and the answer on the web stays the same.
    static func accountExists(to email: String, now: Double) -> MailMessage {
        MailMessage(
            to: email, subject: "You already have a Repair Minder account",
            text: "Someone tried to register a new shop with this email address, which already has an account.\n\nIf it was you, sign in instead, or reset your password if you have forgotten it. If it was not, you can ignore this email.",
            sentAt: Timestamp.iso8601(now))
    }

    /// "Your <kind> code is <code>. It expires in <n> minutes." and a line on what to do if unasked.
    private static func coded(
        to email: String, subject: String, kind: String, code: String, validMinutes: Int, footer: String, now: Double
    ) -> MailMessage {
        MailMessage(
            to: email, subject: subject, text: "Your \(kind) code is \(code). It expires in \(validMinutes) minutes.\n\n\(footer)",
            sentAt: Timestamp.iso8601(now))
    }
}
