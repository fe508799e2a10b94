import ArgumentParser
import Foundation
import RepairMinderModels
import RepairMinderServer

struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Print the security events of staff accounts (the activity log), oldest first.",
        usage: """
            repairminder audit [--email <email>] [--since <duration>] [--json]
              [--data-dir <data-dir>] [--database-url <database-url>]
            """,
        discussion: """
            Sign-ins and failed attempts, revoked sessions, token reuse, password and authenticator \
            changes, recovery codes used and registrations, each with its time, address and device; \
            and the operators' changes with the OS user who ran the command: company_approved, \
            company_suspended, company_reactivated (not shown with --email), and what seed \
            created or changed (company_created, company_updated, user_created, user_updated), and \
            the platform administrators admin create invited (platform_admin_invited). \
            Reads the server's existing database directly (refuses to run where there is none); \
            no secret is ever stored in the log.

            EXAMPLES:
              repairminder audit --since 24h
              repairminder audit --email admin@acme.test --json
              repairminder audit --data-dir /var/lib/repairminder --since 7d
            """)

    @Option(help: "Only this staff member's events.")
    var email: String?

    @Option(help: ArgumentHelp("Only events this recent: 30m, 24h, 7d (default: all).", valueName: "duration"))
    var since: String?

    @Flag(help: "One JSON object per line instead of text.")
    var json = false

    @OptionGroup var database: DatabaseOptions

    func validate() throws {
        if let since, Self.seconds(in: since) == nil {
            throw ValidationError("--since must be a number followed by s, m, h or d (like 24h), got \"\(since)\"")
        }
    }

    /// `90s`, `30m`, `24h`, `7d` in seconds.
    static func seconds(in duration: String) -> Double? {
        guard let unit = duration.last, let value = Double(duration.dropLast()), value >= 0 else { return nil }
        switch unit {
        case "s": return value
        case "m": return value * 60
        case "h": return value * 3600
        case "d": return value * 86400
        default: return nil
        }
    }

    func run() async throws {
        let start = since.flatMap(Self.seconds(in:)).map { Date().timeIntervalSince1970 - $0 } ?? 0
        let email = self.email?.lowercased()
        let entries = try await database.withDatabase { try await $0.activity(email: email, since: start) }
        if entries.isEmpty && !json {
            say("No events.")
            return
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for entry in entries {
            if json {
                sayJSON(String(decoding: try encoder.encode(entry), as: UTF8.self))
            } else {
                let event = entry.event
                // A staff member's event shows where it came from; an operator's, who ran it.
                let place = [event.ipAddress, event.userAgent, entry.actor.map { "by \($0)" }].compactMap { $0.map(shown) }.joined(separator: "  ")
                let subject = entry.email.map(shown) ?? entry.company.map { "shop \"\(shown($0))\"" } ?? "?"
                say("\(event.at)  \(subject)  \(event.type.rawValue)\(place.isEmpty ? "" : "  \(place)")")
            }
        }
    }
}
