import ArgumentParser
import Foundation
import RepairMinderServer

struct MailCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mail", abstract: "Check the mail settings.",
        discussion: """
            EXAMPLES:
              repairminder mail test --to you@example.com \\
                --smtp-url 'smtp://user:password@smtp.example.com:587' \\
                --mail-from 'Repair Minder <no-reply@example.com>'
            """,
        subcommands: [MailTestCommand.self])
}

/// `repairminder mail test --to EMAIL`: one message through the SMTP server, its replies shown.
struct MailTestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Send one test message through an SMTP server and print its replies.",
        usage: """
            repairminder mail test --to <email> [--smtp-url <url>]
              [--mail-from <sender>] [--smtp-ca-file <file>]
            """,
        discussion: """
            For operators checking their settings: every reply of the server is printed as it \
            arrives (credentials and the message itself never are).

            Exit codes: 0 sent, 1 refused by the server, 2 usage error, 3 cannot reach or talk \
            to the server.

            To try it without a mail server, run the tests' catcher (.ci/smtp-catcher.py, \
            Python's aiosmtpd) as in the second example: it records each message it accepts in \
            the file, and runs in the background until kill %1.

            EXAMPLES:
              repairminder mail test --to you@example.com \\
                --smtp-url 'smtp://user:password@smtp.example.com:587' \\
                --mail-from 'Repair Minder <no-reply@example.com>'
              python3 .ci/smtp-catcher.py --record /tmp/mail.jsonl --port 2525 &
              repairminder mail test --to you@example.test --mail-from me@example.test \\
                --smtp-url 'smtp://127.0.0.1:2525?tls=none'
            """)

    @Option(help: ArgumentHelp("Recipient of the test message.", valueName: "email"))
    var to: String

    @Option(
        help: ArgumentHelp(
            "smtp://user:password@host:587 (STARTTLS), smtps://user:password@host:465, or smtp://127.0.0.1:25?tls=none for a relay on this machine. [env: REPAIRMINDER_SMTP_URL]",
            valueName: "url"))
    var smtpUrl: String?

    @Option(
        help: ArgumentHelp(
            "The sender, e.g. \"Repair Minder <no-reply@example.com>\". [env: REPAIRMINDER_MAIL_FROM]", valueName: "sender"))
    var mailFrom: String?

    @Option(
        help: ArgumentHelp(
            "PEM file of certificates to trust instead of the system's (a private CA). [env: REPAIRMINDER_SMTP_CA_FILE]",
            valueName: "file"))
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
            sayError("error: the server refused: \(error)\(error.replyText.map { "\n\($0)" } ?? "")")
            throw ExitCode(1)
        } catch {
            sayError("error: \(PlainReason.of(error))")
            throw ExitCode(3)
        }
    }
}
