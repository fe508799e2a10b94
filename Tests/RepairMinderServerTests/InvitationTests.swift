import Foundation
import Hummingbird
import HummingbirdTesting
import RepairMinderModels
import TestSupport
import Testing

@testable import RepairMinderServer

/// Invitations from sending to accepting (docs/API.md §12.3, §12.4), on the engine under test.
@Suite struct InvitationTests {
    static let invitee = "new.hire@acme.test"

    static func invite(
        _ client: TestClient, _ token: String, email: String = invitee, role: String = "engineer"
    ) async throws -> Reply {
        try await client.post(
            "/api/users/invitations", ["email": email, "firstName": "Nia", "lastName": "Hire", "role": role], bearer: token)
    }

    /// The token of the newest invitation link mailed to `email`.
    static func linkToken(_ client: TestClient, to email: String = invitee) async throws -> String {
        let mail = try #require(try await client.mail(to: email).last)
        let range = try #require(mail.text.range(of: #"/invite\?token=[0-9a-f]{64}"#, options: .regularExpression))
        return String(mail.text[range].suffix(64))
    }

    /// A shop chooses its name and its admins theirs: in mail the platform sends they read the
    /// same but no mail client finds a link in them.
    @Test func namesAShopChoseCannotBecomeLinksInItsMail() async throws {
        let server = try await TestServer()
        try await server.withDatabase { database in
            try await database.withConnection { db in
                try await db.raw("UPDATE companies SET name = 'Go to https://evil.example' WHERE name = 'Acme Repairs'").run()
                try await db.raw("UPDATE users SET first_name = 'x@evil.example', last_name = 'www.evil.example' WHERE email = \(bind: TeamTests.admin)").run()
            }
        }
        try await server.run { client in
            let admin = try await TeamTests.token(client)
            #expect(try await Self.invite(client, admin).status == .created)
            let mail = try #require(try await client.mail(to: Self.invitee).last)
            #expect(mail.text.hasPrefix("x\u{FF20}evil\u{2024}example www\u{2024}evil\u{2024}example invited you to join Go to https\u{A789}//evil\u{2024}example on"))
            for link in ["evil.example", "https://evil", "@evil"] { #expect(!mail.text.contains(link), "\(link)") }
            // The link the mail is for stays a link.
            #expect(try await Self.linkToken(client).count == 64)
        }
    }

    @Test func anInvitationIsMailedLookedAtAcceptedAndUsedUp() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let admin = try await TeamTests.token(client)
            let sent = try await Self.invite(client, admin, role: "office")
            #expect(sent.status == .created)
            #expect(sent.string("status") == "pending")
            #expect(sent.string("role") == "office")
            #expect((sent.data["invitedBy"] as? [String: Any])?["email"] as? String == DemoFixtures.adminEmail)
            let created = try #require(sent.string("createdAt").flatMap(Timestamp.date(iso8601:)))
            let expires = try #require(sent.string("expiresAt").flatMap(Timestamp.date(iso8601:)))
            #expect(expires.timeIntervalSince(created) == 7 * 24 * 3600)
            let mail = try #require(try await client.mail(to: Self.invitee).last)
            #expect(mail.subject == "You are invited to join a team on Repair Minder")
            #expect(mail.text.contains("Ada Admin invited you to join Acme Repairs on Repair Minder as office staff."))
            #expect(mail.text.contains(client.settings.serverURL + "/invite?token="))
            let token = try await Self.linkToken(client)
            // Only its hash is stored.
            let stored = try await server.withDatabase { database in
                try await database.withConnection { db in
                    try await db.raw("SELECT token_hash FROM invitations").first(decodingColumn: "token_hash", as: String.self)
                }
            }
            #expect(stored == SecretHashing.tokenHash(token))

            let pending = try TeamTests.list(try await client.send(.get, "/api/users/invitations", bearer: admin))
            #expect(pending.map { $0["email"] as? String } == [Self.invitee])
            // Looking does not use it.
            for _ in 0..<2 {
                let preview = try await client.send(.get, "/api/auth/invitations/\(token)")
                #expect(preview.status == .ok)
                #expect(preview.string("email") == Self.invitee)
                #expect((preview.data["company"] as? [String: Any])?["name"] as? String == "Acme Repairs")
            }
            try await client.post("/api/auth/invitations/accept", ["token": token, "password": "short"])
                .expectFailure(.badRequest, "WEAK_PASSWORD")
            let accepted = try await client.post(
                "/api/auth/invitations/accept", ["token": token, "password": "violet kettle 1987 drum", "firstName": "Nina"])
            #expect(accepted.status == .ok)
            let user = try #require(accepted.data["user"] as? [String: Any])
            #expect(user["email"] as? String == Self.invitee)
            #expect(user["role"] as? String == "office")
            #expect(user["first_name"] as? String == "Nina")
            #expect(user["last_name"] as? String == "Hire")
            #expect(try await client.send(.get, "/api/auth/me", bearer: accepted.string("token")).status == .ok)
            // Used up: every way of using it again is the same 404.
            try await client.send(.get, "/api/auth/invitations/\(token)")
                .expectFailure(.notFound, "INVITATION_INVALID", "This invitation is invalid or has expired")
            try await client.post("/api/auth/invitations/accept", ["token": token]).expectFailure(.notFound, "INVITATION_INVALID")
            #expect(try TeamTests.list(try await client.send(.get, "/api/users/invitations", bearer: admin)).isEmpty)
            // The new member signs in with the password they chose.
            #expect(try await client.signIn(Self.invitee, "violet kettle 1987 drum").string("token") != nil)
            let own = try TeamTests.list(try await client.send(.get, "/api/auth/activity", bearer: accepted.string("token")))
            #expect(own.contains { $0["type"] as? String == "invitation_accepted" })
            let adminEvents = try TeamTests.list(try await client.send(.get, "/api/auth/activity", bearer: admin))
            let sentEvent = try #require(adminEvents.first { $0["type"] as? String == "invitation_sent" })
            #expect(sentEvent["detail"] as? [String: String] == ["email": Self.invitee])
        }
    }

    @Test func twoConcurrentAcceptsCreateOneMember() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            let admin = try await TeamTests.token(client)
            #expect(try await Self.invite(client, admin).status == .created)
            let token = try await Self.linkToken(client)
            let statuses = try await race(4) { try await client.post("/api/auth/invitations/accept", ["token": token]).status }
            #expect(statuses.filter { $0 == .ok }.count == 1, "\(statuses)")
            #expect(statuses.filter { $0 == .notFound }.count == 3, "\(statuses)")
            let members = try await server.withDatabase { database in
                try await database.withConnection { db in
                    try await db.raw("SELECT COUNT(*) AS n FROM users WHERE email = \(bind: Self.invitee)").first(decodingColumn: "n", as: Int.self)
                }
            }
            #expect(members == 1)
        }
    }

    @Test func anAddressWithAnAccountGetsTheSameAnswerAndANoticeThatCannotBeAccepted() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let admin = try await TeamTests.token(client)
            let fresh = try await Self.invite(client, admin)
            let taken = try await Self.invite(client, admin, email: "owner@pending.test")
            #expect(fresh.status == taken.status)
            #expect(Set(fresh.data.keys) == Set(taken.data.keys))
            #expect(taken.string("status") == "pending")
            let notice = try #require(try await client.mail(to: "owner@pending.test").last)
            #expect(notice.subject == "You already have a Repair Minder account")
            #expect(!notice.text.contains("/invite?token="))
            // Its link, had anyone had one, would not work: there is none to guess, and the row is not acceptable.
            let acceptable = try await server.withDatabase { database in
                try await database.withConnection { db in
                    try await db.raw("SELECT acceptable FROM invitations WHERE email = 'owner@pending.test'")
                        .first(decodingColumn: "acceptable", as: Int.self)
                }
            }
            #expect(acceptable == 0)
        }
    }

    @Test func oneInvitationPendingPerAddressAndResendOrRevokeKillTheOldLink() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let admin = try await TeamTests.token(client)
            let sent = try await Self.invite(client, admin)
            let id = try #require(sent.string("id"))
            let first = try await Self.linkToken(client)
            try await Self.invite(client, admin).expectFailure(
                .conflict, "INVITATION_PENDING", "This address already has a pending invitation. Resend it or revoke it first.")
            try await Self.invite(client, admin, role: "master_admin").expectFailure(.badRequest, "VALIDATION_ERROR")
            // Resend: at most one mail a minute, then a new link; the old one dies.
            let tooSoon = try await client.send(.post, "/api/users/invitations/\(id)/resend", bearer: admin)
            tooSoon.expectFailure(.tooManyRequests, "RATE_LIMITED")
            #expect(tooSoon.headers[.retryAfter] == "60")
            server.clock.advance(by: 61)
            let resent = try await client.send(.post, "/api/users/invitations/\(id)/resend", bearer: admin)
            #expect(resent.status == .ok)
            let second = try await Self.linkToken(client)
            #expect(second != first)
            try await client.send(.get, "/api/auth/invitations/\(first)").expectFailure(.notFound, "INVITATION_INVALID")
            #expect(try await client.send(.get, "/api/auth/invitations/\(second)").status == .ok)
            // Revoke: the link dies, and a new invitation may be sent.
            let revoked = try await client.send(.delete, "/api/users/invitations/\(id)", bearer: admin)
            #expect(revoked.status == .ok)
            #expect(revoked.json["success"] as? Bool == true)
            try await client.send(.get, "/api/auth/invitations/\(second)").expectFailure(.notFound, "INVITATION_INVALID")
            try await client.send(.delete, "/api/users/invitations/\(id)", bearer: admin).expectFailure(.notFound, "NOT_FOUND")
            try await client.send(.post, "/api/users/invitations/\(id)/resend", bearer: admin).expectFailure(.notFound, "NOT_FOUND")
            #expect(try await Self.invite(client, admin).status == .created)
            let types = try TeamTests.list(try await client.send(.get, "/api/auth/activity?limit=100", bearer: admin))
                .compactMap { $0["type"] as? String }
            #expect(types.filter { $0 == "invitation_sent" }.count == 3)
            #expect(types.contains("invitation_revoked"))
        }
    }

    @Test func anExpiredInvitationCannotBeAcceptedAndFreesTheAddress() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let admin = try await TeamTests.token(client)
            #expect(try await Self.invite(client, admin).status == .created)
            let token = try await Self.linkToken(client)
            server.clock.advance(by: 7 * 24 * 3600 + 1)
            try await client.send(.get, "/api/auth/invitations/\(token)").expectFailure(.notFound, "INVITATION_INVALID")
            try await client.post("/api/auth/invitations/accept", ["token": token]).expectFailure(.notFound, "INVITATION_INVALID")
            let later = try await TeamTests.token(client)
            #expect(try TeamTests.list(try await client.send(.get, "/api/users/invitations", bearer: later)).isEmpty)
            #expect(try await Self.invite(client, later).status == .created)
        }
    }

    @Test func anotherShopsInvitationIsNotFound() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let admin = try await TeamTests.token(client)
            let id = try #require(try await Self.invite(client, admin).string("id"))
            // Beta Tech's admin, made for the test.
            try await server.withDatabase { database in
                try await database.withConnection { db in
                    try await db.raw(
                        """
                        UPDATE users SET company_id = (SELECT id FROM companies WHERE name = 'Beta Tech'), role = 'admin'
                        WHERE email = 'nopassword@acme.test'
                        """
                    ).run()
                }
            }
            #expect(try await client.post("/api/auth/magic-link/request", ["email": "nopassword@acme.test"]).status == .ok)
            let verified = try await client.post(
                "/api/auth/magic-link/verify-code",
                ["email": "nopassword@acme.test", "code": try await client.latestCode(to: "nopassword@acme.test")])
            let other = try #require(verified.string("token"))
            try await client.send(.delete, "/api/users/invitations/\(id)", bearer: other).expectFailure(.notFound, "NOT_FOUND")
            try await client.send(.post, "/api/users/invitations/\(id)/resend", bearer: other).expectFailure(.notFound, "NOT_FOUND")
            #expect(try TeamTests.list(try await client.send(.get, "/api/users/invitations", bearer: other)).isEmpty)
            #expect(try TeamTests.list(try await client.send(.get, "/api/users/invitations", bearer: admin)).count == 1)
        }
    }

    @Test func aShopSendsAtMostItsDailyInvitations() async throws {
        let server = try await TestServer { $0.invitationsPerDay = 2 }
        try await server.run { client in
            let admin = try await TeamTests.token(client)
            #expect(try await Self.invite(client, admin, email: "one@acme.test").status == .created)
            // A refused one does not count.
            try await Self.invite(client, admin, email: "one@acme.test").expectFailure(.conflict, "INVITATION_PENDING")
            #expect(try await Self.invite(client, admin, email: "two@acme.test").status == .created)
            let third = try await Self.invite(client, admin, email: "three@acme.test")
            third.expectFailure(.tooManyRequests, "RATE_LIMITED")
            #expect(third.headers[.retryAfter] != nil)
            #expect(try await client.mail(to: "three@acme.test").isEmpty)
        }
    }

    /// Two shops invite the same new address; once it joins one, the other's link is dead (an
    /// address is one shop's), and says so before anyone types a password.
    @Test func anAddressThatJoinedOneShopCannotTakeAnothersInvitation() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let acme = try await TeamTests.token(client)
            #expect(try await Self.invite(client, acme).status == .created)
            let acmeLink = try await Self.linkToken(client)
            // Beta Tech's admin, made for the test, invites the same address.
            try await server.withDatabase { database in
                try await database.withConnection { db in
                    try await db.raw(
                        """
                        UPDATE users SET company_id = (SELECT id FROM companies WHERE name = 'Beta Tech'), role = 'admin'
                        WHERE email = 'nopassword@acme.test'
                        """
                    ).run()
                }
            }
            #expect(try await client.post("/api/auth/magic-link/request", ["email": "nopassword@acme.test"]).status == .ok)
            let beta = try #require(
                try await client.post(
                    "/api/auth/magic-link/verify-code",
                    ["email": "nopassword@acme.test", "code": try await client.latestCode(to: "nopassword@acme.test")]
                ).string("token"))
            #expect(try await Self.invite(client, beta).status == .created)
            let betaLink = try await Self.linkToken(client)
            #expect(try await client.post("/api/auth/invitations/accept", ["token": acmeLink]).status == .ok)
            try await client.send(.get, "/api/auth/invitations/\(betaLink)").expectFailure(.notFound, "INVITATION_INVALID")
            try await client.post("/api/auth/invitations/accept", ["token": betaLink]).expectFailure(.notFound, "INVITATION_INVALID")
        }
    }

    /// An admin switched off (or demoted) cannot come back through an invitation they sent.
    @Test func aDeactivatedAdminsInvitationsAreRevoked() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let admin = try await TeamTests.token(client)
            let (secondId, second) = try await TeamTests.secondAdmin(client, admin, server: server)
            #expect(try await Self.invite(client, second, email: "comeback@acme.test", role: "admin").status == .created)
            let link = try await Self.linkToken(client, to: "comeback@acme.test")
            #expect(try await client.send(.post, "/api/users/\(secondId)/deactivate", bearer: admin).status == .ok)
            try await client.send(.get, "/api/auth/invitations/\(link)").expectFailure(.notFound, "INVITATION_INVALID")
            #expect(try TeamTests.list(try await client.send(.get, "/api/users/invitations", bearer: admin)).isEmpty)
        }
    }
}
