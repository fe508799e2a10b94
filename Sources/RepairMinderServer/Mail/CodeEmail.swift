import Foundation

/// The emails that carry codes (sign-in, registration, password reset), and the one that
/// answers a registration for an address that already has an account.
enum CodeEmail {
    static func twoFactor(to email: String, code: String, validMinutes: Int, now: Double) -> MailMessage {
        MailMessage(
            to: email, subject: "Your Repair Minder verification code",
            text: "Your verification code is \(code). It expires in \(validMinutes) minutes.\n\nIf you did not try to sign in, change your password.",
            sentAt: Timestamp.iso8601(now))
    }

    static func magicLink(to email: String, code: String, validMinutes: Int, now: Double) -> MailMessage {
        MailMessage(
            to: email, subject: "Your Repair Minder sign-in code",
            text: "Your sign-in code is \(code). It expires in \(validMinutes) minutes.\n\nIf you did not ask for it, you can ignore this email.",
            sentAt: Timestamp.iso8601(now))
    }

    static func customerLogin(to email: String, code: String, companies: [String], validMinutes: Int, now: Double) -> MailMessage {
        let shops = companies.count == 1 ? companies[0] : "your repair shops"
        return MailMessage(
            to: email, subject: "Your login code for \(shops)",
            text: "Your login code is \(code). It expires in \(validMinutes) minutes.\n\nIf you did not ask for it, you can ignore this email.",
            sentAt: Timestamp.iso8601(now))
    }

    static func registration(to email: String, code: String, companyName: String, validMinutes: Int, now: Double) -> MailMessage {
        MailMessage(
            to: email, subject: "Finish registering \(companyName) with Repair Minder",
            text: "Your registration code is \(code). It expires in \(validMinutes) minutes.\n\nIf you did not register a shop, you can ignore this email: nothing is created without the code.",
            sentAt: Timestamp.iso8601(now))
    }

    /// Sent instead of a registration code when the address already has an account: no code,
    /// so registering cannot take an account over, and the answer on the web stays the same.
    static func accountExists(to email: String, now: Double) -> MailMessage {
        MailMessage(
            to: email, subject: "You already have a Repair Minder account",
            text: "Someone tried to register a new shop with this email address, which already has an account.\n\nIf it was you, sign in instead, or reset your password if you have forgotten it. If it was not, you can ignore this email.",
            sentAt: Timestamp.iso8601(now))
    }

    static func passwordReset(to email: String, code: String, validMinutes: Int, now: Double) -> MailMessage {
        MailMessage(
            to: email, subject: "Reset your Repair Minder password",
            text: "Your password reset code is \(code). It expires in \(validMinutes) minutes.\n\nIf you did not ask to reset your password, you can ignore this email: your password stays as it is.",
            sentAt: Timestamp.iso8601(now))
    }
}
