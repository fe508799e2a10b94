import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import RepairMinderServer

/// Rotating the JWT signing secret as documented (`--jwt-secret` new, `--jwt-previous-secret`
/// old) breaks nothing that was hashed before: recovery codes, emailed codes in flight and a
/// refresh retried within its grace across the switch.
@Suite struct KeyRotationTests {
    @Test func aJWTSecretRotationKeepsEverySecretWorking() async throws {
        let server = try await TestServer { $0.jwtAlgorithm = .hs256 }
        let old = server.settings.jwtSecret
        let state = Locked<[String: String]>([:])
        try await server.runAcrossRestart(
            changing: {
                $0.previousJWTSecret = $0.jwtSecret
                $0.jwtSecret = "a-brand-new-secret-after-the-rotation-0123"
            },
            { client in
                let token = try #require(try await client.signIn().string("token"))
                let (_, recovery) = try await TOTPTests.enrol(client, server: server, token: token)
                // A refresh whose answer was lost: its token is retried after the switch.
                let first = try #require(
                    try await client.signIn(DemoFixtures.engineerEmail, DemoFixtures.engineerPassword).string("refreshToken"))
                let rotated = try await client.post("/api/auth/refresh", ["refreshToken": first])
                // A staff login (of a user without the app: the admin's mailbox no longer signs
                // in) and a customer sign-in, each waiting for its emailed code.
                let userId = try await client.login(DemoFixtures.engineerEmail, DemoFixtures.engineerPassword)
                let staffCode = try await client.requestCode(userId: userId, email: DemoFixtures.engineerEmail)
                #expect(try await client.post("/api/customer/auth/request-magic-link", ["email": "jane@example.test"]).status == .ok)
                let successor = try #require(rotated.string("refreshToken"))
                state.value = [
                    "access": token, "recovery": recovery[0], "first": first, "userId": userId, "staffCode": staffCode,
                    "successor": successor,
                ]
            },
            then: { client in
                let saved = state.value
                #expect(client.settings.jwtSecret != old)
                // Signed by the previous secret: valid until it expires.
                #expect(try await client.send(.get, "/api/auth/me", bearer: saved["access"]).status == .ok)
                let retried = try await client.post("/api/auth/refresh", ["refreshToken": saved["first"] ?? ""])
                #expect(retried.status == .ok, "\(retried.json)")
                #expect(retried.string("refreshToken") == saved["successor"])
                let staff = try await client.post("/api/auth/2fa/verify", ["userId": saved["userId"] ?? "", "code": saved["staffCode"] ?? ""])
                #expect(staff.status == .ok, "\(staff.json)")
                let customerCode = try await client.latestCode(to: "jane@example.test")
                let customer = try await client.post("/api/customer/auth/verify-code", ["email": "jane@example.test", "code": customerCode])
                #expect(customer.status == .ok, "\(customer.json)")
                let again = try await client.login(DemoFixtures.adminEmail, DemoFixtures.adminPassword)
                let recovered = try await client.post("/api/auth/2fa/verify", ["userId": again, "code": saved["recovery"] ?? ""])
                #expect(recovered.status == .ok, "\(recovered.json)")
            })
    }
}
