import ArgumentParser
import Foundation
import RepairMinderServer

struct OutboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outbox",
        abstract: "Print the mail the development server has sent (newest last), or the state of the mail queue.",
        usage: """
            repairminder outbox [--to <email>] [--last <n>] [--json] [--status]
              [--data-dir <data-dir>] [--database-url <database-url>]
            """,
        discussion: """
            Without --status: the messages the outbox transport wrote to <data-dir>/outbox.jsonl \
            (the development default when no --smtp-url is given).

            With --status: every queued message of the database, whatever its transport — queued, \
            sending, sent or failed — with its attempts and last error. Bodies are never shown.

            EXAMPLES:
              repairminder outbox --to admin@acme.test --last 1
              repairminder outbox --json | jq -r .text
              repairminder outbox --status --data-dir /var/lib/repairminder
            """)

    @Option(help: ArgumentHelp("Only mail to this address.", valueName: "email"))
    var to: String?

    @Option(help: ArgumentHelp("Only the last N messages.", valueName: "n"))
    var last: Int?

    @Flag(help: "One JSON object per line instead of text.")
    var json = false

    @Flag(help: "Show the mail queue's delivery state instead of the outbox file.")
    var status = false

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        if status {
            try await printStatus()
        } else {
            // No data directory at all: the wrong directory, not a server that sent nothing.
            let dataDirectory = try database.dataDirectory
            guard FileManager.default.fileExists(atPath: dataDirectory) else {
                throw CommandFailure(
                    "no data directory at \(dataDirectory): run the command where the server runs, or name its directory with --data-dir")
            }
            try printOutbox(path: OutboxTransport.path(dataDirectory: dataDirectory))
        }
    }

    private func printOutbox(path: String) throws {
        var messages = try OutboxTransport.read(path: path)
        if let to { messages = messages.filter { $0.to.caseInsensitiveCompare(to) == .orderedSame } }
        if let last { messages = Array(messages.suffix(max(0, last))) }
        if messages.isEmpty {
            say(FileManager.default.fileExists(atPath: path) ? "No matching mail in \(path)." : "No mail yet (\(path) does not exist).")
            return
        }
        for message in messages {
            if json {
                sayJSON(try Self.jsonLine(message))
            } else {
                say("--- \(message.sentAt)  To: \(shown(message.to))\nSubject: \(shown(message.subject))\n\n\(message.text)\n")
            }
        }
    }

    private func printStatus() async throws {
        let (to, limit) = (self.to, max(1, last ?? 1000))
        let now = Date().timeIntervalSince1970
        let (entries, totals, queue) = try await database.withDatabase { database in
            (
                try await MailQueue.entries(in: database, to: to, limit: limit),
                try await MailQueue.totals(in: database, to: to, now: now),
                "\(database.engine.rawValue) \(database.location)"
            )
        }
        let lines = entries.map { StatusLine($0, now: now) }
        if json {
            for line in lines { sayJSON(try Self.jsonLine(line)) }
            return
        }
        guard !lines.isEmpty else {
            say("The mail queue of \(queue) is empty\(to.map { " for \($0)" } ?? "").")
            return
        }
        for line in lines {
            var text = "\(line.queuedAt)  \(line.state.padding(toLength: 8, withPad: " ", startingAt: 0))  attempts \(line.attempts)  \(shown(line.to))  \(shown(line.subject))"
            if let next = line.nextAttemptAt { text += "\n    next attempt \(next)" }
            if let error = line.lastError { text += "\n    last error: \(shown(error))" }
            say(text)
        }
        // The totals are the whole queue's (of that address, with --to), not of the lines shown.
        let partly = lines.count < totals.all ? " (the last \(lines.count) shown)" : ""
        say("\n\(totals.all) in the queue\(to.map { " for \($0)" } ?? "")\(partly): \(totals.queued) queued, \(totals.sending) sending, \(totals.sent) sent, \(totals.failed) failed")
    }

    private static func jsonLine(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// One queue entry as printed.
    private struct StatusLine: Encodable {
        let id: String
        let to: String
        let subject: String
        /// queued, sending (a worker holds it), sent or failed.
        let state: String
        let attempts: Int
        let lastError: String?
        let queuedAt: String
        let nextAttemptAt: String?
        let finishedAt: String?

        init(_ entry: MailQueueEntry, now: Double) {
            func time(_ seconds: Double) -> String { Date(timeIntervalSince1970: seconds).formatted(.iso8601) }
            id = entry.id
            to = entry.recipient
            subject = entry.subject
            let sending = entry.status == "queued" && (entry.claimedUntil ?? 0) > now
            state = sending ? "sending" : entry.status
            attempts = entry.attempts
            lastError = entry.lastError
            queuedAt = time(entry.createdAt)
            nextAttemptAt = entry.status == "queued" && !sending && entry.attempts > 0 ? time(entry.nextAttemptAt) : nil
            finishedAt = entry.finishedAt.map(time)
        }
    }
}
