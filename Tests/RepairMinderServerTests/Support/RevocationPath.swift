import Foundation
import Testing

@testable import RepairMinderServer

/// Every way a staff session ends (docs/API.md §2.7, §2.9, §9.2–§9.4). Each goes through
/// `SessionRevocation`, the one place that clears the bearer check's cache once committed.
enum RevocationPath: String, CaseIterable, Sendable {
    case logout, revokeOne, logoutOthers, passwordChange, passwordReset, refreshReuse, userDeactivated

    /// Ends the session of `ended` (a sign-in's reply) through this path, sent to `client`;
    /// `other` is a second session of the same user, for the paths that act from one.
    func end(_ ended: Reply, other: Reply, client: TestClient, server: TestServer) async throws {
        let admin = DemoFixtures.adminEmail
        switch self {
        case .logout:
            #expect(try await client.send(.post, "/api/auth/logout", bearer: ended.string("token")).status == .ok)
        case .revokeOne:
            let list = try await client.send(.get, "/api/auth/sessions", bearer: other.string("token"))
            let sessions = try #require(list.json["data"] as? [[String: any Sendable]])
            let id = try #require(sessions.first { $0["current"] as? Bool == false }?["id"] as? String)
            #expect(try await client.send(.delete, "/api/auth/sessions/\(id)", bearer: other.string("token")).status == .ok)
        case .logoutOthers:
            #expect(try await client.send(.post, "/api/auth/logout-others", bearer: other.string("token")).status == .ok)
        case .passwordChange:
            let change = #"{"currentPassword":"\#(DemoFixtures.adminPassword)","newPassword":"a new and longer passphrase 42"}"#
            #expect(try await client.send(.put, "/api/users/me/password", json: change, bearer: other.string("token")).status == .ok)
        case .passwordReset:
            #expect(try await client.post("/api/auth/password/forgot", ["email": admin]).status == .ok)
            let code = try await client.latestCode(to: admin)
            let reset = ["email": admin, "code": code, "password": "a new and longer passphrase 42"]
            #expect(try await client.post("/api/auth/password/reset", reset).status == .ok)
        case .refreshReuse:
            let first = try #require(ended.string("refreshToken"))
            #expect(try await client.post("/api/auth/refresh", ["refreshToken": first]).status == .ok)
            server.clock.advance(by: 11)  // past the retry grace: a replay now is theft
            try await client.post("/api/auth/refresh", ["refreshToken": first]).expectFailure(.unauthorized, "TOKEN_REUSE_DETECTED")
        case .userDeactivated:
            try await server.withDatabase { db in
                try await db.withConnection { try await $0.raw("UPDATE users SET is_active = 0 WHERE email = \(bind: admin)").run() }
            }
            try await client.post("/api/auth/refresh", ["refreshToken": try #require(ended.string("refreshToken"))])
                .expectFailure(.unauthorized, "USER_INACTIVE")
        }
    }
}
