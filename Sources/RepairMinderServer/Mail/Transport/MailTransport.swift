import RepairMinderModels

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
    /// Where the attempt failed: what the queue records of it for docs/API.md §15.5.
    public let stage: MailFailureStage
    /// The mail server's reply code, when a reply was the failure.
    public let replyCode: Int?
    /// A 5xx reply (no such user, message refused): retrying cannot help.
    public let isPermanent: Bool
    /// Whether the mail server answered at all; a failure without an answer after hand-over
    /// leaves the delivery in doubt.
    public let hadReply: Bool
    /// What logs and the queue's `last_error` hold: never an address or the server's words.
    public let description: String

    public init(stage: MailFailureStage, replyCode: Int? = nil, isPermanent: Bool, hadReply: Bool, description: String) {
        self.stage = stage
        self.replyCode = replyCode
        self.isPermanent = isPermanent
        self.hadReply = hadReply
        self.description = description
    }

    /// `error` as a failed attempt: itself when it is one, else an unexpected failure (`other`).
    static func of(_ error: any Error) -> MailDeliveryError {
        error as? MailDeliveryError ?? MailDeliveryError(stage: .other, isPermanent: false, hadReply: false, description: "\(error)")
    }

    /// This failure, described as the reason a message was given up (the stage and code stay).
    func givenUp(_ reason: String) -> MailDeliveryError {
        MailDeliveryError(stage: stage, replyCode: replyCode, isPermanent: true, hadReply: hadReply, description: reason)
    }
}
