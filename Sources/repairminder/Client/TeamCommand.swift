import ArgumentParser
import Foundation
import RepairMinderKit
import RepairMinderModels

/// `repairminder team ...`: a signed-in admin manages the shop's members (docs/API.md §12).
struct TeamCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "team",
        abstract: "Manage your shop's team as a signed-in admin: members, invitations, roles, leavers.",
        discussion: """
            Every subcommand needs an admin's session (repairminder login --staff). Members are named by \
            their id, as `team list` shows it.

            EXAMPLES:
              repairminder team list --status all
              repairminder team invite --email eli@acme.test --first-name Eli \\
                  --last-name Engineer --role engineer
              repairminder team role 3f6c2a9e-1b7d-4c58-9e2a-6d1f0b8c4a27 senior_engineer
              repairminder team deactivate 3f6c2a9e-1b7d-4c58-9e2a-6d1f0b8c4a27
              repairminder team reset-factors 3f6c2a9e-1b7d-4c58-9e2a-6d1f0b8c4a27
            """,
        subcommands: [
            List.self, Show.self, Invite.self, Invitations.self, Role.self, Deactivate.self, Reactivate.self, Archive.self,
            Sessions.self, Activity.self, SignOut.self, ResetFactors.self,
        ])

    /// Runs `body` with the team client of the signed-in session.
    static func withTeam(_ connection: ServerOptions, _ body: @escaping (TeamClient) async throws -> Void) async throws {
        let context = try ClientContext(server: connection.server)
        try await context.run { try await body(TeamClient(api: context.api)) }
    }

    static func describe(_ member: TeamMember) -> String {
        let user = member.user
        let name = [user.firstName, user.lastName].compactMap { $0 }.joined(separator: " ")
        let status = member.archived ? "archived" : user.isActive ? "active" : "deactivated"
        let factors = [member.hasPassword ? "password" : nil, member.totpEnabled ? "app" : nil,
                       member.passkeyCount > 0 ? "\(member.passkeyCount) passkey\(member.passkeyCount == 1 ? "" : "s")" : nil]
            .compactMap { $0 }.joined(separator: ", ")
        return "\(shown(user.id))  \(shown(name.isEmpty ? user.email : name)) <\(shown(user.email))>  \(shown(user.role.rawValue)), \(status)"
            + (factors.isEmpty ? "" : "  (\(factors))")
    }

    struct List: AsyncParsableCommand, SendsRoutes {
        static let sends: [any ErasableRoute] = [Routes.team.members]
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the members, newest first.",
            usage: """
                repairminder team list [--status <status>] [--matching <text>]
                  [--page <page>] [--server <url>]
                """,
            discussion: """
                EXAMPLES:
                  repairminder team list
                  repairminder team list --status deactivated --matching eli
                """)
        @Option(help: "all, active, deactivated or archived.") var status: String = "all"
        @Option(help: "Only members whose address or name contains this.") var matching: String?
        @Option(help: "Page number, from 1.") var page: Int = 1
        @OptionGroup var connection: ServerOptions

        func validate() throws {
            guard TeamClient.StatusFilter(rawValue: status) != nil else { throw ValidationError("--status must be all, active, deactivated or archived") }
        }

        func run() async throws {
            let (status, matching, page) = (TeamClient.StatusFilter(rawValue: status) ?? .all, matching, page)
            try await TeamCommand.withTeam(connection) { team in
                let found = try await team.members(page: page, status: status, matching: matching)
                for member in found.items { say(TeamCommand.describe(member)) }
                say(found.footer)
            }
        }
    }

    struct Show: AsyncParsableCommand, SendsRoutes {
        static let sends: [any ErasableRoute] = [Routes.team.member]
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show one member: role, status and sign-in methods.",
            usage: """
                repairminder team show <id> [--server <url>]
                """,
            discussion: """
                EXAMPLES:
                  repairminder team show 3f6c2a9e-1b7d-4c58-9e2a-6d1f0b8c4a27
                """)
        @Argument(help: "The member's id.") var id: String
        @OptionGroup var connection: ServerOptions

        func run() async throws {
            let id = id
            try await TeamCommand.withTeam(connection) { team in say(TeamCommand.describe(try await team.member(id))) }
        }
    }

    struct Invite: AsyncParsableCommand, SendsRoutes {
        static let sends: [any ErasableRoute] = [Routes.team.invite]
        static let configuration = CommandConfiguration(
            commandName: "invite",
            abstract: "Invite someone to the team: they are emailed a link that works once, for 7 days.",
            usage: """
                repairminder team invite --email <email> --first-name <first-name>
                  --last-name <last-name> --role <role> [--server <url>]
                """,
            discussion: """
                The answer is the same whether or not the address already has an account somewhere; such an address is told how to sign in instead.

                EXAMPLES:
                  repairminder team invite --email eli@acme.test --first-name Eli \\
                      --last-name Engineer --role engineer
                """)
        @Option(help: "Their email address.") var email: String
        @Option(name: .customLong("first-name"), help: "Their first name.") var firstName: String
        @Option(name: .customLong("last-name"), help: "Their last name.") var lastName: String
        @Option(help: "admin, senior_engineer, engineer or office.") var role: String
        @OptionGroup var connection: ServerOptions

        func run() async throws {
            let (email, firstName, lastName, role) = (email, firstName, lastName, UserRole(rawValue: role))
            try await TeamCommand.withTeam(connection) { team in
                let invitation = try await team.invite(email: email, firstName: firstName, lastName: lastName, role: role)
                say("Invited \(shown(invitation.email)) as \(shown(invitation.role.rawValue)) (invitation \(shown(invitation.id)), until \(invitation.expiresAt)).")
            }
        }
    }

    struct Invitations: AsyncParsableCommand, SendsRoutes {
        static let sends: [any ErasableRoute] = [Routes.team.invitations, Routes.team.resendInvitation, Routes.team.revokeInvitation]
        static let configuration = CommandConfiguration(
            commandName: "invitations",
            abstract: "List the pending invitations, or resend or revoke one.",
            usage: """
                repairminder team invitations [--resend <id>] [--revoke <id>]
                  [--server <url>]
                """,
            discussion: """
                Resending mails a new link (the old one stops working), at most once a minute.

                EXAMPLES:
                  repairminder team invitations
                  repairminder team invitations --resend 0193a4c2-7d1e-7b3a-9f20-4c8e1d2a6b57
                """)
        @Option(help: ArgumentHelp("Send this invitation again with a new link.", valueName: "id")) var resend: String?
        @Option(help: ArgumentHelp("Revoke this invitation: its link stops working.", valueName: "id")) var revoke: String?
        @OptionGroup var connection: ServerOptions

        func run() async throws {
            let (resend, revoke) = (resend, revoke)
            try await TeamCommand.withTeam(connection) { team in
                if let resend {
                    let invitation = try await team.resend(invitation: resend)
                    say("Sent again to \(shown(invitation.email)), with a new link until \(invitation.expiresAt).")
                } else if let revoke {
                    try await team.revoke(invitation: revoke)
                    say("Invitation revoked.")
                } else {
                    let pending = try await team.invitations()
                    if pending.isEmpty { say("No pending invitations.") }
                    for invitation in pending {
                        say("\(shown(invitation.id))  \(shown(invitation.email))  \(shown(invitation.role.rawValue)), until \(invitation.expiresAt)")
                    }
                }
            }
        }
    }

    struct Role: AsyncParsableCommand, SendsRoutes {
        static let sends: [any ErasableRoute] = [Routes.team.update]
        static let configuration = CommandConfiguration(
            commandName: "role",
            abstract: "Change a member's role; it takes effect at once on every device.",
            usage: """
                repairminder team role <id> <role> [--server <url>]
                """,
            discussion: """
                Not your own, and not the last active admin's.

                EXAMPLES:
                  repairminder team role 3f6c2a9e-1b7d-4c58-9e2a-6d1f0b8c4a27 senior_engineer
                """)
        @Argument(help: "The member's id.") var id: String
        @Argument(help: "admin, senior_engineer, engineer or office.") var role: String
        @OptionGroup var connection: ServerOptions

        func run() async throws {
            let (id, role) = (id, UserRole(rawValue: role))
            try await TeamCommand.withTeam(connection) { team in say(TeamCommand.describe(try await team.setRole(of: id, to: role))) }
        }
    }

    struct Deactivate: MemberChange {
        static let sends: [any ErasableRoute] = [Routes.team.deactivate]
        static let configuration = CommandConfiguration(
            commandName: "deactivate",
            abstract: "Switch a leaver off: their sessions end at once.",
            usage: """
                repairminder team deactivate <id> [--server <url>]
                """,
            discussion: """
                EXAMPLES:
                  repairminder team deactivate 3f6c2a9e-1b7d-4c58-9e2a-6d1f0b8c4a27
                """)
        @Argument(help: "The member's id.") var id: String
        @OptionGroup var connection: ServerOptions
        static func apply(_ team: TeamClient, _ id: String) async throws -> TeamMember { try await team.deactivate(id) }
    }

    struct Reactivate: MemberChange {
        static let sends: [any ErasableRoute] = [Routes.team.reactivate]
        static let configuration = CommandConfiguration(
            commandName: "reactivate",
            abstract: "Let a deactivated member sign in again.",
            usage: """
                repairminder team reactivate <id> [--server <url>]
                """,
            discussion: """
                EXAMPLES:
                  repairminder team reactivate 3f6c2a9e-1b7d-4c58-9e2a-6d1f0b8c4a27
                """)
        @Argument(help: "The member's id.") var id: String
        @OptionGroup var connection: ServerOptions
        static func apply(_ team: TeamClient, _ id: String) async throws -> TeamMember { try await team.reactivate(id) }
    }

    struct Archive: MemberChange {
        static let sends: [any ErasableRoute] = [Routes.team.archive]
        static let configuration = CommandConfiguration(
            commandName: "archive",
            abstract: "Archive a member for good: they never sign in again, and the address stays taken.",
            usage: """
                repairminder team archive <id> [--server <url>]
                """,
            discussion: """
                EXAMPLES:
                  repairminder team archive 3f6c2a9e-1b7d-4c58-9e2a-6d1f0b8c4a27
                """)
        @Argument(help: "The member's id.") var id: String
        @OptionGroup var connection: ServerOptions
        static func apply(_ team: TeamClient, _ id: String) async throws -> TeamMember { try await team.archive(id) }
    }

    struct Sessions: AsyncParsableCommand, SendsRoutes {
        static let sends: [any ErasableRoute] = [Routes.team.sessions]
        static let configuration = CommandConfiguration(
            commandName: "sessions",
            abstract: "List a member's signed-in devices, newest first.",
            usage: """
                repairminder team sessions <id> [--server <url>]
                """,
            discussion: """
                `team sign-out <id>` ends them all.

                EXAMPLES:
                  repairminder team sessions 3f6c2a9e-1b7d-4c58-9e2a-6d1f0b8c4a27
                """)
        @Argument(help: "The member's id.") var id: String
        @OptionGroup var connection: ServerOptions

        func run() async throws {
            let id = id
            try await TeamCommand.withTeam(connection) { team in
                let sessions = try await team.sessions(of: id)
                if sessions.isEmpty { say("No live sessions.") }
                for session in sessions { say(session.line) }
            }
        }
    }

    struct Activity: AsyncParsableCommand, SendsRoutes {
        static let sends: [any ErasableRoute] = [Routes.team.activity]
        static let configuration = CommandConfiguration(
            commandName: "activity",
            abstract: "List a member's security events, newest first, with the admin who did each change.",
            usage: """
                repairminder team activity <id> [--page <page>] [--server <url>]
                """,
            discussion: """
                EXAMPLES:
                  repairminder team activity 3f6c2a9e-1b7d-4c58-9e2a-6d1f0b8c4a27
                """)
        @Argument(help: "The member's id.") var id: String
        @Option(help: "Page number, from 1.") var page: Int = 1
        @OptionGroup var connection: ServerOptions

        func run() async throws {
            let (id, page) = (id, page)
            try await TeamCommand.withTeam(connection) { team in ActivityCommand.print(try await team.activity(of: id, page: page)) }
        }
    }

    struct SignOut: AsyncParsableCommand, SendsRoutes {
        static let sends: [any ErasableRoute] = [Routes.team.signOut]
        static let configuration = CommandConfiguration(
            commandName: "sign-out",
            abstract: "End every session of a member.",
            usage: """
                repairminder team sign-out <id> [--server <url>]
                """,
            discussion: """
                EXAMPLES:
                  repairminder team sign-out 3f6c2a9e-1b7d-4c58-9e2a-6d1f0b8c4a27
                """)
        @Argument(help: "The member's id.") var id: String
        @OptionGroup var connection: ServerOptions

        func run() async throws {
            let id = id
            try await TeamCommand.withTeam(connection) { team in
                let count = try await team.signOut(id)
                say(count == 1 ? "Signed out 1 session." : "Signed out \(count) sessions.")
            }
        }
    }

    struct ResetFactors: AsyncParsableCommand, SendsRoutes {
        static let sends: [any ErasableRoute] = [Routes.team.resetFactors]
        static let configuration = CommandConfiguration(
            commandName: "reset-factors",
            abstract: "For someone who lost their phone: remove their authenticator app, recovery codes and passkeys, and sign them out.",
            usage: """
                repairminder team reset-factors <id> [--server <url>]
                """,
            discussion: """
                They are mailed a notice, sign in with their password and an emailed code, and enrol again.

                EXAMPLES:
                  repairminder team reset-factors 3f6c2a9e-1b7d-4c58-9e2a-6d1f0b8c4a27
                """)
        @Argument(help: "The member's id.") var id: String
        @OptionGroup var connection: ServerOptions

        func run() async throws {
            let id = id
            try await TeamCommand.withTeam(connection) { team in
                let member = try await team.resetSignInMethods(of: id)
                say("Reset. \(shown(member.user.email)) signs in with their password and an emailed code, then enrols again.")
            }
        }
    }
}

/// A subcommand that changes one member's status and prints the member as changed.
protocol MemberChange: AsyncParsableCommand, SendsRoutes {
    var id: String { get }
    var connection: ServerOptions { get }
    static func apply(_ team: TeamClient, _ id: String) async throws -> TeamMember
}

extension MemberChange {
    func run() async throws {
        let id = id
        try await TeamCommand.withTeam(connection) { team in say(TeamCommand.describe(try await Self.apply(team, id))) }
    }
}

/// `repairminder invitation accept --token T`: join a shop from its invitation.
struct InvitationCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "invitation", abstract: "Accept an invitation to a shop's team.",
        discussion: """
            EXAMPLES:
              repairminder invitation accept --token "$TOKEN"   # from the emailed link
            """,
        subcommands: [Accept.self])

    struct Accept: MainActorClientCommand, SendsRoutes {
        static let sends: [any ErasableRoute] = [Routes.team.invitation, Routes.team.acceptInvitation]
        static let configuration = CommandConfiguration(
            commandName: "accept",
            abstract: "Join the shop the invitation is to, set a password, and sign in.",
            usage: """
                repairminder invitation accept --token <token> [--no-password]
                  [--server <url>]
                """,
            discussion: """
                The token is the end of the emailed link (…/invite?token=…). On a terminal the password is typed \
                twice; from a script it is the next line of standard input. With --no-password the account signs \
                in later by magic link or passkey.

                EXAMPLES:
                  repairminder invitation accept --token "$TOKEN"   # from the emailed link
                """)
        @Option(help: "The token of the emailed link.") var token: String
        @Flag(name: .customLong("no-password"), help: "Join without a password.") var noPassword = false
        @OptionGroup var connection: ServerOptions

        @MainActor
        func perform(_ context: ClientContext) async throws {
            let auth = StaffAuth(api: context.api)
            let offer = try await auth.invitation(token: token)
            Terminal.note("\(shown(offer.company.name)) invites \(shown(offer.email)) as \(shown(offer.role.rawValue)).")
            try await auth.acceptInvitation(token: token, password: noPassword ? nil : try AccountInput.newPassword())
            if case .signedIn(let me) = auth.state { Terminal.note("Joined and signed in as \(Describe.staff(me)).") }
        }
    }
}
