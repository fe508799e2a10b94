/// One email.
public struct MailMessage: Codable, Sendable, Equatable {
    public var to: String
    public var subject: String
    public var text: String
    public var sentAt: String

    public init(to: String, subject: String, text: String, sentAt: String) {
        self.to = to
        self.subject = subject
        self.text = text
        self.sentAt = sentAt
    }
}

/// Sends email. The development implementation is `OutboxMailer`; SMTP comes later.
public protocol Mailer: Sendable {
    func send(_ message: MailMessage) async throws
}
