import Foundation
import Hummingbird
import HummingbirdTesting
import RepairMinderModels
import TestSupport
import Testing

@testable import RepairMinderServer

/// `repairminder admin create`'s work (`Database.invitePlatformAdmin`, docs/API.md §15) on the
/// engine under test: the mailed link makes a `master_admin` of the platform's own company, who
/// can do nothing but enrol a passkey until they have one, and then administers every shop.
@Suite struct PlatformAdminInvitationTests {
    static let invitee = "ann@operators.test"

    /// Invites `email` as the CLI does, on the test server's database and keys, at its clock's time.
    static func invite(_ server: TestServer, _ email: String = invitee, reissuing: Bool = false) async throws -> PlatformAdminInvitation {
        let keys = try server.settings.resolvedEncryptionKeys()
        let invitee = try PlatformAdminInvitee(email: email, firstName: "Ann", lastName: "Smith")
        return try await server.withDatabase { database in
            try await database.invitePlatformAdmin(
                invitee, actor: "alice", serverURL: server.settings.serverURL, encryptionKeys: keys, reissuing: reissuing,
                now: server.clock.now)
        }
    }

    /// Issue 50, item 6: an invitation whose mail went astray is re-issued: the first link dies,
    /// the new one works, and the operators' audit says who did it.
    @Test func aReissuedInvitationKillsTheFirstLink() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let first = try await Self.invite(server)
            #expect(!first.reissued)
            let second = try await Self.invite(server, reissuing: true)
            #expect(second.reissued && second.invitationId != first.invitationId)
            let links = try await client.mail(to: Self.invitee).compactMap { mail in
                mail.text.firstMatch(of: /token=([0-9a-f]{64})/).map { String($0.1) }
            }
            #expect(links.count == 2)
            try await client.post("/api/auth/invitations/accept", ["token": links[0], "password": "violet kettle 1987 drum"])
                .expectFailure(.notFound, "INVITATION_INVALID")
            #expect(try await client.post("/api/auth/invitations/accept", ["token": links[1], "password": "violet kettle 1987 drum"]).status == .ok)
            let events = try await Self.operatorEvents(server).filter { $0.contains("platform_admin") }
            #expect(events == [
                "platform_admin_invited alice {\"email\":\"ann@operators.test\"}",
                "platform_admin_invitation_revoked alice {\"email\":\"ann@operators.test\"}",
                "platform_admin_invited alice {\"email\":\"ann@operators.test\"}",
            ])
        }
    }

    /// The types and actors of the operators' events of the platform's own company, oldest first.
    static func operatorEvents(_ server: TestServer) async throws -> [String] {
        try await server.withDatabase { database in
            try await database.withConnection { db in
                try await db.raw(
                    """
                    SELECT type, actor, detail FROM activity_log WHERE company_id = \(bind: PlatformOwnCompany.id) AND actor IS NOT NULL
                    ORDER BY id
                    """
                ).all().map { row in
                    [try row.decode(column: "type", as: String.self), try row.decode(column: "actor", as: String.self),
                     try row.decode(column: "detail", as: String?.self) ?? ""].joined(separator: " ")
                }
            }
        }
    }

    @Test func theMailedLinkMakesAPlatformAdminWhoMustEnrolAPasskeyFirst() async throws {
        let server = try await PasskeyTests.server()
        try await server.run { client in
            // The demo's platform company gives 30 days; a real one none. Its administrators decide.
            let demoAdmin = try await PlatformAdminTests.platformAdmin(client)
            #expect(try await SecurityPolicyTests.put(client, demoAdmin, ["enrolmentGraceDays": 0]).status == .ok)
            // The demo set was loaded after the test clock started: on to its requirement's start.
            let since = try await server.withDatabase { database in
                try await database.withConnection { db in
                    try await db.raw("SELECT required_factor_since FROM companies WHERE id = \(bind: PlatformOwnCompany.id)")
                        .first(decodingColumn: "required_factor_since", as: Double.self)
                }
            }
            server.clock.advance(by: max(0, try #require(since) - server.clock.now) + 1)

            let invited = try await Self.invite(server)
            #expect(!invited.companyCreated)
            #expect(invited.companyId == PlatformOwnCompany.id)
            #expect(invited.requiredFactor == "passkey")
            #expect(invited.enrolmentGraceDays == 0)
            let mail = try #require(try await client.mail(to: Self.invitee).last)
            #expect(mail.subject == "You are invited to administer Repair Minder")
            #expect(mail.text.contains("Hello Ann,"))
            #expect(mail.text.contains(server.settings.serverURL + "/invite?token="))
            #expect(mail.text.contains("add one in the Repair Minder app or a browser before anything else."))
            #expect(try await Self.operatorEvents(server) == [#"platform_admin_invited alice {"email":"ann@operators.test"}"#])

            let token = try await InvitationTests.linkToken(client, to: Self.invitee)
            let preview = try await client.send(.get, "/api/auth/invitations/\(token)")
            #expect(preview.string("role") == "master_admin")
            #expect((preview.data["company"] as? [String: Any])?["id"] as? String == PlatformOwnCompany.id)
            let accepted = try await client.post("/api/auth/invitations/accept", ["token": token, "password": "violet kettle 1987 drum"])
            #expect(accepted.status == .ok)
            #expect((accepted.data["user"] as? [String: Any])?["role"] as? String == "master_admin")
            // Restricted to enrolment: the platform requires a passkey from the start.
            #expect(accepted.string("scope") == "enrol")
            #expect((accepted.data["enrolmentRequired"] as? [String: Any])?["methods"] as? [String] == ["passkey"])
            let restricted = try #require(accepted.string("token"))
            try await client.send(.get, "/api/admin/companies", bearer: restricted).expectFailure(.forbidden, "FACTOR_ENROLMENT_REQUIRED")
            #expect(try await PasskeyTests.enrol(client, token: restricted, SoftwarePasskeyAuthenticator(origin: PasskeyTests.site)).status == .created)
            let refreshed = try await client.post("/api/auth/refresh", ["refreshToken": try #require(accepted.string("refreshToken"))])
            #expect(refreshed.status == .ok)
            #expect(refreshed.string("scope") == nil)
            let full = try #require(refreshed.string("token"))
            let shops = try await PlatformAdminTests.shops(client, full, "?limit=100")
            #expect(shops.contains { $0["name"] as? String == "Acme Repairs" })
        }
    }

    @Test func refusalsChangeNothing() async throws {
        let server = try await TestServer()
        try await server.run { client in
            _ = try await Self.invite(server)
            let before = try await Self.counts(server)
            for (email, words) in [
                (Self.invitee, "already has a pending invitation to the platform, until "),
                (DemoFixtures.adminEmail, "already has a staff account (an admin of Acme Repairs)"),
                (DemoFixtures.platformAdminEmail, "already has a staff account (a platform administrator of Repair Minder platform)"),
            ] {
                do {
                    _ = try await Self.invite(server, email)
                    Issue.record("\(email) was invited")
                } catch let error as PlatformAdminInvitationError {
                    #expect(error.description.hasPrefix(email + " " + words), "\(error)")
                }
            }
            #expect(try await Self.counts(server) == before)
            #expect(try await client.mail(to: DemoFixtures.adminEmail).isEmpty)
            #expect(throws: FieldProblem("--email must be a valid email address")) {
                try PlatformAdminInvitee(email: "ann at operators", firstName: "Ann", lastName: "Smith")
            }
            #expect(throws: FieldProblem("--last-name is required")) {
                try PlatformAdminInvitee(email: "ann@operators.test", firstName: "Ann", lastName: "  ")
            }
        }
    }

    /// Invitations, queued mail and events: what a refusal must leave as it was.
    static func counts(_ server: TestServer) async throws -> [Int] {
        try await server.withDatabase { database in
            try await database.withConnection { db in
                var counts: [Int] = []
                for table in ["invitations", "mail_queue", "activity_log", "companies", "users"] {
                    counts.append(try await db.raw("SELECT COUNT(*) AS n FROM \(unsafeRaw: table)").first(decodingColumn: "n", as: Int.self) ?? -1)
                }
                return counts
            }
        }
    }
}
