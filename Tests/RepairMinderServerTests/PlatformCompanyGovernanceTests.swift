import Foundation
import Hummingbird
import HummingbirdTesting
import RepairMinderModels
import TestSupport
import Testing

@testable import RepairMinderServer

/// The platform's own company is governed by its `master_admin`s alone (docs/API.md §15.4): its
/// policy is the floor every platform administrator signs in under, so an `admin` there (one
/// invited before this rule, or set by SQL) must not lower it, nor resend or revoke the
/// operators' invitations; and the company takes no role but `master_admin`.
@Suite struct PlatformCompanyGovernanceTests {
    /// The demo engineer moved into the platform's company as an `admin`, as a database made
    /// before the rule may hold one; their token.
    static func legacyPlatformAdmin(_ server: TestServer, _ client: TestClient) async throws -> String {
        try await server.withDatabase { database in
            try await database.withConnection { db in
                try await db.raw(
                    """
                    UPDATE users SET company_id = \(bind: PlatformOwnCompany.id), role = 'admin'
                    WHERE email = \(bind: DemoFixtures.engineerEmail)
                    """
                ).run()
            }
        }
        return try await TeamTests.token(client, DemoFixtures.engineerEmail, DemoFixtures.engineerPassword)
    }

    static func policy(_ server: TestServer) async throws -> ShopPolicy {
        try await server.withDatabase { try await SecurityPolicyStore(database: $0, cache: ShopPolicyCache()).policy(companyId: PlatformOwnCompany.id).0 }
    }

    static func pendingInvitations(_ server: TestServer) async throws -> [String] {
        try await server.withDatabase { database in
            try await database.withConnection { db in
                try await db.raw(
                    "SELECT email FROM invitations WHERE company_id = \(bind: PlatformOwnCompany.id) AND status = 'pending' ORDER BY email"
                ).all(decodingColumn: "email", as: String.self)
            }
        }
    }

    @Test func anAdminOfThePlatformsCompanyCannotLowerItsFloorNorTouchItsInvitations() async throws {
        let server = try await TestServer()
        let operatorsInvitation = try await PlatformAdminInvitationTests.invite(server)
        try await server.run { client in
            let admin = try await Self.legacyPlatformAdmin(server, client)
            let before = try await Self.policy(server)
            // Their token claims neither governing permission.
            let me = try await client.send(.get, "/api/auth/me", bearer: admin)
            #expect(me.status == .ok)
            let claims = try #require(try SecurityPolicyTests.claims(admin)["permissions"] as? [String])
            #expect(!claims.contains("company:manage") && !claims.contains("users:manage"))

            let lower = #"{"requiredFactor": "none", "allowMagicLink": true}"#
            try await client.send(.put, "/api/company/security-policy", json: lower, bearer: admin)
                .expectFailure(.forbidden, "FORBIDDEN", "You do not have permission to do this")
            #expect(try await Self.policy(server) == before)
            let invitation = "/api/users/invitations/\(operatorsInvitation.invitationId)"
            try await client.send(.post, invitation + "/resend", bearer: admin)
                .expectFailure(.forbidden, "FORBIDDEN", "You do not have permission to do this")
            try await client.send(.delete, invitation, bearer: admin)
                .expectFailure(.forbidden, "FORBIDDEN", "You do not have permission to do this")
            #expect(try await Self.pendingInvitations(server) == [operatorsInvitation.email])
            // Reading the policy stays every member's.
            #expect(try await client.send(.get, "/api/company/security-policy", bearer: admin).status == .ok)

            // The company's master_admins still govern it.
            let platform = try await PlatformAdminTests.platformAdmin(client)
            let raised = try await client.send(.put, "/api/company/security-policy", json: #"{"enrolmentGraceDays": 10}"#, bearer: platform)
            #expect(raised.status == .ok)
            #expect(try await Self.policy(server).enrolmentGraceDays == 10)
        }
    }

    /// No role but `master_admin` enters the platform's company through the API: not by an
    /// invitation (any role a body can name), nor by a role change there.
    @Test func thePlatformsCompanyTakesNoOtherRole() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let platform = try await PlatformAdminTests.platformAdmin(client)
            for role in ["admin", "engineer", "office", "senior_engineer"] {
                let body = #"{"email": "helper@example.test", "firstName": "Hal", "lastName": "Helper", "role": "\#(role)"}"#
                try await client.send(.post, "/api/users/invitations", json: body, bearer: platform).expectFailure(
                    .forbidden, "FORBIDDEN",
                    "The platform's own company has only platform administrators: the operators add them with repairminder admin create")
            }
            #expect(try await Self.pendingInvitations(server).isEmpty)

            _ = try await Self.legacyPlatformAdmin(server, client)
            let legacy = try await TeamTests.memberId(client, platform, email: DemoFixtures.engineerEmail)
            try await TeamTests.patch(client, platform, legacy, ["role": "engineer"]).expectFailure(
                .forbidden, "FORBIDDEN",
                "The platform's own company has only platform administrators: the operators add them with repairminder admin create")
            let stored = try await server.withDatabase { try await AccountStore(database: $0).user(email: DemoFixtures.engineerEmail) }
            #expect(stored?.role == "admin")
            // Leaving them out is still the master_admins' to do.
            #expect(try await client.send(.post, "/api/users/\(legacy)/deactivate", bearer: platform).status == .ok)
        }
    }
}
