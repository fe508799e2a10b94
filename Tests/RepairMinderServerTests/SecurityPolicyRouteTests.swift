import Foundation
import Hummingbird
import HummingbirdTesting
import RepairMinderModels
import TestSupport
import Testing

@testable import RepairMinderServer

/// `GET`/`PUT /api/company/security-policy` (docs/API.md §13.1): who may read and change it,
/// what a change may say, and its audit; every refusal changes nothing.
@Suite struct SecurityPolicyRouteTests {
    static let path = SecurityPolicyTests.policyPath

    static func policy(_ client: TestClient, _ token: String) async throws -> [String: Any] {
        let reply = try await client.send(.get, path, bearer: token)
        #expect(reply.status == .ok)
        return reply.data
    }

    static func events(_ client: TestClient, _ token: String) async throws -> [[String: Any]] {
        try TeamTests.list(try await client.send(.get, "/api/auth/activity?limit=100", bearer: token)).filter {
            $0["type"] as? String == "policy_changed"
        }
    }

    @Test func anAdminChangesThePolicyAndTheChangeIsAudited() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let token = try await TeamTests.token(client)
            let changedAt = server.clock.now
            let reply = try await SecurityPolicyTests.put(
                client, token, ["requiredFactor": "passkey", "enrolmentGraceDays": 3, "sessionMaxLifetimeDays": ["mobile": 30]])
            #expect(reply.status == .ok)
            #expect(reply.string("requiredFactor") == "passkey")
            #expect(reply.data["enrolmentGraceDays"] as? Int == 3)
            #expect(reply.data["allowMagicLink"] as? Bool == true)
            #expect(reply.data["sessionMaxLifetimeDays"] as? [String: Int] == ["web": 30, "mobile": 30])
            #expect(reply.string("updatedAt") == Timestamp.iso8601(changedAt))
            let updatedBy = try #require(reply.data["updatedBy"] as? [String: Any])
            #expect(updatedBy["email"] as? String == DemoFixtures.adminEmail)
            // Any member reads it.
            let engineer = try await TeamTests.token(client, DemoFixtures.engineerEmail, DemoFixtures.engineerPassword)
            let read = try await Self.policy(client, engineer)
            #expect(read["requiredFactor"] as? String == "passkey")
            #expect((read["updatedBy"] as? [String: Any])?["id"] as? String == updatedBy["id"] as? String)

            let events = try await Self.events(client, token)
            #expect(events.count == 1)
            let event = try #require(events.first)
            #expect((event["actor"] as? [String: Any])?["email"] as? String == DemoFixtures.adminEmail)
            #expect(event["detail"] as? [String: String] == [
                "requiredFactor.from": "none", "requiredFactor.to": "passkey",
                "enrolmentGraceDays.from": "7", "enrolmentGraceDays.to": "3",
                "sessionMaxLifetimeDays.mobile.from": "server", "sessionMaxLifetimeDays.mobile.to": "30",
            ])
            // A PUT that changes nothing records nothing and keeps the time of the last change.
            server.clock.advance(by: 60)
            let same = try await SecurityPolicyTests.put(client, token, ["requiredFactor": "passkey", "allowMagicLink": NSNull()])
            #expect(same.status == .ok)
            #expect(same.string("updatedAt") == Timestamp.iso8601(changedAt))
            #expect(try await Self.events(client, token).count == 1)
            // Other shops' policies are their own.
            let others = try await server.withDatabase { database in
                try await database.withConnection { db in
                    // (The platform's own company requires a passkey from its start.)
                    try await db.raw("SELECT required_factor FROM companies WHERE name <> 'Acme Repairs' AND id <> \(bind: PlatformOwnCompany.id)")
                        .all(decodingColumn: "required_factor", as: String.self)
                }
            }
            #expect(!others.isEmpty && Set(others) == ["none"])
        }
    }

    /// Two admins changing the policy at once: both changes apply, one after the other, and each
    /// event's `from` is what that change really replaced.
    @Test func concurrentChangesAreAuditedAgainstWhatTheyReplaced() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let token = try await TeamTests.token(client)
            let (_, second) = try await TeamTests.secondAdmin(client, token, server: server)
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                group.addTask { try await SecurityPolicyTests.put(client, token, ["enrolmentGraceDays": 1]).status }
                group.addTask { try await SecurityPolicyTests.put(client, second, ["enrolmentGraceDays": 2]).status }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses == [.ok, .ok])
            let final = try #require(try await Self.policy(client, token)["enrolmentGraceDays"] as? Int)
            let events = try await server.withDatabase { database in
                try await database.withConnection { db in
                    try await db.raw("SELECT detail FROM activity_log WHERE type = 'policy_changed' ORDER BY id")
                        .all(decodingColumn: "detail", as: String.self)
                }
            }.map { try JSONDecoder().decode([String: String].self, from: Data($0.utf8)) }
            #expect(events.count == 2)
            #expect(events.first?["enrolmentGraceDays.from"] == "7")
            #expect(events.last?["enrolmentGraceDays.from"] == events.first?["enrolmentGraceDays.to"])
            #expect(events.last?["enrolmentGraceDays.to"] == String(final))
        }
    }

    @Test func onlyAdminsChangeItAndQuarantinedShopsNeither() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let admin = try await TeamTests.token(client)
            let engineer = try await TeamTests.token(client, DemoFixtures.engineerEmail, DemoFixtures.engineerPassword)
            try await SecurityPolicyTests.put(client, engineer, ["requiredFactor": "passkey"])
                .expectFailure(.forbidden, "FORBIDDEN", "You do not have permission to do this")
            #expect(try await Self.policy(client, admin)["requiredFactor"] as? String == "none")
            try await client.send(.get, Self.path).expectFailure(.unauthorized, "UNAUTHORIZED")
            let customer = try #require(try await client.customerSignIn("jane@example.test").string("token"))
            try await client.send(.get, Self.path, bearer: customer).expectFailure(.unauthorized, "UNAUTHORIZED")
            // An admin of a shop awaiting approval: quarantined, like every route but §4's.
            let pending = try #require(try await client.signIn("owner@pending.test", "pending password").string("token"))
            try await client.send(.get, Self.path, bearer: pending).expectFailure(.forbidden, "ACCOUNT_PENDING_APPROVAL")
            try await SecurityPolicyTests.put(client, pending, ["requiredFactor": "passkey"])
                .expectFailure(.forbidden, "ACCOUNT_PENDING_APPROVAL")
            let stored = try await server.withDatabase { database in
                try await database.withConnection { db in
                    // The shops' (the platform's own company requires a passkey from its start).
                    try await db.raw("SELECT required_factor FROM companies WHERE id <> \(bind: PlatformOwnCompany.id) ORDER BY required_factor")
                        .all(decodingColumn: "required_factor", as: String.self)
                }
            }
            #expect(Set(stored) == ["none"])
        }
    }

    /// Each bad field: 400 naming it, and the policy as it was.
    @Test(arguments: [
        (#"{"requiredFactor": "sms"}"#, "requiredFactor"),
        (#"{"enrolmentGraceDays": 31}"#, "enrolmentGraceDays must be a whole number from 0 to 30"),
        (#"{"enrolmentGraceDays": -1}"#, "enrolmentGraceDays must be a whole number from 0 to 30"),
        (#"{"enrolmentGraceDays": 1.5}"#, "enrolmentGraceDays"),
        (#"{"allowMagicLink": "no"}"#, "allowMagicLink"),
        (#"{"sessionMaxLifetimeDays": {"web": 0}}"#, "sessionMaxLifetimeDays.web must be a whole number from 1"),
        (#"{"sessionMaxLifetimeDays": {"web": 31}}"#, "sessionMaxLifetimeDays.web must be at most 30, the server's own lifetime in days"),
        (#"{"sessionMaxLifetimeDays": {"mobile": 366}}"#, "sessionMaxLifetimeDays.mobile must be at most 365"),
        (#"{"sessionMaxLifetimeDays": 7}"#, "sessionMaxLifetimeDays"),
    ])
    func aBadPolicyIsRefusedAndChangesNothing(body: String, message: String) async throws {
        let server = try await TestServer()
        try await server.run { client in
            let token = try await TeamTests.token(client)
            let before = try await Self.policy(client, token)
            let reply = try await client.send(.put, Self.path, json: body, bearer: token)
            reply.expectFailure(.badRequest, "VALIDATION_ERROR")
            #expect(reply.error?.contains(message) == true, "\(reply.error ?? "")")
            let after = try await Self.policy(client, token)
            #expect(NSDictionary(dictionary: after) == NSDictionary(dictionary: before))
            #expect(try await Self.events(client, token).isEmpty)
        }
    }
}
