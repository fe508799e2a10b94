import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import RepairMinderModels

/// A refusal or failure of the mail server: 5xx replies are permanent (the message will never
/// go), anything else may succeed later.
///
/// Its `description` is what logs and the queue's `last_error` hold: the command (`RCPT`), the
/// reply code and its enhanced status (`550 5.1.1`), never the reply's text or an address: a
/// mail server's words often repeat the recipient, and whatever a peer says is not ours to copy
/// into a log. `replyText` keeps the text for a person at a terminal (`repairminder mail test`).
/// A failure without a reply (no connection, TLS, a dropped connection) is described in plain
/// words, as `mail test` prints it.
public struct SMTPError: Error, CustomStringConvertible {
    /// Where the dialogue failed: what the mail queue records (docs/API.md §15.5).
    public let stage: MailFailureStage
    public let code: Int?
    public let description: String
    /// The mail server's reply lines, for `mail test` only; never logged or stored.
    public var replyText: String? = nil

    /// A 5xx reply: retrying will not help.
    public var isPermanent: Bool { (code ?? 0) >= 500 && (code ?? 0) < 600 }

    init(_ stage: MailFailureStage, code: Int? = nil, description: String, replyText: String? = nil) {
        self.stage = stage
        self.code = code
        self.description = description
        self.replyText = replyText
    }

    /// A reply with another code than expected to `command` (`RCPT`) at `stage`: `RCPT → 550 5.1.1`.
    init(_ stage: MailFailureStage, command: String, reply: SMTPReply) {
        let status = reply.enhancedStatus.map { " \($0)" } ?? ""
        self.init(stage, code: reply.code, description: "\(command) → \(reply.code)\(status)", replyText: reply.description)
    }

    /// `error`, which ended the dialogue at `stage` without a reply, in plain words.
    init(_ stage: MailFailureStage, underlying error: any Error) {
        self.init(stage, description: PlainReason.of(error))
    }
}

/// One reply of the mail server: its code and text lines.
public struct SMTPReply: Sendable, CustomStringConvertible {
    public let code: Int
    public let lines: [String]
    public var description: String { lines.map { "\(code) \($0)" }.joined(separator: "\n") }

    /// The enhanced status code (RFC 3463) the first line starts with, like `5.1.1`; nil without one.
    public var enhancedStatus: String? {
        guard let first = lines.first?.split(separator: " ", maxSplits: 1).first else { return nil }
        let parts = first.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, ["2", "4", "5"].contains(parts[0]),
            parts[1...].allSatisfy({ (1...3).contains($0.count) && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
        else { return nil }
        return String(first)
    }
}

/// Delivers messages over SMTP (RFC 5321): EHLO, STARTTLS or implicit TLS, AUTH PLAIN or LOGIN,
/// MAIL/RCPT/DATA with dot-stuffing, QUIT; a timeout on connecting and on every reply.
public struct SMTPClient: Sendable {
    public let server: SMTPServerAddress
    /// The name this host gives in EHLO.
    public var helloName = "localhost"
    public var timeout: TimeAmount = .seconds(30)
    /// Certificates to trust instead of the system's (a private CA, or a test's own).
    public var trustedCertificates: [NIOSSLCertificate]? = nil

    public init(server: SMTPServerAddress) { self.server = server }

    /// A client for `--smtp-url`, trusting the certificates of `caFile` (PEM) when one is given.
    public init(url: String, caFile: String?) throws {
        self.init(server: try SMTPServerAddress(url: url))
        if let caFile {
            do {
                trustedCertificates = try NIOSSLCertificate.fromPEMFile(caFile)
            } catch {
                throw SettingsError("--smtp-ca-file \(caFile): \(error)")
            }
        }
    }

    /// Writes `message` as RFC 5322 and sends it from `sender`. Its `Message-ID` is `localID`
    /// (default: a fresh random one) at the sender's domain; `date` defaults to now. `beforeEndOfData` runs just before the end of
    /// the message is sent, the point after which it may have been accepted.
    public func deliver(
        _ message: MailMessage, from sender: MailAddress, localID: String? = nil, date: Date? = nil,
        beforeEndOfData: (@Sendable () async throws -> Void)? = nil, transcript: (@Sendable (SMTPReply) -> Void)? = nil
    ) async throws {
        let domain = sender.address.split(separator: "@").last.map(String.init) ?? "localhost"
        let unique = RandomToken.base64URL(byteCount: 12)
        let data = try MailComposer.compose(
            message, from: sender, date: date ?? Date(), messageID: "\(localID ?? unique)@\(domain)", boundary: "=_\(unique)")
        let recipient = try MailAddress(recipient: message.to)
        try await send(data, from: sender.address, to: [recipient.address], beforeEndOfData: beforeEndOfData, transcript: transcript)
    }

    /// Sends `data` (a composed RFC 5322 message) from `sender` to `recipients`. `transcript`
    /// sees every server reply (never the message itself, which holds the code).
    public func send(
        _ data: String, from sender: String, to recipients: [String],
        beforeEndOfData: (@Sendable () async throws -> Void)? = nil, transcript: (@Sendable (SMTPReply) -> Void)? = nil
    ) async throws {
        // The TLS context (it loads the trust roots) only for a server that uses TLS.
        let tls = server.security == .none ? nil : try tlsContext()
        let host = server.host, timeout = self.timeout, implicitTLS = server.security == .implicitTLS
        // SNI names a host, never an address (NIOSSL refuses one); without it, NIOSSL checks the
        // certificate against the address connected to, so an IP address is still verified.
        let serverName = IPAddressRange(host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))) == nil ? host : nil
        let idle = CloseWhenIdle()
        let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
        do {
            channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(timeout)
                .connect(host: host, port: server.port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        if implicitTLS, let tls {
                            try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: tls, serverHostname: serverName))
                        }
                        try channel.pipeline.syncOperations.addHandler(IdleStateHandler(readTimeout: timeout))
                        try channel.pipeline.syncOperations.addHandler(idle)
                        return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            throw SMTPError(.connect, underlying: error)
        }
        try await channel.executeThenClose { inbound, outbound in
            var session = Session(
                inbound: inbound.makeAsyncIterator(), outbound: outbound, transcript: transcript, idle: idle, timeout: timeout,
                handshaking: implicitTLS)
            try await session.expect(220, after: nil, stage: .greeting)
            var capabilities = try await session.hello(helloName)
            if server.security == .startTLS, let tls {
                guard capabilities.contains("STARTTLS") else {
                    throw SMTPError(.tls, description: "\(server) does not offer STARTTLS (use tls=none only for a relay on this machine)")
                }
                try await session.command("STARTTLS", expect: 220, stage: .tls)
                try await channel.channel.pipeline.addHandler(NIOSSLClientHandler(context: tls, serverHostname: serverName), position: .first)
                session.handshaking = true
                capabilities = try await session.hello(helloName)
            }
            if let username = server.username {
                try await session.authenticate(username, server.password ?? "", capabilities: capabilities)
            }
            try await session.command("MAIL FROM:<\(sender)>", expect: 250, stage: .mailFrom)
            for recipient in recipients { try await session.command("RCPT TO:<\(recipient)>", expect: 250, stage: .rcptTo) }
            try await session.command("DATA", expect: 354, stage: .data)
            var body = MailComposer.dotStuffed(data)
            if !body.hasSuffix("\r\n") { body += "\r\n" }
            try await session.write(body)
            try await beforeEndOfData?()
            try await session.send(".", expect: 250, shownAs: "(end of message)", stage: .endOfData)
            // The message is accepted; a failed QUIT changes nothing.
            _ = try? await session.command("QUIT", expect: 221, stage: .other)
        }
    }

    private func tlsContext() throws -> NIOSSLContext {
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let trustedCertificates { configuration.trustRoots = .certificates(trustedCertificates) }
        return try NIOSSLContext(configuration: configuration)
    }

    /// The dialogue on one connection.
    private struct Session {
        var inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
        let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
        let transcript: (@Sendable (SMTPReply) -> Void)?
        /// Whether the read timeout closed the connection.
        let idle: CloseWhenIdle
        let timeout: TimeAmount
        /// A TLS handshake is under way: no reply has come through it yet, so a connection that
        /// fails now failed at TLS (a refused certificate often shows only as a closed channel).
        var handshaking: Bool
        var buffer: [UInt8] = []

        mutating func hello(_ name: String) async throws -> Set<String> {
            let reply = try await command("EHLO \(name)", expect: 250, stage: .hello)
            return Set(reply.lines.dropFirst().map { $0.uppercased() })
        }

        mutating func authenticate(_ username: String, _ password: String, capabilities: Set<String>) async throws {
            let mechanisms = Set(capabilities.filter { $0.hasPrefix("AUTH") }.flatMap { $0.split(separator: " ").dropFirst().map(String.init) })
            if mechanisms.contains("PLAIN") {
                let token = Data("\0\(username)\0\(password)".utf8).base64EncodedString()
                try await send("AUTH PLAIN \(token)", expect: 235, shownAs: "AUTH PLAIN (credentials)", stage: .auth)
            } else if mechanisms.contains("LOGIN") {
                try await command("AUTH LOGIN", expect: 334, stage: .auth)
                try await send(Data(username.utf8).base64EncodedString(), expect: 334, shownAs: "(user name)", stage: .auth)
                try await send(Data(password.utf8).base64EncodedString(), expect: 235, shownAs: "(password)", stage: .auth)
            } else {
                throw SMTPError(.auth, description: "the mail server offers neither AUTH PLAIN nor AUTH LOGIN")
            }
        }

        @discardableResult
        mutating func command(_ line: String, expect code: Int, stage: MailFailureStage) async throws -> SMTPReply {
            try await send(line, expect: code, shownAs: line, stage: stage)
        }

        /// Sends `line` and reads the reply; `shownAs` names it in errors (never credentials or
        /// the message), `stage` is where a refusal of it failed.
        @discardableResult
        mutating func send(_ line: String, expect code: Int, shownAs: String, stage: MailFailureStage) async throws -> SMTPReply {
            // A command is one line: a CR or LF from an address would smuggle in another command.
            guard !MailHeader.hasLineBreak(line) else {
                throw SMTPError(stage, description: "refusing to send a command with a line break")
            }
            try await write(line + "\r\n")
            return try await expect(code, after: shownAs, stage: stage)
        }

        /// Writes without waiting for a reply (the message between DATA and its end).
        func write(_ text: String) async throws {
            do {
                try await outbound.write(ByteBuffer(string: text))
            } catch {
                throw ended(by: error)
            }
        }

        @discardableResult
        mutating func expect(_ code: Int, after command: String?, stage: MailFailureStage) async throws -> SMTPReply {
            let reply = try await readReply()
            transcript?(reply)
            guard reply.code == code else { throw SMTPError(stage, command: Self.verb(of: command), reply: reply) }
            return reply
        }

        /// The connection ended (`error`, or closed when nil) before a reply: timed out, in the
        /// TLS handshake, or closed by the mail server, in that order of precedence.
        func ended(by error: (any Error)?) -> SMTPError {
            if idle.fired {
                return SMTPError(.timeout, description: "the mail server did not answer within \(timeout.nanoseconds / 1_000_000_000) s")
            }
            if handshaking || error is NIOSSLError || error is NIOSSLExtraError || error is BoringSSLError {
                return error.map { SMTPError(.tls, underlying: $0) }
                    ?? SMTPError(.tls, description: "the mail server closed the connection during the TLS handshake")
            }
            return error.map { SMTPError(.closed, underlying: $0) } ?? SMTPError(.closed, description: "the mail server closed the connection")
        }

        /// What a failed command is called in logs: its verb (`RCPT`, `MAIL`, `AUTH`), never its
        /// argument (an address); `greeting` before any.
        static func verb(of command: String?) -> String {
            guard let command else { return "greeting" }
            if command.hasPrefix("(") { return command }  // "(end of message)", "(password)"
            return String(command.prefix { $0 != " " && $0 != ":" })
        }

        mutating func readReply() async throws -> SMTPReply {
            var lines: [String] = []
            while true {
                let line = try await readLine()
                let bytes = Array(line.utf8)
                guard bytes.count >= 3, let code = Int(String(line.prefix(3))) else {
                    throw SMTPError(.protocol, description: "not an SMTP reply", replyText: String(line.prefix(80)))
                }
                // A reply came through: any TLS handshake before it is done.
                handshaking = false
                lines.append(bytes.count > 4 ? String(line.dropFirst(4)) : "")
                if bytes.count == 3 || bytes[3] != UInt8(ascii: "-") { return SMTPReply(code: code, lines: lines) }
            }
        }

        mutating func readLine() async throws -> String {
            while true {
                if let end = buffer.indices.dropLast().first(where: { buffer[$0] == 13 && buffer[$0 + 1] == 10 }) {
                    let line = String(decoding: buffer[..<end], as: UTF8.self)
                    buffer.removeFirst(end + 2)
                    return line
                }
                guard buffer.count < 64 * 1024 else { throw SMTPError(.protocol, description: "reply line too long") }
                let chunk: ByteBuffer?
                do {
                    chunk = try await inbound.next()
                } catch {
                    throw ended(by: error)
                }
                guard let chunk else { throw ended(by: nil) }
                buffer.append(contentsOf: chunk.readableBytesView)
            }
        }
    }
}

/// Closes the connection when no reply came within the read timeout: the pending read then
/// ends, and the dialogue fails with a clear message instead of hanging. Remembers that it did,
/// so the dialogue can tell a timeout from a connection the mail server closed.
private final class CloseWhenIdle: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let lock = NSLock()
    private var closed = false
    /// Whether the read timeout closed the connection.
    var fired: Bool { lock.withLock { closed } }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent {
            lock.withLock { closed = true }
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }
}
