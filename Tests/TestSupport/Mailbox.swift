import Foundation
import Logging
import RepairMinderServer

/// What the server mailed, read from its mail queue: every message a request committed, at once,
/// whether or not the delivery worker has sent it yet.
public enum Mailbox {
    /// The messages queued to `email`, oldest first.
    public static func messages(to email: String, settings: ServerSettings) async throws -> [MailMessage] {
        var logger = Logger(label: "mailbox")
        logger.logLevel = .critical
        let database = try await Database.open(settings: settings, logger: logger)
        do {
            let messages = try await MailQueue(database: database, encryptionKey: settings.resolvedEncryptionKey()).messages(to: email)
            await database.close()
            return messages
        } catch {
            await database.close()
            throw error
        }
    }

    /// The six-digit code of the newest message to `email`.
    public static func latestCode(to email: String, settings: ServerSettings) async throws -> String? {
        code(in: try await messages(to: email, settings: settings).last)
    }

    /// The six-digit code in `message`.
    public static func code(in message: MailMessage?) -> String? {
        guard let text = message?.text, let range = text.range(of: #"\d{6}"#, options: .regularExpression) else { return nil }
        return String(text[range])
    }

    /// The messages the outbox transport has written to `email` so far, waiting up to `timeout`
    /// seconds until there are more than `count` (delivery runs after the request answered).
    public static func outbox(to email: String, dataDirectory: String, moreThan count: Int = 0, timeout: Double = 10) throws -> [MailMessage] {
        let path = OutboxTransport.path(dataDirectory: dataDirectory)
        var messages = try OutboxTransport.read(path: path).filter { $0.to == email }
        // What is there at the deadline is the answer (the caller checks it), not an error.
        try? waitUntilBlocking("more than \(count) messages to \(email)", timeout: .seconds(timeout), interval: .milliseconds(50)) {
            messages = try OutboxTransport.read(path: path).filter { $0.to == email }
            return messages.count > count
        }
        return messages
    }
}
