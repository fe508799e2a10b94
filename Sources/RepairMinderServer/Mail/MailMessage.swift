/// One email as the server writes it: queued (`MailQueue`), then delivered by a `MailTransport`.
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
