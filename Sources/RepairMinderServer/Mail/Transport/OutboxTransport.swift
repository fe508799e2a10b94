import Foundation
import RepairMinderModels

/// The development transport: appends each message as one JSON line to
/// `<data-dir>/outbox.jsonl`, which `repairminder outbox` prints.
public struct OutboxTransport: MailTransport {
    public let path: String

    public init(dataDirectory: String) {
        path = Self.path(dataDirectory: dataDirectory)
    }

    /// Where the outbox of a data directory lives.
    public static func path(dataDirectory: String) -> String {
        URL(fileURLWithPath: dataDirectory).appendingPathComponent("outbox.jsonl").path
    }

    public func deliver(_ message: MailMessage, messageID: String, handingOver: @escaping @Sendable () async throws -> Void) async throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var line = try encoder.encode(message)
        line.append(UInt8(ascii: "\n"))
        func failure(_ what: String) -> MailDeliveryError {
            MailDeliveryError(stage: .outbox, isPermanent: false, hadReply: true, description: "\(what) \(path): \(String(cString: strerror(errno)))")
        }
        do {
            try DataDirectory.create(URL(fileURLWithPath: path).deletingLastPathComponent().path)
        } catch {
            throw failure("cannot create the directory of")
        }
        // O_APPEND keeps whole lines intact even when another process (a second server) appends too.
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        guard fd >= 0 else { throw failure("cannot open outbox") }
        defer { close(fd) }
        try await handingOver()
        let written = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == line.count else { throw failure("cannot write outbox") }
    }

    /// Reads every message of an outbox file (missing file: none); lines that are not messages are skipped.
    public static func read(path: String) throws -> [MailMessage] {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let decoder = JSONDecoder()
        return text.split(separator: "\n").compactMap { try? decoder.decode(MailMessage.self, from: Data($0.utf8)) }
    }
}
