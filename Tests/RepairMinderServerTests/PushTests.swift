import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import RepairMinderServer

/// Push device tokens and preferences (docs/API.md §5).
@Suite struct PushTests {
    static func register(_ client: TestClient, _ token: String, bearer: String, path: String = "/api/user/device-token", appType: String = "staff") async throws -> Reply {
        try await client.send(
            .post, path, json: #"{"deviceToken":"\#(token)","platform":"ios","appType":"\#(appType)"}"#, bearer: bearer)
    }

    @Test func registerListAndRemove() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let token = try #require(try await client.signIn().string("token"))
            let reply = try await Self.register(client, "apns-token-1", bearer: token)
            #expect(reply.status == .ok)
            #expect(reply.string("deviceToken") == "apns-token-1")
            #expect(reply.string("platform") == "ios")
            #expect(reply.string("appType") == "staff")
            #expect(reply.string("id") != nil)
            // Registering again is idempotent.
            #expect(try await Self.register(client, "apns-token-1", bearer: token).string("id") == reply.string("id"))
            let list = try await client.send(.get, "/api/user/device-tokens", bearer: token)
            let items = try #require(list.json["data"] as? [[String: Any]])
            #expect(items.count == 1)
            #expect(items.first?["deviceToken"] as? String == "apns-token-1")
            let removed = try await client.send(.delete, "/api/user/device-token", json: #"{"deviceToken":"apns-token-1"}"#, bearer: token)
            #expect(NSDictionary(dictionary: removed.json) == NSDictionary(dictionary: ["success": true]))
            #expect((try await client.send(.get, "/api/user/device-tokens", bearer: token).json["data"] as? [Any])?.count == 0)
        }
    }

    @Test func aTokenRegisteredByTwoUsersEndsWithTheSecond() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let admin = try #require(try await client.signIn().string("token"))
            let engineer = try #require(try await client.signIn(DemoFixtures.engineerEmail, DemoFixtures.engineerPassword).string("token"))
            _ = try await Self.register(client, "shared-device", bearer: admin)
            _ = try await Self.register(client, "shared-device", bearer: engineer)
            #expect((try await client.send(.get, "/api/user/device-tokens", bearer: admin).json["data"] as? [Any])?.count == 0)
            #expect((try await client.send(.get, "/api/user/device-tokens", bearer: engineer).json["data"] as? [Any])?.count == 1)
            // The first user cannot remove what is now the second's.
            _ = try await client.send(.delete, "/api/user/device-token", json: #"{"deviceToken":"shared-device"}"#, bearer: admin)
            #expect((try await client.send(.get, "/api/user/device-tokens", bearer: engineer).json["data"] as? [Any])?.count == 1)
            // A customer registering the same device takes it over too.
            let customer = try #require(try await client.customerSignIn("jane@example.test").string("token"))
            let moved = try await Self.register(client, "shared-device", bearer: customer, path: "/api/customer/device-token", appType: "customer")
            #expect(moved.string("appType") == "customer")
            #expect((try await client.send(.get, "/api/user/device-tokens", bearer: engineer).json["data"] as? [Any])?.count == 0)
            let rows = try await server.withDatabase { try await $0.count("device_tokens") }
            #expect(rows == 1)
        }
    }

    @Test func loggingOutRemovesTheSessionsTokensOnly() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let first = try #require(try await client.signIn().string("token"))
            let second = try #require(try await client.signIn().string("token"))
            _ = try await Self.register(client, "phone", bearer: first)
            _ = try await Self.register(client, "tablet", bearer: second)
            _ = try await client.send(.post, "/api/auth/logout", bearer: first)
            let left = try #require(try await client.send(.get, "/api/user/device-tokens", bearer: second).json["data"] as? [[String: Any]])
            #expect(left.compactMap { $0["deviceToken"] as? String } == ["tablet"])
            // Customer logout too.
            let customer = try #require(try await client.customerSignIn("jane@example.test").string("token"))
            _ = try await Self.register(client, "customer-phone", bearer: customer, path: "/api/customer/device-token", appType: "customer")
            _ = try await client.send(.post, "/api/customer/auth/logout", bearer: customer)
            let rows = try await server.withDatabase { try await $0.count("device_tokens", where: "device_token = 'customer-phone'") }
            #expect(rows == 0)
        }
    }

    @Test func reuseDetectionRemovesTheSessionsTokens() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let signIn = try await client.signIn()
            _ = try await Self.register(client, "stolen-phone", bearer: try #require(signIn.string("token")))
            let refresh = try #require(signIn.string("refreshToken"))
            _ = try await client.post("/api/auth/refresh", ["refreshToken": refresh])
            server.clock.advance(by: 11)
            try await client.post("/api/auth/refresh", ["refreshToken": refresh]).expectFailure(.unauthorized, "TOKEN_REUSE_DETECTED")
            let rows = try await server.withDatabase { try await $0.count("device_tokens") }
            #expect(rows == 0)
        }
    }

    @Test(arguments: [
        (#"{"platform":"ios","appType":"staff"}"#, "deviceToken is required"),
        (#"{"deviceToken":"","platform":"ios","appType":"staff"}"#, "deviceToken is required"),
        (#"{"deviceToken":"t","appType":"staff"}"#, "platform is required"),
        (#"{"deviceToken":"t","platform":"windows","appType":"staff"}"#, #"platform must be one of "ios", "android""#),
        (#"{"deviceToken":"t","platform":"ios"}"#, "appType is required"),
        (#"{"deviceToken":"t","platform":"ios","appType":"customer"}"#, #"appType must be "staff" on this endpoint"#),
        (#"{"deviceToken":7,"platform":"ios","appType":"staff"}"#, "deviceToken must be a string"),
    ])
    func badRegistrationsChangeNothing(body: String, message: String) async throws {
        let server = try await TestServer()
        try await server.run { client in
            let token = try #require(try await client.signIn().string("token"))
            try await client.send(.post, "/api/user/device-token", json: body, bearer: token)
                .expectFailure(.badRequest, "VALIDATION_ERROR", message)
            try await client.send(.delete, "/api/user/device-token", json: "{}", bearer: token)
                .expectFailure(.badRequest, "VALIDATION_ERROR", "deviceToken is required")
            let rows = try await server.withDatabase { try await $0.count("device_tokens") }
            #expect(rows == 0)
        }
    }

    /// The route's fixed `appType` is read from the body's string members only: an unknown
    /// member of another type (a number too large for a Double) is ignored, as the body type does.
    @Test func theFixedAppTypeIsReadWhateverElseTheBodyHolds() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let token = try #require(try await client.signIn().string("token"))
            let body = #"{"deviceToken":"t1","platform":"ios","appType":"staff","x":1e999,"y":[1,{"z":null}]}"#
            #expect(try await client.send(.post, "/api/user/device-token", json: body, bearer: token).status == .ok)
        }
    }

    @Test func customerEndpointWantsTheCustomerAppType() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let customer = try #require(try await client.customerSignIn("jane@example.test").string("token"))
            try await Self.register(client, "t", bearer: customer, path: "/api/customer/device-token", appType: "staff")
                .expectFailure(.badRequest, "VALIDATION_ERROR", #"appType must be "customer" on this endpoint"#)
            try await client.send(.delete, "/api/customer/device-token", json: "[]", bearer: customer)
                .expectFailure(.badRequest, "INVALID_JSON")
        }
    }

    @Test func preferencesDefaultOnAndUpdatePartially() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let token = try #require(try await client.signIn().string("token"))
            let initial = try await client.send(.get, "/api/user/push-preferences", bearer: token)
            #expect(NSDictionary(dictionary: initial.data) == ["enabled": true, "orders": true, "devices": true, "enquiries": true, "payments": true])
            let updated = try await client.send(.put, "/api/user/push-preferences", json: #"{"orders":false,"payments":false}"#, bearer: token)
            #expect(NSDictionary(dictionary: updated.data) == ["enabled": true, "orders": false, "devices": true, "enquiries": true, "payments": false])
            // Bad values change nothing.
            for (body, message) in [
                (#"{"orders":true,"devices":"no"}"#, "devices must be true or false"),
                (#"{"enabled":1}"#, "enabled must be true or false"),
                (#"{"enabled":null}"#, "enabled must be true or false"),
            ] {
                try await client.send(.put, "/api/user/push-preferences", json: body, bearer: token)
                    .expectFailure(.badRequest, "VALIDATION_ERROR", message)
            }
            try await client.send(.put, "/api/user/push-preferences", json: "{", bearer: token).expectFailure(.badRequest, "INVALID_JSON")
            let after = try await client.send(.get, "/api/user/push-preferences", bearer: token)
            #expect(NSDictionary(dictionary: after.data) == NSDictionary(dictionary: updated.data))
        }
    }

    /// Concurrent updates of different fields all hold: each is one upsert, not a read and then
    /// a write of every field, which could put back what another request had just changed.
    @Test func concurrentUpdatesOfDifferentFieldsAreNotLost() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            let token = try #require(try await client.signIn().string("token"))
            let fields = ["orders", "devices", "enquiries", "payments"]
            for round in 0..<10 {
                // Each field set by a request of its own, all four at once: off, then on again.
                let value = round % 2 == 1
                let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                    for field in fields {
                        group.addTask {
                            try await client.send(.put, "/api/user/push-preferences", json: #"{"\#(field)":\#(value)}"#, bearer: token).status
                        }
                    }
                    return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
                }
                #expect(statuses == [.ok, .ok, .ok, .ok])
                let after = try await client.send(.get, "/api/user/push-preferences", bearer: token)
                let expected: [String: Bool] = ["enabled": true, "orders": value, "devices": value, "enquiries": value, "payments": value]
                #expect(NSDictionary(dictionary: after.data) == NSDictionary(dictionary: expected), "round \(round)")
            }
        }
    }
}
