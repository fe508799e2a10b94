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
                  --last-name <last-name> [--public-url <url>] [--reissue]
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
                REPAIRMINDER_PUBLIC_URL or --config, as serve's), or else the URL the last `serve` on the data \
                directory recorded there (its port included). With neither it refuses: a link that opens nothing \
                would strand the invitee.

                Refused, changing nothing (exit 1): an address that has a staff account in any shop, or a pending \
                invitation to the platform (--reissue revokes that one, whose link then stops working, and sends a new \
                one). A malformed address or name is a usage error (exit 2), by the rules of the \
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

        @Flag(help: "Revoke the address's pending invitation to the platform, if any, and send a new one (the earlier link stops working).")
        var reissue = false

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
                    ("encryption-previous-key", nil), ("public-url", publicUrl), ("env", nil),
                ], configFile: database.config)
            let serverURL = try Self.serverURL(settings)
            guard let keys = try settings.existingEncryptionKeys() else {
                throw CommandFailure(
                    "no encryption key: the server's is needed to seal the mail it sends; give it as serve has it "
                        + "(REPAIRMINDER_ENCRYPTION_KEY or --config), or run this where the server's data directory is (--data-dir)")
            }
            let actor = OperatorIdentity.current
            let invited = try await DatabaseOptions.withDatabase(settings: settings) { db in
                try await db.invitePlatformAdmin(
                    invitee, actor: actor, serverURL: serverURL, encryptionKeys: keys, reissuing: reissue, now: Date().timeIntervalSince1970)
            }
            say(Self.report(invited, invitee: invitee, serverURL: serverURL, development: settings.environment != .production))
        }

        /// Where the mailed link points: the public URL the settings give, else the one the last
        /// `serve` on the data directory recorded (in production, its `--public-url`); refused
        /// with neither, in development too: a link that opens nothing would strand the invitee.
        static func serverURL(_ settings: ServerSettings) throws -> String {
            if settings.publicURL != nil { return settings.serverURL }
            guard let recorded = RecordedServerURL.read(in: settings.dataDirectory) else {
                throw CommandFailure(
                    "no public URL: give --public-url (the address the invitee's browser opens the server at), or start `repairminder serve` on this data directory once, which records where it listens")
            }
            return recorded
        }

        /// What happened, and what comes next.
        static func report(_ invited: PlatformAdminInvitation, invitee: PlatformAdminInvitee, serverURL: String, development: Bool) -> String {
            var lines: [String] = []
            if invited.reissued {
                lines.append("Revoked the pending invitation of \(shown(invited.email)): its link no longer works.")
            }
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
            ]
            if development { lines.append("In development the sent mail is in: repairminder outbox --to \(shown(invited.email)) --last 1") }
            return lines.joined(separator: "\n")
        }
    }
}
