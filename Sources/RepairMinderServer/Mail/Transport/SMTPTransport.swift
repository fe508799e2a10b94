import Foundation
import RepairMinderModels

/// Delivers queued mail to an SMTP server (`--smtp-url`), one connection per message.
struct SMTPTransport: MailTransport {
    let client: SMTPClient
    let sender: MailAddress

    init(settings: ServerSettings) throws {
        guard let url = settings.smtpURL, let from = settings.mailFrom else {
            throw SettingsError("SMTP delivery needs --smtp-url and --mail-from")
        }
        client = try SMTPClient(url: url, caFile: settings.smtpCAFile)
        sender = try MailAddress(parsing: from)
    }

    func deliver(_ message: MailMessage, messageID: String, handingOver: @escaping @Sendable () async throws -> Void) async throws {
        do {
            try await client.deliver(
                message, from: sender, localID: messageID, date: Timestamp.date(iso8601: message.sentAt),
                beforeEndOfData: handingOver)
        } catch let error as SMTPError {
            throw MailDeliveryError(
                stage: error.stage, replyCode: error.code, isPermanent: error.isPermanent, hadReply: error.code != nil,
                description: error.description)
        } catch let error as MailFormatError {
            // A message that cannot be written safely never will be.
            throw MailDeliveryError(stage: .compose, isPermanent: true, hadReply: false, description: error.summary)
        } catch {
            throw MailDeliveryError.of(error)
        }
    }
}
