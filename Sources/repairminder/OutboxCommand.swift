import ArgumentParser
import Foundation
import RepairMinderServer

struct OutboxCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outbox", abstract: "Print the mail the development server has sent (newest last).")

    @Option(help: "Only mail to this address.")
    var to: String?

    @Option(help: "Only the last N messages.")
    var last: Int?

    @Flag(help: "One JSON object per line instead of text.")
    var json = false

    @Option(help: "The server's data directory. [env: REPAIRMINDER_DATA_DIR] (default: ./.repairminder)")
    var dataDir: String?

    func run() throws {
        let directory = dataDir ?? ProcessInfo.processInfo.environment["REPAIRMINDER_DATA_DIR"] ?? "./.repairminder"
        let path = OutboxMailer.path(dataDirectory: directory)
        var messages = try OutboxMailer.read(path: path)
        if let to { messages = messages.filter { $0.to.caseInsensitiveCompare(to) == .orderedSame } }
        if let last { messages = Array(messages.suffix(max(0, last))) }
        if messages.isEmpty {
            print(FileManager.default.fileExists(atPath: path) ? "No matching mail in \(path)." : "No mail yet (\(path) does not exist).")
            return
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for message in messages {
            if json {
                print(String(decoding: try encoder.encode(message), as: UTF8.self))
            } else {
                print("--- \(message.sentAt)  To: \(message.to)\nSubject: \(message.subject)\n\n\(message.text)\n")
            }
        }
    }
}
