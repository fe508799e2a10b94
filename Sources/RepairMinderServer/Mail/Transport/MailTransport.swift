/// Takes a queued message the last step: to the mail server, or to the development outbox.
///
/// `handingOver` is called once, just before the step after which the message may have
/// arrived (SMTP: the end of DATA). The queue records it, so a crash or a lost reply after it
/// is known to be "in doubt" rather than "not sent" (see `MailQueue`). If it throws, nothing
/// is handed over.
public protocol MailTransport: Sendable {
    /// Delivers `message` with the stable `messageID` of its queue entry (the same on every retry,
    /// so a duplicate after a crash is recognisable as one). Throws `MailDeliveryError`.
    func deliver(
        _ message: MailMessage, messageID: String, handingOver: @escaping @Sendable () async throws -> Void
    ) async throws
}

/// Why a delivery did not happen, and whether trying again can help.
public struct MailDeliveryError: Error, CustomStringConvertible {
    /// A 5xx reply (no such user, message refused): retrying cannot help.
    public let isPermanent: Bool
    /// Whether the mail server answered at all; a failure without an answer after hand-over
    /// leaves the delivery in doubt.
    public let hadReply: Bool
    public let description: String

    public init(isPermanent: Bool, hadReply: Bool, description: String) {
        self.isPermanent = isPermanent
        self.hadReply = hadReply
        self.description = description
    }
}
