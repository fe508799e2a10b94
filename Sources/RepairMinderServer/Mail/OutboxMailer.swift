import Foundation
import Logging

/// The development mailer: appends each message as one JSON line to `<data-dir>/outbox.jsonl`,
/// which `repairminder outbox` prints. Logs that it sent, never what (codes stay out of logs).
public actor OutboxMailer: Mailer {
    public let path: String
    private let logger: Logger

    public init(dataDirectory: String, logger: Logger) {
        path = Self.path(dataDirectory: dataDirectory)
        self.logger = logger
    }

    /// Where the outbox of a data directory lives.
    public static func path(dataDirectory: String) -> String {
        URL(fileURLWithPath: dataDirectory).appendingPathComponent("outbox.jsonl").path
    }

    public func send(_ message: MailMessage) async throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var line = try encoder.encode(message)
        line.append(UInt8(ascii: "\n"))
        try DataDirectory.create(URL(fileURLWithPath: path).deletingLastPathComponent().path)
        // O_APPEND keeps whole lines intact even when another process (a second server) appends too.
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        guard fd >= 0 else { throw SettingsError("cannot open outbox \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let written = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == line.count else { throw SettingsError("cannot write outbox \(path)") }
        logger.info("Mail written to outbox", metadata: ["to": "\(message.to)", "subject": "\(message.subject)"])
    }

    /// Reads every message of an outbox file (missing file: none); lines that are not messages are skipped.
    public static func read(path: String) throws -> [MailMessage] {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let decoder = JSONDecoder()
        return text.split(separator: "\n").compactMap { try? decoder.decode(MailMessage.self, from: Data($0.utf8)) }
    }
}
