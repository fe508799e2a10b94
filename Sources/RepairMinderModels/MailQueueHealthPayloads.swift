/// Where a delivery attempt failed (docs/API.md §15.5): the step of the SMTP dialogue, or what
/// stopped the attempt before or around it. Only what the transport can tell apart; never the
/// mail server's words, which may repeat the recipient.
public enum MailFailureStage: WireEnum {
    /// No connection: refused, unreachable, a host name that does not resolve, no answer to it.
    case connect
    /// TLS: the handshake or the certificate failed, or STARTTLS was not offered or refused.
    case tls
    /// The mail server's greeting was a refusal.
    case greeting
    /// `EHLO` was refused.
    case hello
    /// Signing in was refused, or the server offers no mechanism this one speaks.
    case auth
    /// `MAIL FROM` was refused.
    case mailFrom
    /// `RCPT TO` was refused.
    case rcptTo
    /// `DATA` was refused.
    case data
    /// The message itself was refused, at the end of `DATA` (a filter, a full mailbox).
    case endOfData
    /// No reply in time (30 s a reply), or the attempt ran past its limit (60 s).
    case timeout
    /// The mail server closed the connection before its reply.
    case closed
    /// The mail server answered something that is not SMTP.
    case `protocol`
    /// Handed over twice without an answer: not sent again, so it is not duplicated.
    case inDoubt
    /// Interrupted by this server shutting down; tried again after.
    case shutdown
    /// The queued message cannot be opened (its body erased, or sealed with a retired key).
    case unreadable
    /// The message cannot be written as mail (a header it cannot carry).
    case compose
    /// The development outbox (`--mail outbox`) could not be written.
    case outbox
    /// Anything else.
    case other
    /// A stage this version does not know (a newer server's).
    case unknown(String)

    /// The values this version knows: the OpenAPI document lists these.
    public static let allCases: [MailFailureStage] = [
        .connect, .tls, .greeting, .hello, .auth, .mailFrom, .rcptTo, .data, .endOfData, .timeout, .closed, .protocol, .inDoubt,
        .shutdown, .unreadable, .compose, .outbox, .other,
    ]

    /// The value as the wire spells it.
    public var rawValue: String {
        switch self {
        case .connect: "connect"
        case .tls: "tls"
        case .greeting: "greeting"
        case .hello: "hello"
        case .auth: "auth"
        case .mailFrom: "mailFrom"
        case .rcptTo: "rcptTo"
        case .data: "data"
        case .endOfData: "endOfData"
        case .timeout: "timeout"
        case .closed: "closed"
        case .protocol: "protocol"
        case .inDoubt: "inDoubt"
        case .shutdown: "shutdown"
        case .unreadable: "unreadable"
        case .compose: "compose"
        case .outbox: "outbox"
        case .other: "other"
        case .unknown(let raw): raw
        }
    }
}

/// One failed delivery attempt, as the platform's administrators see it (docs/API.md §15.5):
/// where it failed and the reply code, never an address, a subject or the server's words.
public struct MailQueueFailure: Codable, Sendable, Equatable {
    /// The message's id in the queue (`repairminder outbox --status`): the same for each failed
    /// attempt of one message.
    public var id: String
    /// ISO 8601 UTC.
    public var at: String
    public var stage: MailFailureStage
    /// The SMTP reply code; nil when there was no reply (a refused connection, a timeout).
    public var replyCode: Int?
    /// Which attempt of the message it was: 1 for the first.
    public var attempts: Int
    /// Whether the message failed for good at this attempt (no retry follows).
    public var final: Bool
    public init(id: String, at: String, stage: MailFailureStage, replyCode: Int?, attempts: Int, final: Bool) {
        self.id = id
        self.at = at
        self.stage = stage
        self.replyCode = replyCode
        self.attempts = attempts
        self.final = final
    }
}

extension MailQueueFailure: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("id", \.id, .nonEmptyText),
        .init("at", \.at, .timestamp),
        .init("stage", \.stage, .cases(of: MailFailureStage.self)),
        .init("replyCode", \.replyCode, .nullable(.integer(minimum: 100, maximum: 599))),
        .init("attempts", \.attempts, .integer(minimum: 1)),
        .init("final", \.final, .boolean),
    ]
    public static var schema: JSONSchema { .object(fields, description: "A failed delivery attempt: where, and the reply code") }
    public static var example: MailQueueFailure {
        MailQueueFailure(id: "18a3f0c2b4d6e8f0-q9Zr4LwT2xVb", at: WireExample.timestamp, stage: .rcptTo, replyCode: 550, attempts: 1, final: true)
    }
}

/// The mail queue's health (docs/API.md §15.5): what waits to be sent, and the latest failed
/// attempts.
public struct MailQueueHealth: Codable, Sendable, Equatable {
    /// Messages neither sent nor failed yet, whatever instance will deliver them.
    public var queued: Int
    /// Whole seconds since the oldest of them was queued; nil when none waits.
    public var oldestQueuedAgeSeconds: Int?
    /// Delivery attempts that failed in the last hour, retried or final.
    public var failedLastHour: Int
    /// The latest failed attempts (at most `listedFailures`), newest first.
    public var recentFailures: [MailQueueFailure]
    public init(queued: Int, oldestQueuedAgeSeconds: Int?, failedLastHour: Int, recentFailures: [MailQueueFailure]) {
        self.queued = queued
        self.oldestQueuedAgeSeconds = oldestQueuedAgeSeconds
        self.failedLastHour = failedLastHour
        self.recentFailures = recentFailures
    }

    /// How many failed attempts `recentFailures` lists at most.
    public static let listedFailures = 20
}

extension MailQueueHealth: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("queued", \.queued, .integer(minimum: 0)),
        .init("oldestQueuedAgeSeconds", \.oldestQueuedAgeSeconds, .nullable(.integer(minimum: 0))),
        .init("failedLastHour", \.failedLastHour, .integer(minimum: 0)),
        .init("recentFailures", \.recentFailures, .array(.ref(MailQueueFailure.self))),
    ]
    public static var schema: JSONSchema { .object(fields, description: "The mail queue's health: what waits, and the latest failures") }
    public static var example: MailQueueHealth {
        MailQueueHealth(queued: 2, oldestQueuedAgeSeconds: 41, failedLastHour: 1, recentFailures: [.example])
    }
}
