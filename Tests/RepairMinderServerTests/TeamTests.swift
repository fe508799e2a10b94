import Foundation
import Hummingbird
import HummingbirdTesting
import RepairMinderModels
import TestSupport
import Testing

@testable import RepairMinderServer

/// A shop's admins manage its members (docs/API.md §12.1, §12.2), on the engine under test.
@Suite struct TeamTests {
    static let admin = DemoFixtures.adminEmail
    static let engineer = DemoFixtures.engineerEmail

    static func token(_ client: TestClient, _ email: String = admin, _ password: String = DemoFixtures.adminPassword) async throws -> String {
        try #require(try await client.signIn(email, password).string("token"))
    }

    static func list(_ reply: Reply) throws -> [[String: Any]] { try #require(reply.json["data"] as? [[String: Any]]) }

    static func memberId(_ client: TestClient, _ token: String, email: String) async throws -> String {
        let members = try list(try await client.send(.get, "/api/users?limit=100", bearer: token))
        return try #require(members.first { $0["email"] as? String == email }?["id"] as? String)
    }

    static func patch(_ client: TestClient, _ token: String, _ id: String, _ body: [String: Any]) async throws -> Reply {
        let json = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
        return try await client.send(.patch, "/api/users/\(id)", json: json, bearer: token)
    }

    /// Another staff member of Acme as admin, with a password: the second admin of the races.
    static func secondAdmin(_ client: TestClient, _ token: String, server: TestServer) async throws -> (id: String, token: String) {
        let id = try await memberId(client, token, email: engineer)
        #expect(try await patch(client, token, id, ["role": "admin"]).status == .ok)
        return (id, try await Self.token(client, engineer, DemoFixtures.engineerPassword))
    }

    @Test func theListShowsMembersNewestFirstWithHowTheySignIn() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let token = try await Self.token(client)
            let reply = try await client.send(.get, "/api/users?page=1&limit=3", bearer: token)
            #expect(reply.status == .ok)
            let members = try Self.list(reply)
            #expect(members.count == 3)
            let pagination = try #require(reply.json["pagination"] as? [String: Any])
            #expect(pagination["total"] as? Int == 5)
            #expect(pagination["total_pages"] as? Int == 2)
            let keys = Set(try #require(members.first).keys)
            #expect(keys.isSuperset(of: ["id", "email", "role", "is_active", "has_password", "totp_enabled", "passkey_count", "last_login"]))
            // Only Acme's members, whatever the filter; the other shops' owners never appear.
            let all = try Self.list(try await client.send(.get, "/api/users?limit=100&status=all", bearer: token))
            #expect(Set(all.compactMap { $0["email"] as? String }) == [
                Self.admin, Self.engineer, "nopassword@acme.test", "deactivated@acme.test", "archived@acme.test",
            ])
            let noPassword = try #require(all.first { $0["email"] as? String == "nopassword@acme.test" })
            #expect(noPassword["has_password"] as? Int == 0)
            #expect(all.first { $0["email"] as? String == Self.admin }?["has_password"] as? Int == 1)
            // Issue 50, item 5: the member object says who is archived.
            #expect(all.map { $0["archived"] as? Int } == all.map { $0["email"] as? String == "archived@acme.test" ? 1 : 0 })
            // Filters: status and text, case-insensitively; LIKE's wildcards are literal.
            func emails(_ query: String) async throws -> Set<String> {
                Set(try Self.list(try await client.send(.get, "/api/users?\(query)", bearer: token)).compactMap { $0["email"] as? String })
            }
            #expect(try await emails("status=deactivated") == ["deactivated@acme.test"])
            #expect(try await emails("status=archived") == ["archived@acme.test"])
            #expect(try await emails("status=active") == [Self.admin, Self.engineer, "nopassword@acme.test"])
            #expect(try await emails("q=ENGIN") == [Self.engineer])
            #expect(try await emails("q=ada%20admin") == [Self.admin])
            #expect(try await emails("q=%25") == [])
            try await client.send(.get, "/api/users?status=gone", bearer: token).expectFailure(.badRequest, "VALIDATION_ERROR")
            try await client.send(.get, "/api/users?page=0", bearer: token).expectFailure(.badRequest, "VALIDATION_ERROR")
            // One member; another shop's or an unknown id is 404.
            let engineerId = try await Self.memberId(client, token, email: Self.engineer)
            let one = try await client.send(.get, "/api/users/\(engineerId)", bearer: token)
            #expect(one.string("email") == Self.engineer)
            #expect(one.data["role"] as? String == "engineer")
            let pendingOwner = try #require(try await server.withDatabase { try await AccountStore(database: $0).user(email: "owner@pending.test") })
            try await client.send(.get, "/api/users/\(pendingOwner.id)", bearer: token).expectFailure(.notFound, "NOT_FOUND")
            try await client.send(.get, "/api/users/nobody", bearer: token).expectFailure(.notFound, "NOT_FOUND")
            // Nor can any change reach another shop's member, and none is made.
            try await Self.patch(client, token, pendingOwner.id, ["role": "office"]).expectFailure(.notFound, "NOT_FOUND")
            for action in ["deactivate", "archive", "sign-out", "reset-factors"] {
                try await client.send(.post, "/api/users/\(pendingOwner.id)/\(action)", bearer: token).expectFailure(.notFound, "NOT_FOUND")
            }
            let untouched = try #require(try await server.withDatabase { try await AccountStore(database: $0).user(email: "owner@pending.test") })
            #expect(untouched.role == "admin" && untouched.isActive == 1 && untouched.archived == 0)
            #expect(try await client.login("owner@pending.test", "pending password").isEmpty == false)
        }
    }

    /// Engineers and office staff lack `users:manage`; a quarantined shop's admin is held by
    /// quarantine; nobody reaches another shop.
    @Test func withoutThePermissionEveryTeamRouteIsForbidden() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let admin = try await Self.token(client)
            let engineerId = try await Self.memberId(client, admin, email: Self.engineer)
            let engineer = try await Self.token(client, Self.engineer, DemoFixtures.engineerPassword)
            let requests: [(HTTPRequest.Method, String, String?)] = [
                (.get, "/api/users", nil), (.get, "/api/users/\(engineerId)", nil),
                (.patch, "/api/users/\(engineerId)", #"{"firstName":"X"}"#), (.post, "/api/users/\(engineerId)/deactivate", nil),
                (.post, "/api/users/\(engineerId)/sign-out", nil), (.post, "/api/users/\(engineerId)/reset-factors", nil),
                (.get, "/api/users/\(engineerId)/activity", nil), (.get, "/api/users/invitations", nil),
                (.post, "/api/users/invitations", #"{"email":"x@acme.test","firstName":"X","lastName":"Y","role":"engineer"}"#),
            ]
            for (method, path, body) in requests {
                try await client.send(method, path, json: body, bearer: engineer)
                    .expectFailure(.forbidden, "FORBIDDEN", "You do not have permission to do this")
            }
            // Nothing changed: the engineer is as they were.
            let member = try await client.send(.get, "/api/users/\(engineerId)", bearer: admin)
            #expect(member.data["first_name"] as? String == "Eli")
            #expect(member.data["is_active"] as? Int == 1)
            // Office staff (a magic-link user) lack it too.
            #expect(try await client.post("/api/auth/magic-link/request", ["email": "nopassword@acme.test"]).status == .ok)
            let office = try #require(
                try await client.post(
                    "/api/auth/magic-link/verify-code",
                    ["email": "nopassword@acme.test", "code": try await client.latestCode(to: "nopassword@acme.test")]
                ).string("token"))
            try await client.send(.get, "/api/users", bearer: office).expectFailure(.forbidden, "FORBIDDEN", "You do not have permission to do this")
            // A quarantined shop's admin: quarantine answers first.
            let pending = try await Self.token(client, "owner@pending.test", "pending password")
            try await client.send(.get, "/api/users", bearer: pending).expectFailure(.forbidden, "ACCOUNT_PENDING_APPROVAL")
            let suspended = try await Self.token(client, "owner@suspended.test", "suspended password")
            try await client.post(
                "/api/users/invitations", ["email": "x@acme.test", "firstName": "X", "lastName": "Y", "role": "engineer"], bearer: suspended
            ).expectFailure(.forbidden, "ACCOUNT_SUSPENDED")
            let invitations = try await server.withDatabase { database in
                try await database.withConnection { db in
                    try await db.raw("SELECT COUNT(*) AS n FROM invitations").first(decodingColumn: "n", as: Int.self)
                }
            }
            #expect(invitations == 0)
        }
    }

    @Test func aRoleChangeRefusesTheOldTokensAndTheRefreshCarriesTheNewRole() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let admin = try await Self.token(client)
            let engineerId = try await Self.memberId(client, admin, email: Self.engineer)
            let signedIn = try await client.signIn(Self.engineer, DemoFixtures.engineerPassword)
            let engineer = try #require(signedIn.string("token"))
            let changed = try await Self.patch(client, admin, engineerId, ["role": "senior_engineer", "lastName": "Senior"])
            #expect(changed.status == .ok)
            #expect(changed.data["role"] as? String == "senior_engineer")
            #expect(changed.data["last_name"] as? String == "Senior")
            try await client.send(.get, "/api/auth/me", bearer: engineer).expectFailure(.unauthorized, "TOKEN_EXPIRED")
            let refreshed = try await client.post("/api/auth/refresh", ["refreshToken": try #require(signedIn.string("refreshToken"))])
            #expect(refreshed.status == .ok)
            let payload = try #require(refreshed.string("token")?.split(separator: ".").dropFirst().first)
            let claims = try JSONSerialization.jsonObject(with: try #require(Data(base64URLEncoded: String(payload)))) as? [String: Any]
            #expect(claims?["role"] as? String == "senior_engineer")
            #expect((claims?["permissions"] as? [String])?.contains("orders:write") == true)
            // Refusals: your own role, master_admin, a role that does not exist.
            let adminId = try await Self.memberId(client, admin, email: Self.admin)
            try await Self.patch(client, admin, adminId, ["role": "engineer"]).expectFailure(.conflict, "CANNOT_CHANGE_SELF")
            try await Self.patch(client, admin, engineerId, ["role": "master_admin"]).expectFailure(.badRequest, "VALIDATION_ERROR")
            try await Self.patch(client, admin, engineerId, ["role": "owner"]).expectFailure(.badRequest, "VALIDATION_ERROR")
            try await Self.patch(client, admin, engineerId, ["magicLinkEnabled": "yes"]).expectFailure(.badRequest, "VALIDATION_ERROR")
            // Names may be the caller's own.
            #expect(try await Self.patch(client, admin, adminId, ["firstName": "Adele"]).data["first_name"] as? String == "Adele")
            // The event names the admin and what changed.
            let events = try Self.list(try await client.send(.get, "/api/users/\(engineerId)/activity", bearer: admin))
            let event = try #require(events.first { $0["type"] as? String == "role_changed" })
            #expect((event["actor"] as? [String: Any])?["email"] as? String == Self.admin)
            #expect(event["detail"] as? [String: String] == ["from": "engineer", "to": "senior_engineer"])
        }
    }

    /// A platform administrator in a shop is the operators' to manage.
    @Test func aPlatformAdministratorIsNotTheShopsToChange() async throws {
        let server = try await TestServer()
        try await server.run { client in
            try await server.withDatabase { database in
                try await database.withConnection { db in
                    try await db.raw("UPDATE users SET role = 'master_admin' WHERE email = 'nopassword@acme.test'").run()
                }
            }
            let admin = try await Self.token(client)
            let id = try await Self.memberId(client, admin, email: "nopassword@acme.test")
            let message = "Platform administrators are managed by the operators"
            try await Self.patch(client, admin, id, ["firstName": "X"]).expectFailure(.forbidden, "FORBIDDEN", message)
            for action in ["deactivate", "archive", "reset-factors", "sign-out"] {
                try await client.send(.post, "/api/users/\(id)/\(action)", bearer: admin).expectFailure(.forbidden, "FORBIDDEN", message)
            }
            let member = try await client.send(.get, "/api/users/\(id)", bearer: admin)
            #expect(member.data["first_name"] as? String == "Nina")
            #expect(member.data["is_active"] as? Int == 1)
        }
    }

    @Test func theLastActiveAdminStays() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let admin = try await Self.token(client)
            let adminId = try await Self.memberId(client, admin, email: Self.admin)
            let (secondId, second) = try await Self.secondAdmin(client, admin, server: server)
            // Two admins: one may demote the other, and then not be demoted.
            #expect(try await Self.patch(client, second, adminId, ["role": "office"]).status == .ok)
            let again = try await Self.token(client)
            try await client.send(.get, "/api/users", bearer: again).expectFailure(.forbidden, "FORBIDDEN")
            try await Self.patch(client, second, secondId, ["role": "office"]).expectFailure(.conflict, "CANNOT_CHANGE_SELF")
            try await client.send(.post, "/api/users/\(secondId)/deactivate", bearer: second).expectFailure(.conflict, "CANNOT_CHANGE_SELF")
            try await client.send(.post, "/api/users/\(secondId)/archive", bearer: second).expectFailure(.conflict, "CANNOT_CHANGE_SELF")
            #expect(try await Self.patch(client, second, adminId, ["role": "admin"]).status == .ok)
        }
    }

    /// Two admins demoting, deactivating or archiving each other at the same moment: exactly
    /// one wins, and the shop keeps an active admin.
    @Test(arguments: ["role", "deactivate", "archive"])
    func twoAdminsActingOnEachOtherAtOnceLeaveOneAdmin(_ action: String) async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            let admin = try await Self.token(client)
            let adminId = try await Self.memberId(client, admin, email: Self.admin)
            let (secondId, second) = try await Self.secondAdmin(client, admin, server: server)
            // Every other Acme member is not an admin: each admin is the other's last colleague admin.
            let pairs = [(admin, secondId), (second, adminId)]
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for (token, target) in pairs {
                    group.addTask {
                        switch action {
                        case "role": try await Self.patch(client, token, target, ["role": "engineer"]).status
                        default: try await client.send(.post, "/api/users/\(target)/\(action)", bearer: token).status
                        }
                    }
                }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .ok }.count == 1, "\(statuses)")
            #expect(statuses.filter { $0 == .conflict || $0 == .unauthorized || $0 == .forbidden }.count == 1, "\(statuses)")
            let admins = try await server.withDatabase { database in
                try await database.withConnection { db in
                    try await db.raw(
                        "SELECT COUNT(*) AS n FROM users WHERE email LIKE '%@acme.test' AND role = 'admin' AND is_active = 1 AND archived = 0"
                    ).first(decodingColumn: "n", as: Int.self)
                }
            }
            #expect(admins == 1)
        }
    }

    @Test func aDeactivatedMemberIsSignedOutAndCannotSignIn() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let admin = try await Self.token(client)
            let engineerId = try await Self.memberId(client, admin, email: Self.engineer)
            let signedIn = try await client.signIn(Self.engineer, DemoFixtures.engineerPassword)
            let off = try await client.send(.post, "/api/users/\(engineerId)/deactivate", bearer: admin)
            #expect(off.status == .ok)
            #expect(off.data["is_active"] as? Int == 0)
            try await client.send(.get, "/api/auth/me", bearer: signedIn.string("token")).expectFailure(.unauthorized, "UNAUTHORIZED")
            // The app tells the person why only on USER_INACTIVE (§12.2), though the session was ended too.
            for _ in 0..<2 {
                try await client.post("/api/auth/refresh", ["refreshToken": try #require(signedIn.string("refreshToken"))])
                    .expectFailure(.unauthorized, "USER_INACTIVE", "User account is no longer active")
            }
            try await client.post("/api/auth/login", ["email": Self.engineer, "password": DemoFixtures.engineerPassword])
                .expectFailure(.unauthorized, "ACCOUNT_DEACTIVATED", "Account is deactivated")
            // Again: nothing more happens.
            #expect(try await client.send(.post, "/api/users/\(engineerId)/deactivate", bearer: admin).status == .ok)
            #expect(try await client.send(.post, "/api/users/\(engineerId)/reactivate", bearer: admin).data["is_active"] as? Int == 1)
            #expect(try await client.login(Self.engineer, DemoFixtures.engineerPassword).isEmpty == false)
            // Archived is final.
            let archived = try await client.send(.post, "/api/users/\(engineerId)/archive", bearer: admin)
            #expect(archived.status == .ok && archived.data["archived"] as? Int == 1)
            #expect(try await client.send(.get, "/api/users/\(engineerId)", bearer: admin).data["archived"] as? Int == 1)
            try await client.post("/api/auth/login", ["email": Self.engineer, "password": DemoFixtures.engineerPassword])
                .expectFailure(.unauthorized, "ACCOUNT_ARCHIVED", "Account has been archived and cannot login")
            try await client.send(.post, "/api/users/\(engineerId)/reactivate", bearer: admin)
                .expectFailure(.badRequest, "VALIDATION_ERROR", "An archived member cannot be reactivated")
            let types = try Self.list(try await client.send(.get, "/api/users/\(engineerId)/activity?limit=100", bearer: admin))
                .compactMap { $0["type"] as? String }
            #expect(types.contains("user_deactivated") && types.contains("user_reactivated") && types.contains("user_archived"))
            #expect(types.filter { $0 == "user_deactivated" }.count == 1)
        }
    }

    @Test func aRoleChangeAndADeactivationReachTheOtherInstance() async throws {
        let server = try await TestServer()
        try await server.runTwoInstances { a, b in
            let admin = try await Self.token(a)
            let engineerId = try await Self.memberId(a, admin, email: Self.engineer)
            let engineer = try #require(try await b.signIn(Self.engineer, DemoFixtures.engineerPassword).string("token"))
            #expect(try await b.send(.get, "/api/auth/me", bearer: engineer).status == .ok)
            #expect(try await Self.patch(a, admin, engineerId, ["role": "office"]).status == .ok)
            try await waitUntil("instance b to refuse the old role's token", timeout: .seconds(5)) {
                try await b.send(.get, "/api/auth/me", bearer: engineer).code == "TOKEN_EXPIRED"
            }
            let signedIn = try await b.signIn(Self.engineer, DemoFixtures.engineerPassword)
            let office = try #require(signedIn.string("token")), refresh = try #require(signedIn.string("refreshToken"))
            #expect(try await a.send(.post, "/api/users/\(engineerId)/deactivate", bearer: admin).status == .ok)
            try await waitUntil("instance b to refuse the deactivated member", timeout: .seconds(5)) {
                try await b.send(.get, "/api/auth/me", bearer: office).status == .unauthorized
            }
            // Both instances name why the session ended.
            for instance in [b, a] {
                try await instance.post("/api/auth/refresh", ["refreshToken": refresh])
                    .expectFailure(.unauthorized, "USER_INACTIVE", "User account is no longer active")
            }
        }
    }

    /// Every change to a member is an audit event naming the admin (§12.5): names and emailed
    /// codes too (turning magic links on is security-relevant), as they now are; a change to
    /// nothing records nothing.
    @Test func changingANamesOrEmailedCodesIsRecorded() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let admin = try await Self.token(client)
            let engineerId = try await Self.memberId(client, admin, email: Self.engineer)
            #expect(try await Self.patch(client, admin, engineerId, ["firstName": "Elias", "magicLinkEnabled": false]).status == .ok)
            #expect(try await Self.patch(client, admin, engineerId, ["lastName": "Engineer", "firstName": "Elias"]).status == .ok)
            #expect(try await Self.patch(client, admin, engineerId, ["magicLinkEnabled": true]).status == .ok)
            let events = try Self.list(try await client.send(.get, "/api/users/\(engineerId)/activity?limit=100", bearer: admin))
                .filter { $0["type"] as? String == "member_updated" }
            #expect(events.count == 2, "\(events)")
            #expect(events.map { $0["detail"] as? [String: String] } == [["magicLinkEnabled": "true"], ["firstName": "Elias", "magicLinkEnabled": "false"]])
            #expect(events.allSatisfy { ($0["actor"] as? [String: Any])?["email"] as? String == Self.admin })
        }
    }

    /// GET /api/users/{id}/sessions (docs/API.md §12.2): a member's live devices, newest first,
    /// for an admin deciding whether to sign them out; another shop's member and an unknown id
    /// are 404, a member without `users:manage` is 403, and looking changes nothing.
    @Test func anAdminSeesAMembersSignedInDevices() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let admin = try await Self.token(client)
            let engineerId = try await Self.memberId(client, admin, email: Self.engineer)
            let browser = try await Self.token(client, Self.engineer, DemoFixtures.engineerPassword)
            _ = try await client.signIn(Self.engineer, DemoFixtures.engineerPassword, userAgent: TestClient.iPhone)
            let reply = try await client.send(.get, "/api/users/\(engineerId)/sessions", bearer: admin)
            #expect(reply.status == .ok)
            let sessions = try Self.list(reply)
            // One browser, one phone (signed in within the same second: their order is the id's).
            #expect(Set(sessions.compactMap { $0["isMobile"] as? Bool }) == [true, false] && sessions.count == 2)
            #expect(sessions.allSatisfy { $0["current"] as? Bool == false && $0["id"] is String && $0["createdAt"] is String })
            // The admin's own: their session is the current one.
            let adminId = try await Self.memberId(client, admin, email: Self.admin)
            let own = try Self.list(try await client.send(.get, "/api/users/\(adminId)/sessions", bearer: admin))
            #expect(own.filter { $0["current"] as? Bool == true }.count == 1)
            // Refusals, each changing nothing.
            let pendingOwner = try #require(try await server.withDatabase { try await AccountStore(database: $0).user(email: "owner@pending.test") })
            try await client.send(.get, "/api/users/\(pendingOwner.id)/sessions", bearer: admin).expectFailure(.notFound, "NOT_FOUND")
            try await client.send(.get, "/api/users/nobody/sessions", bearer: admin).expectFailure(.notFound, "NOT_FOUND")
            try await client.send(.get, "/api/users/\(adminId)/sessions", bearer: browser).expectFailure(.forbidden, "FORBIDDEN")
            try await client.send(.get, "/api/users/\(engineerId)/sessions").expectFailure(.unauthorized, "UNAUTHORIZED")
            #expect(try await client.send(.get, "/api/auth/me", bearer: browser).status == .ok)
            #expect(try Self.list(try await client.send(.get, "/api/users/\(engineerId)/sessions", bearer: admin)).count == 2)
            // Signed out everywhere: none left.
            #expect(try await client.send(.post, "/api/users/\(engineerId)/sign-out", bearer: admin).status == .ok)
            #expect(try Self.list(try await client.send(.get, "/api/users/\(engineerId)/sessions", bearer: admin)).isEmpty)
        }
    }

    @Test func signOutEndsEverySessionOfTheMember() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let admin = try await Self.token(client)
            let engineerId = try await Self.memberId(client, admin, email: Self.engineer)
            let first = try await client.signIn(Self.engineer, DemoFixtures.engineerPassword)
            let second = try await client.signIn(Self.engineer, DemoFixtures.engineerPassword, userAgent: TestClient.iPhone)
            let reply = try await client.send(.post, "/api/users/\(engineerId)/sign-out", bearer: admin)
            #expect(reply.data["revoked"] as? Int == 2)
            for session in [first, second] {
                try await client.send(.get, "/api/auth/me", bearer: session.string("token")).expectFailure(.unauthorized, "UNAUTHORIZED")
            }
            #expect(try await client.send(.get, "/api/auth/me", bearer: admin).status == .ok)
            let own = try Self.list(try await client.send(.get, "/api/auth/activity", bearer: try await Self.token(client, Self.engineer, DemoFixtures.engineerPassword)))
            #expect(own.contains { $0["type"] as? String == "sessions_revoked_by_admin" })
        }
    }

    /// A passkey-only member who lost the passkey: an admin resets their sign-in methods and
    /// they sign in with password and emailed code again (docs/API.md §11.1's way out).
    @Test func resetFactorsRecoversAMemberLockedOutOfTheirPasskey() async throws {
        let server = try await PasskeyTests.server()
        try await server.run { client in
            let admin = try await Self.token(client)
            let engineerId = try await Self.memberId(client, admin, email: Self.engineer)
            let engineer = try await Self.token(client, Self.engineer, DemoFixtures.engineerPassword)
            let lost = SoftwarePasskeyAuthenticator(origin: PasskeyTests.site)
            #expect(try await PasskeyTests.enrol(client, token: engineer, lost).status == .created)
            let locked = try await client.post("/api/auth/login", ["email": Self.engineer, "password": DemoFixtures.engineerPassword])
            #expect(locked.data["methods"] as? [String] == ["passkey"])
            #expect(try await client.send(.post, "/api/users/\(engineerId)/reset-factors", bearer: admin).status == .ok)
            let member = try await client.send(.get, "/api/users/\(engineerId)", bearer: admin)
            #expect(member.data["passkey_count"] as? Int == 0)
            #expect(member.data["totp_enabled"] as? Int == 0)
            try await client.send(.get, "/api/auth/me", bearer: engineer).expectFailure(.unauthorized, "UNAUTHORIZED")
            let notice = try #require(try await client.mail(to: Self.engineer).last)
            #expect(notice.subject == "Your Repair Minder sign-in methods were reset")
            #expect(notice.text.contains("An admin of Acme Repairs reset your sign-in methods"))
            // Password and emailed code again; a member without a password may use emailed codes.
            let noPassword = try await Self.memberId(client, admin, email: "nopassword@acme.test")
            #expect(try await Self.patch(client, admin, noPassword, ["magicLinkEnabled": false]).data["magic_link_enabled"] as? Int == 0)
            #expect(try await client.send(.post, "/api/users/\(noPassword)/reset-factors", bearer: admin).data["magic_link_enabled"] as? Int == 1)
            #expect(try await client.signIn(Self.engineer, DemoFixtures.engineerPassword).string("token") != nil)
            // Not on yourself.
            let adminId = try await Self.memberId(client, admin, email: Self.admin)
            try await client.send(.post, "/api/users/\(adminId)/reset-factors", bearer: admin).expectFailure(.conflict, "CANNOT_CHANGE_SELF")
            let types = try Self.list(try await client.send(.get, "/api/users/\(engineerId)/activity?limit=100", bearer: admin))
            #expect(types.contains { $0["type"] as? String == "factors_reset" })
        }
    }
}

/// The one-admin rule under a real race, below HTTP: two admins deactivating each other in
/// transactions that start together, many times over. Without the per-shop serialisation both
/// would read "another admin is active" and both commit, leaving none.
@Suite struct LastAdminRaceTests {
    /// `pair` as a caller cache a moment old may see them: an admin, whatever is stored now.
    static func asAdmin(_ pair: (UserRecord, CompanyRecord)) -> AuthenticatedStaff {
        let (user, company) = pair
        let claims = AccessTokenClaims(
            userId: user.id, companyId: company.id, role: .admin, phiAccessLevel: nil, isMobile: false, dataClassification: nil,
            permissions: [], sessionId: "s", issuedAt: 0, expiresAt: 0)
        return AuthenticatedStaff(claims: claims, user: user, company: company)
    }

    @Test func concurrentDeactivationsAlwaysLeaveAnAdmin() async throws {
        let server = try await TestServer()
        try await server.withDatabase { database in
            let accounts = AccountStore(database: database)
            let store = TeamStore(database: database, revocation: SessionRevocation(database: database, callerCache: nil))
            let adminUser = try #require(try await accounts.user(email: TeamTests.admin))
            let otherUser = try #require(try await accounts.user(email: TeamTests.engineer))
            let admin = try #require(try await accounts.userWithCompany(id: adminUser.id))
            let other = try #require(try await accounts.userWithCompany(id: otherUser.id))
            let (first, second) = (Self.asAdmin(admin), Self.asAdmin(other))
            for _ in 0..<30 {
                try await database.withConnection { db in
                    try await db.raw("UPDATE users SET role = 'admin', is_active = 1 WHERE id IN (\(bind: admin.0.id), \(bind: other.0.id))").run()
                }
                let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
                    for (actor, target) in [(first, other.0.id), (second, admin.0.id)] {
                        group.addTask {
                            do {
                                _ = try await store.change(target, by: actor, notOnYourself: true, now: 1) { member, changing in
                                    try await TeamStore.keepsAnAdmin(besides: member, on: changing.db)
                                    try await changing.db.raw("UPDATE users SET is_active = 0 WHERE id = \(bind: member.user.id)").run()
                                }
                                return true
                            } catch let error as APIError where error.code == .lastAdmin || error.code == .forbidden {
                                // The loser finds the other change committed: it is no longer an
                                // active admin (403), or it is the last one (409).
                                return false
                            }
                        }
                    }
                    return try await group.reduce(into: [Bool]()) { $0.append($1) }
                }
                #expect(outcomes.filter { $0 }.count == 1, "\(outcomes)")
                let active = try await database.withConnection { db in
                    try await db.raw(
                        "SELECT COUNT(*) AS n FROM users WHERE id IN (\(bind: admin.0.id), \(bind: other.0.id)) AND is_active = 1"
                    ).first(decodingColumn: "n", as: Int.self)
                }
                #expect(active == 1)
            }
        }
    }
}

/// The caller's own role read inside the shop's serialized change: with three admins A, B and C,
/// A demoting B while B demotes C must never let B's change commit after B stopped being an
/// admin. Either B's commits first (both stand), or A's does and B's is refused with 403.
@Suite struct DemotedCallerRaceTests {
    @Test func aChangeByAnAdminDemotedAMomentBeforeIsRefused() async throws {
        let server = try await TestServer()
        try await server.withDatabase { database in
            let accounts = AccountStore(database: database)
            let store = TeamStore(database: database, revocation: SessionRevocation(database: database, callerCache: nil))
            var callers: [AuthenticatedStaff] = []
            for email in [TeamTests.admin, TeamTests.engineer, "nopassword@acme.test"] {
                let user = try #require(try await accounts.user(email: email))
                callers.append(LastAdminRaceTests.asAdmin(try #require(try await accounts.userWithCompany(id: user.id))))
            }
            let (a, b, c) = (callers[0], callers[1], callers[2])
            let ids = callers.map(\.user.id)
            let order = Locked<[String]>([])
            for _ in 0..<16 {
                order.value = []
                try await database.withConnection { db in
                    try await db.raw("UPDATE users SET role = 'admin', is_active = 1 WHERE id IN (\(bind: ids[0]), \(bind: ids[1]), \(bind: ids[2]))").run()
                }
                let outcomes = try await withThrowingTaskGroup(of: (String, Bool).self) { group in
                    for (name, actor, target) in [("A demotes B", a, b), ("B demotes C", b, c)] {
                        group.addTask {
                            do {
                                _ = try await store.change(target.user.id, by: actor, notOnYourself: true, now: 1) { member, changing in
                                    try await changing.db.raw("UPDATE users SET role = 'engineer' WHERE id = \(bind: member.user.id)").run()
                                    order.update { $0.append(name) }
                                }
                                return (name, true)
                            } catch let error as APIError where error.code == .forbidden {
                                return (name, false)
                            }
                        }
                    }
                    return try await group.reduce(into: [String: Bool]()) { $0[$1.0] = $1.1 }
                }
                #expect(outcomes["A demotes B"] == true)
                if outcomes["B demotes C"] == true {
                    #expect(order.value == ["B demotes C", "A demotes B"], "B's change committed after B was demoted")
                } else {
                    let cRole = try await accounts.user(email: "nopassword@acme.test")?.role
                    #expect(cRole == "admin", "a refused change changed nothing")
                }
            }
            // The losing order made certain: B, demoted already, still looks an admin to its caller.
            try await database.withConnection { db in
                try await db.raw("UPDATE users SET role = 'admin' WHERE id = \(bind: ids[2])").run()
                try await db.raw("UPDATE users SET role = 'engineer' WHERE id = \(bind: ids[1])").run()
            }
            do {
                _ = try await store.change(c.user.id, by: b, notOnYourself: true, now: 1) { member, changing in
                    try await changing.db.raw("UPDATE users SET role = 'engineer' WHERE id = \(bind: member.user.id)").run()
                }
                Issue.record("a demoted admin's change was made")
            } catch let error as APIError {
                #expect(error.code == .forbidden && error.message == "You do not have permission to do this")
            }
            #expect(try await accounts.user(email: "nopassword@acme.test")?.role == "admin")
        }
    }
}
