import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import RepairMinderServer

/// A body member the route does not know, over HTTP (docs/API.md §1; the rule per body type:
/// `UnknownFieldsTests`): refused on the routes of §11 onwards with nothing changed, read in
/// either spelling on the routes legacy apps call.
@Suite struct UnknownFieldRequestTests {
    /// A client that sends back the record as it was answered (snake_case) is told, not
    /// silently given a client without a first name.
    @Test func aNewRouteRefusesAFieldItDoesNotKnowAndChangesNothing() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let admin = try await TeamTests.token(client)
            try await ClientTests.send(client, .post, "/api/clients", admin, ["email": "xena@example.test", "first_name": "Xena"])
                .expectFailure(.badRequest, "VALIDATION_ERROR", "first_name is not a field of this request; did you mean firstName?")
            let found = try TeamTests.list(try await ClientTests.send(client, .get, "/api/clients?q=xena", admin))
            #expect(found.isEmpty)

            let before = try await client.send(.get, "/api/company/security-policy", bearer: admin).data["requiredFactor"] as? String
            let policy = #"{"requiredFactor": "passkey", "sessionMaxLifetimeDays": {"webb": 1}}"#
            try await client.send(.put, "/api/company/security-policy", json: policy, bearer: admin)
                .expectFailure(.badRequest, "VALIDATION_ERROR", "sessionMaxLifetimeDays.webb is not a field of this request")
            #expect(try await client.send(.get, "/api/company/security-policy", bearer: admin).data["requiredFactor"] as? String == before)

            let invite = #"{"email": "new@example.test", "firstName": "N", "lastName": "W", "role": "engineer", "isAdmin": true}"#
            try await client.send(.post, "/api/users/invitations", json: invite, bearer: admin)
                .expectFailure(.badRequest, "VALIDATION_ERROR", "isAdmin is not a field of this request")
            #expect(try TeamTests.list(try await client.send(.get, "/api/users/invitations", bearer: admin)).isEmpty)
        }
    }

    /// The routes existing apps call keep taking what they send, and a known field in the
    /// other spelling is read rather than dropped.
    @Test func anOldRouteReadsAFieldInEitherSpellingAndPassesOverTheRest() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let login = #"{"email": "\#(DemoFixtures.adminEmail)", "password": "\#(DemoFixtures.adminPassword)", "deviceName": "iPhone"}"#
            let step1 = try await client.send(.post, "/api/auth/login", json: login)
            #expect(step1.status == .ok)
            let userId = try #require(step1.string("userId") ?? (step1.data["user"] as? [String: Any])?["id"] as? String)
            let request = #"{"user_id": "\#(userId)", "email": "\#(DemoFixtures.adminEmail)"}"#
            #expect(try await client.send(.post, "/api/auth/2fa/request", json: request).status == .ok)

            let signedIn = try await client.signIn(DemoFixtures.adminEmail, DemoFixtures.adminPassword)
            let refresh = try #require(signedIn.string("refreshToken"))
            let refreshed = try await client.send(.post, "/api/auth/refresh", json: #"{"refresh_token": "\#(refresh)"}"#)
            #expect(refreshed.status == .ok)
            #expect(refreshed.string("refreshToken") != nil)
            // The field's own spelling wins when both come.
            let next = try #require(refreshed.string("refreshToken"))
            let both = #"{"refreshToken": "\#(next)", "refresh_token": "not a token"}"#
            #expect(try await client.send(.post, "/api/auth/refresh", json: both).status == .ok)
        }
    }

    /// The document says which bodies take nothing else (`additionalProperties: false`), and a
    /// served document states the server's own lifetimes as the policy's maxima.
    @Test func theDocumentSaysWhichBodiesAreClosedAndTheServersOwnLimits() async throws {
        let server = try await TestServer { $0.sessionMaxLifetimeWeb = 10 * 86_400 }
        try await server.run { client in
            let document = try await client.client.execute(uri: "/api/openapi.json", method: .get) { response in
                try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
            }
            let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
            func closed(_ name: String) -> Any? { (schemas[name] as? [String: Any])?["additionalProperties"] }
            #expect(closed("ClientCreateRequest") as? Bool == false)
            #expect(closed("SessionLifetimeUpdate") as? Bool == false)
            #expect(closed("LoginRequest") == nil)
            let lifetimes = try #require((schemas["SessionLifetimeUpdate"] as? [String: Any])?["properties"] as? [String: Any])
            func maximum(_ name: String) -> Int? {
                (((lifetimes[name] as? [String: Any])?["anyOf"] as? [[String: Any]])?.first?["maximum"] as? NSNumber)?.intValue
            }
            #expect(maximum("web") == 10)
            #expect(maximum("mobile") == 365)
        }
    }
}
