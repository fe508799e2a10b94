import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import RepairMinderServer

/// The activity log (docs/API.md §9.4): each security event lands once, in the same
/// transaction as its change, and holds no secret.
@Suite struct ActivityLogTests {
    let admin = DemoFixtures.adminEmail

    /// The caller's events, newest first, as types.
    private func types(_ client: TestClient, bearer: String?, limit: Int = 100) async throws -> [String] {
        let reply = try await client.send(.get, "/api/auth/activity?limit=\(limit)", bearer: bearer)
        #expect(reply.status == .ok)
        return (reply.json["data"] as? [[String: Any]] ?? []).compactMap { $0["type"] as? String }
    }

    /// An operator's change to an account (`repairminder seed` with an actor) is in the
    /// operators' audit, not in the user's own list, whose types are a published enum.
    @Test func operatorsEventsStayOutOfTheUsersOwnActivity() async throws {
        let server = try await TestServer()
        var file = DemoFixtures.file
        let index = try #require(file.users!.firstIndex { $0.email == DemoFixtures.engineerEmail })
        file.users![index].lastName = "Renamed"
        let changed = file
        try await server.withDatabase { db in _ = try await FixtureLoader(database: db, bcryptCost: 4).load(changed, actor: "ops") }
        let audit = try await server.withDatabase { db in try await db.activity(email: DemoFixtures.engineerEmail, since: 0) }
        #expect(audit.map(\.event.type.rawValue) == ["user_updated"])
        #expect(audit.first?.actor == "ops")
        try await server.run { client in
            let token = try #require(try await client.signIn(DemoFixtures.engineerEmail, DemoFixtures.engineerPassword).string("token"))
            #expect(try await types(client, bearer: token) == ["login_succeeded"])
        }
    }

    @Test func everyEventIsLoggedOnceAndNoSecretIsStored() async throws {
        let server = try await TestServer()
        try await server.run { client in
            var secrets = [DemoFixtures.adminPassword, "wrong password"]
            #expect(try await client.post("/api/auth/login", ["email": admin, "password": "wrong password"]).status == .unauthorized)
            let first = try await client.signIn()
            let token = try #require(first.string("token"))
            secrets += [token, try #require(first.string("refreshToken"))]
            let (_, recovery) = try await TOTPTests.enrol(client, server: server, token: token)
            secrets += recovery
            // A wrong code, then a recovery code signs in.
            let userId = try await client.login(admin, DemoFixtures.adminPassword)
            _ = try await client.post("/api/auth/2fa/verify", ["userId": userId, "code": "000000"])
            let second = try await client.post("/api/auth/2fa/verify", ["userId": userId, "code": recovery[0]])
            let secondRefresh = try #require(second.string("refreshToken"))
            secrets.append(secondRefresh)
            // A refresh, then the old token again: reuse, the session is revoked.
            let rotated = try await client.post("/api/auth/refresh", ["refreshToken": secondRefresh])
            secrets.append(try #require(rotated.string("refreshToken")))
            server.clock.advance(by: 60)
            _ = try await client.post("/api/auth/refresh", ["refreshToken": secondRefresh])
            // Change the password: the other sessions (none left but the first) stay with this one.
            let newPassword = "violet kettle 1987 drum"
            secrets.append(newPassword)
            #expect(try await client.send(
                .put, "/api/users/me/password",
                json: #"{"currentPassword":"\#(DemoFixtures.adminPassword)","newPassword":"\#(newPassword)"}"#, bearer: token
            ).status == .ok)
            #expect(try await client.post("/api/auth/totp/disable", ["code": recovery[1]], bearer: token).status == .ok)

            let logged = try await types(client, bearer: token)
            #expect(logged == [
                "totp_disabled", "password_changed", "session_revoked", "token_reuse_detected", "login_succeeded",
                "recovery_code_used", "two_factor_failed", "totp_enabled", "login_succeeded", "login_failed",
            ], "\(logged)")

            // A reset revokes every session, this one included: then sign-in sees it.
            #expect(try await client.post("/api/auth/password/forgot", ["email": admin]).status == .ok)
            let code = try await client.latestCode(to: admin)
            secrets.append(code)
            #expect(try await client.post("/api/auth/password/reset", ["email": admin, "code": code, "password": "another decent passphrase"]).status == .ok)
            secrets.append("another decent passphrase")
            let after = try #require(try await client.signIn(admin, "another decent passphrase").string("token"))
            #expect(try await types(client, bearer: after).prefix(3) == ["login_succeeded", "session_revoked", "password_reset"])

            let rows = try await server.withDatabase { db in
                try await db.withConnection { try await $0.raw("SELECT * FROM activity_log").all(decoding: ActivityRecord.self, with: AccountStore.rowDecoder) }
            }
            let stored = rows.map { "\($0.id) \($0.userId ?? "") \($0.type) \($0.ipAddress ?? "") \($0.userAgent ?? "") \($0.sessionId ?? "")" }.joined()
            for secret in secrets { #expect(!stored.contains(secret), "a secret is in the activity log") }
            #expect(rows.allSatisfy { $0.userAgent == TestClient.browser })
        }
    }

    @Test func logoutAndRevocationsAreLoggedForTheirUserOnly() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let engineer = try #require(try await client.signIn(DemoFixtures.engineerEmail, DemoFixtures.engineerPassword).string("token"))
            let other = try #require(try await client.signIn().string("token"))
            let token = try #require(try await client.signIn().string("token"))
            #expect(try await client.send(.post, "/api/auth/logout", bearer: other).status == .ok)
            #expect(try await types(client, bearer: token) == ["session_revoked", "login_succeeded", "login_succeeded"])
            #expect(try await types(client, bearer: engineer) == ["login_succeeded"])
        }
    }

    @Test func thePagesCountAndTheLimitIsChecked() async throws {
        let server = try await TestServer()
        try await server.run { client in
            for _ in 1...4 { _ = try await client.signIn() }
            let token = try #require(try await client.signIn().string("token"))
            let page = try await client.send(.get, "/api/auth/activity?page=2&limit=2", bearer: token)
            #expect(page.status == .ok)
            #expect((page.json["data"] as? [[String: Any]])?.count == 2)
            let pagination = try #require(page.json["pagination"] as? [String: Any])
            #expect(pagination["page"] as? Int == 2)
            #expect(pagination["limit"] as? Int == 2)
            #expect(pagination["total"] as? Int == 5)
            #expect(pagination["total_pages"] as? Int == 3)
            let item = try #require((page.json["data"] as? [[String: Any]])?.first)
            #expect(Set(item.keys) == ["id", "type", "at", "ipAddress", "userAgent", "sessionId"])
            let beyond = try await client.send(.get, "/api/auth/activity?page=9&limit=2", bearer: token)
            #expect((beyond.json["data"] as? [Any])?.isEmpty == true)
            for bad in ["page=0", "limit=0", "limit=abc", "page=-1", "page=1000001", "limit=1000001"] {
                try await client.send(.get, "/api/auth/activity?\(bad)", bearer: token).expectFailure(.badRequest, "VALIDATION_ERROR")
            }
            let capped = try await client.send(.get, "/api/auth/activity?limit=1000", bearer: token)
            #expect((capped.json["pagination"] as? [String: Any])?["limit"] as? Int == 100)
        }
    }

    @Test func theOperatorsViewFiltersByEmailAndTime() async throws {
        let server = try await TestServer()
        try await server.run { client in
            _ = try await client.signIn(DemoFixtures.engineerEmail, DemoFixtures.engineerPassword)
            server.clock.advance(by: 3600)
            _ = try await client.signIn()
            let since = server.clock.now - 60
            let (everyone, adminOnly, recent) = try await server.withDatabase { db in
                (try await db.activity(email: nil, since: 0), try await db.activity(email: admin, since: 0),
                 try await db.activity(email: nil, since: since))
            }
            #expect(everyone.map(\.email) == [DemoFixtures.engineerEmail, admin])
            #expect(adminOnly.count == 1)
            #expect(recent.map(\.email) == [admin])
        }
    }
}
