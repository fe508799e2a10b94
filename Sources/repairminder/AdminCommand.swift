import ArgumentParser
import Foundation
import RepairMinderModels
import RepairMinderServer

/// `repairminder admin create`: the operators make the platform's administrators
/// (docs/API.md §15), whom no shop can make.
struct AdminCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin",
        abstract: "Make the platform's administrators (master_admin), who manage every shop.",
        discussion: """
            Platform administrators are members of the platform's own company, which `admin create` makes on first use: \
            active, and requiring a passkey of its staff from the start. Run it where the server runs, on its database, \
            like `repairminder company`.

            EXAMPLES:
              repairminder admin create --email ann@example.com \\
                --first-name Ann --last-name Smith
            """,
        subcommands: [Create.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Invite a platform administrator: a master_admin of the platform's own company.",
            usage: """
                repairminder admin create --email <email> --first-name <first-name>
                  --last-name <last-name> [--public-url <url>]
                  [--data-dir <data-dir>] [--database-url <database-url>]
                """,
            discussion: """
                Mails an invitation as a shop's admin invites a colleague (docs/API.md §12.4): the invitee opens \
                <public-url>/invite?token=... and sets a password (or accepts in the app), and then, signed in, can do \
                nothing but add a passkey until they have one, which the platform's own company requires from the start. \
                That company is made by the first `admin create` (and is the same for every later one); its policy is then \
                its administrators' to change (docs/API.md §13).

                The mail goes through the server's mail queue: a running `repairminder serve` on the same database sends it \
                (in development, `repairminder outbox` then shows it). It is sealed with the server's encryption key, \
                which this command reads as serve does (REPAIRMINDER_ENCRYPTION_KEY, --config, or the one generated into \
                the data directory); the link starts with the server's public URL (--public-url, \
                REPAIRMINDER_PUBLIC_URL or --config, as serve's).

                Refused, changing nothing (exit 1): an address that has a staff account in any shop, or a pending \
                invitation to the platform. A malformed address or name is a usage error (exit 2), by the rules of the \
                API's invitations. The company's creation (company_created) and the invitation (platform_admin_invited) \
                are in `repairminder audit` with the OS user who ran the command.

                EXAMPLES:
                  repairminder admin create --email ann@example.com \\
                    --first-name Ann --last-name Smith
                  repairminder admin create --email bo@example.com \\
                    --first-name Bo --last-name Li --config /etc/repairminder/rm.yaml
                """)

        @Option(help: "The new administrator's email address.")
        var email: String

        @Option(help: "Their first name.")
        var firstName: String

        @Option(help: "Their last name.")
        var lastName: String

        @Option(help: ArgumentHelp("The server's public URL, the link's start. [env: REPAIRMINDER_PUBLIC_URL]", valueName: "url"))
        var publicUrl: String?

        @OptionGroup var database: DatabaseOptions

        func validate() throws {
            do {
                _ = try PlatformAdminInvitee(email: email, firstName: firstName, lastName: lastName)
            } catch {
                throw ValidationError(error.message)
            }
        }

        func run() async throws {
            let invitee: PlatformAdminInvitee
            do {
                invitee = try PlatformAdminInvitee(email: email, firstName: firstName, lastName: lastName)
            } catch {
                throw ValidationError(error.message)
            }
            // The settings serve reads for the mail's key and the link, besides the database's.
            let settings = try SettingsArguments.load(
                [
                    ("data-dir", database.dataDir), ("database-url", database.databaseUrl), ("encryption-key", nil),
                    ("encryption-previous-key", nil), ("public-url", publicUrl), ("host", nil), ("port", nil),
                ], configFile: database.config)
            guard let keys = try settings.existingEncryptionKeys() else {
                throw CommandFailure(
                    "no encryption key: the server's is needed to seal the mail it sends; give it as serve has it "
                        + "(REPAIRMINDER_ENCRYPTION_KEY or --config), or run this where the server's data directory is (--data-dir)")
            }
            let actor = OperatorIdentity.current
            let invited = try await DatabaseOptions.withDatabase(settings: settings) { db in
                try await db.invitePlatformAdmin(
                    invitee, actor: actor, serverURL: settings.serverURL, encryptionKeys: keys, now: Date().timeIntervalSince1970)
            }
            say(Self.report(invited, invitee: invitee, serverURL: settings.serverURL))
        }

        /// What happened, and what comes next.
        static func report(_ invited: PlatformAdminInvitation, invitee: PlatformAdminInvitee, serverURL: String) -> String {
            var lines: [String] = []
            let requirement = invited.requiredFactor == RequiredFactor.notRequired.rawValue
                ? "no second factor required" : "\(invited.requiredFactor.replacingOccurrences(of: "_", with: " ")) required"
            if invited.companyCreated {
                lines.append("Created the platform's own company \"\(shown(invited.companyName))\" (\(invited.companyId)): active, \(requirement) of its staff.")
            }
            let enrol = invited.requiredFactor == RequiredFactor.notRequired.rawValue
                ? "" : invited.enrolmentGraceDays == 0 ? ", and add a passkey before anything else" : ", and add a passkey within \(invited.enrolmentGraceDays) days"
            lines += [
                "Invited \(shown(invitee.firstName)) \(shown(invitee.lastName)) <\(shown(invited.email))> as a platform administrator (master_admin) of \(shown(invited.companyName)).",
                "The invitation mail is queued: a running `repairminder serve` on this database sends it. The link works once, until \(invited.expiresAt).",
                "Next: they open \(serverURL)/invite?token=... from the mail, set a password, sign in\(enrol).",
                "In development the sent mail is in: repairminder outbox --to \(shown(invited.email)) --last 1",
            ]
            return lines.joined(separator: "\n")
        }
    }
}
