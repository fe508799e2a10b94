import Foundation

/// The emails that carry sign-in codes.
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

    static func passwordReset(to email: String, code: String, validMinutes: Int, now: Double) -> MailMessage {
        MailMessage(
            to: email, subject: "Reset your Repair Minder password",
            text: "Your password reset code is \(code). It expires in \(validMinutes) minutes.\n\nIf you did not ask to reset your password, you can ignore this email: your password stays as it is.",
            sentAt: Timestamp.iso8601(now))
    }
}
