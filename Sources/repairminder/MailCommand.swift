import ArgumentParser
import Foundation
import RepairMinderServer

struct MailCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mail", abstract: "Check the mail settings.", subcommands: [MailTestCommand.self])
}

/// `repairminder mail test --to EMAIL`: one message through the SMTP server, its replies shown.
struct MailTestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Send one test message through an SMTP server and print its replies.",
        discussion: """
            For operators checking their settings: every reply of the server is printed as it \
            arrives (credentials and the message itself never are).

            Exit codes: 0 sent, 1 refused by the server, 2 usage error, 3 cannot reach or talk to the server.

            A local catcher for trying it: python3 .ci/smtp-catcher.py --record /tmp/mail.jsonl
            """)

    @Option(help: "Recipient of the test message.")
    var to: String

    @Option(help: "smtp://user:password@host:587 (STARTTLS), smtps://user:password@host:465, or smtp://127.0.0.1:25?tls=none for a relay on this machine. [env: REPAIRMINDER_SMTP_URL]")
    var smtpUrl: String?

    @Option(help: "The sender, e.g. \"Repair Minder <no-reply@example.com>\". [env: REPAIRMINDER_MAIL_FROM]")
    var mailFrom: String?

    @Option(help: "PEM file of certificates to trust instead of the system's (a private CA). [env: REPAIRMINDER_SMTP_CA_FILE]")
    var smtpCaFile: String?

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        guard let url = smtpUrl ?? environment["REPAIRMINDER_SMTP_URL"] else {
            throw ValidationError("give --smtp-url (or REPAIRMINDER_SMTP_URL)")
        }
        guard let fromText = mailFrom ?? environment["REPAIRMINDER_MAIL_FROM"] else {
            throw ValidationError("give --mail-from (or REPAIRMINDER_MAIL_FROM)")
        }
        let client: SMTPClient
        let sender: MailAddress
        do {
            client = try SMTPClient(url: url, caFile: smtpCaFile ?? environment["REPAIRMINDER_SMTP_CA_FILE"])
            sender = try MailAddress(parsing: fromText)
            _ = try MailAddress(parsing: to)
        } catch {
            throw ValidationError("\(error)")
        }
        say("Sending a test message to \(to) through \(client.server)...")
        let message = MailMessage(
            to: to, subject: "Repair Minder mail test",
            text: "This is a test message from repairminder mail test. Your mail settings work.",
            sentAt: ISO8601DateFormatter().string(from: Date()))
        do {
            try await client.deliver(message, from: sender, transcript: { reply in say(reply.lines.map { "  \(reply.code) \($0)" }.joined(separator: "\n")) })
            say("Sent.")
        } catch let error as SMTPError where error.code != nil {
            FileHandle.standardError.write(Data("error: the server refused: \(error)\n".utf8))
            throw ExitCode(1)
        } catch {
            FileHandle.standardError.write(Data("error: \(PlainReason.of(error))\n".utf8))
            throw ExitCode(3)
        }
    }
}
