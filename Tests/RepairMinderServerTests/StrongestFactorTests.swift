import Foundation
import Hummingbird
import HummingbirdTesting
import RepairMinderModels
import TestSupport
import Testing

@testable import RepairMinderServer

/// A user with an authenticator app or a passkey signs in with it, never with a mailbox
/// alone (docs/API.md §11.1); a user who enrolled nothing signs in as the seeds say.
@Suite struct StrongestFactorTests {
    let admin = DemoFixtures.adminEmail

    /// Login step 1 as the SDK sends it; the reply.
    static func stepOne(_ client: TestClient) async throws -> Reply {
        let reply = try await client.post("/api/auth/login", ["email": DemoFixtures.adminEmail, "password": DemoFixtures.adminPassword])
        #expect(reply.status == .ok)
        return reply
    }

    @Test func withNothingEnrolledTheSeedFlowsAreUnchanged() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let login = try await Self.stepOne(client)
            #expect(login.data["methods"] as? [String] == ["email"])
            #expect(login.data["passkey"] == nil)
            let request = try await client.post(
                "/api/auth/2fa/request", ["userId": try #require(login.string("userId")), "email": admin])
            #expect(request.string("message") == "2FA code sent to your email")
            let verify = try await client.post(
                "/api/auth/2fa/verify", ["userId": try #require(login.string("userId")), "code": try await client.latestCode(to: admin)])
            #expect(verify.string("token") != nil)
            #expect(try await client.post("/api/auth/magic-link/request", ["email": admin]).status == .ok)
            let magic = try await client.post("/api/auth/magic-link/verify-code", ["email": admin, "code": try await client.latestCode(to: admin)])
            #expect(magic.string("token") != nil)
            #expect(magic.data["requiresTwoFactor"] == nil)
        }
    }

    @Test func withAnAuthenticatorAppTheMailboxNoLongerSignsIn() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let token = try #require(try await client.signIn().string("token"))
            // A login that got its emailed code before the app was enrolled...
            let before = try await Self.stepOne(client)
            let userId = try #require(before.string("userId"))
            let emailed = try await client.requestCode(userId: userId, email: admin)
            let (secret, recovery) = try await TOTPTests.enrol(client, server: server, token: token)
            // ...cannot use it now: the emailed code is refused as any wrong code.
            try await client.post("/api/auth/2fa/verify", ["userId": userId, "code": emailed])
                .expectFailure(.unauthorized, "INVALID_CODE", "Invalid verification code")

            let login = try await Self.stepOne(client)
            #expect(login.data["methods"] as? [String] == ["totp", "recovery_code"])
            let mailBefore = try await client.mail(to: admin).count
            let request = try await client.post("/api/auth/2fa/request", ["userId": userId, "email": admin])
            #expect(request.status == .ok)
            #expect(request.string("message") == "Enter the code from your authenticator app")
            #expect(try await client.mail(to: admin).count == mailBefore)

            // The magic link now stands in for the password only: step 1's shape, no tokens.
            #expect(try await client.post("/api/auth/magic-link/request", ["email": admin]).status == .ok)
            let magic = try await client.post(
                "/api/auth/magic-link/verify-code", ["email": admin, "code": try await client.latestCode(to: admin)])
            #expect(magic.status == .ok)
            #expect(magic.data["requiresTwoFactor"] as? Bool == true)
            #expect(magic.data["token"] == nil)
            #expect(magic.data["refreshToken"] == nil)
            #expect(magic.data["methods"] as? [String] == ["totp", "recovery_code"])
            let challengeToken = try #require(magic.string("challengeToken"))
            server.clock.advance(by: 30)
            let done = try await client.post(
                "/api/auth/2fa/verify",
                ["userId": userId, "code": TOTPTests.code(secret, server.clock.now), "challengeToken": challengeToken])
            #expect(done.string("token") != nil)
            // And a recovery code completes a magic-link sign-in too.
            #expect(try await client.post("/api/auth/magic-link/request", ["email": admin]).status == .ok)
            let second = try await client.post(
                "/api/auth/magic-link/verify-code", ["email": admin, "code": try await client.latestCode(to: admin)])
            let viaRecovery = try await client.post(
                "/api/auth/2fa/verify",
                ["userId": userId, "code": recovery[0], "challengeToken": try #require(second.string("challengeToken"))])
            #expect(viaRecovery.string("token") != nil)
        }
    }

    @Test func withAPasskeyStepThreeTakesThePasskeyAndNotTheMailbox() async throws {
        let server = try await PasskeyTests.server()
        try await server.run { client in
            let token = try #require(try await client.signIn().string("token"))
            let authenticator = SoftwarePasskeyAuthenticator(origin: PasskeyTests.site)
            #expect(try await PasskeyTests.enrol(client, token: token, authenticator).status == .created)

            let login = try await Self.stepOne(client)
            #expect(login.data["methods"] as? [String] == ["passkey"])
            let userId = try #require(login.string("userId")), challengeToken = try #require(login.string("challengeToken"))
            let options = try JSONDecoder().decode(
                PublicKeyCredentialRequestOptionsJSON.self,
                from: JSONSerialization.data(withJSONObject: try #require(login.data["passkey"])))
            #expect(options.allowCredentials.map(\.id) == authenticator.credentials.map { Data($0.id).base64URLEncoded() })
            #expect(options.userVerification == "required")
            let mailBefore = try await client.mail(to: admin).count
            let request = try await client.post("/api/auth/2fa/request", ["userId": userId, "email": admin])
            #expect(request.string("message") == "Use your passkey to finish signing in")
            #expect(try await client.mail(to: admin).count == mailBefore)
            try await client.post("/api/auth/2fa/verify", ["userId": userId, "code": "123456", "challengeToken": challengeToken])
                .expectFailure(.unauthorized, "INVALID_CODE")

            // Another user's passkey, a broken signature: refused, and counted as tries.
            let engineerToken = try #require(
                try await client.signIn(DemoFixtures.engineerEmail, DemoFixtures.engineerPassword).string("token"))
            let other = SoftwarePasskeyAuthenticator(origin: PasskeyTests.site)
            #expect(try await PasskeyTests.enrol(client, token: engineerToken, other).status == .created)
            func stepThree(_ assertion: AuthenticationResponseJSON) async throws -> Reply {
                try await client.send(
                    .post, "/api/auth/2fa/verify",
                    json: try PasskeyTests.json(TwoFactorVerifyRequest(userId: userId, passkey: assertion, challengeToken: challengeToken)))
            }
            var unlisted = options
            unlisted.allowCredentials = []
            try await stepThree(try await other.signIn(unlisted)).expectFailure(.unauthorized, "PASSKEY_INVALID", "Passkey not recognised")
            var broken = SoftwarePasskeyAuthenticator.Tampering()
            broken.breakSignature = true
            authenticator.tampering = broken
            try await stepThree(try await authenticator.signIn(options)).expectFailure(.unauthorized, "PASSKEY_INVALID")

            let signedIn = try await stepThree(try await authenticator.signIn(options))
            #expect(signedIn.status == .ok)
            #expect(signedIn.string("refreshToken") != nil)
            // The challenge is closed: the same answer again is refused.
            try await stepThree(try await authenticator.signIn(options)).expectFailure(.unauthorized, "LOGIN_CHALLENGE_EXPIRED")
        }
    }

    /// A body with a code and a passkey, or neither, is bad input (the document says so too).
    @Test func stepThreeTakesACodeOrAPasskeyNotBoth() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let userId = try await client.login(admin, DemoFixtures.adminPassword)
            let assertion = try PasskeyTests.json(AuthenticationResponseJSON.example)
            try await client.send(.post, "/api/auth/2fa/verify", json: #"{"userId": "\#(userId)", "code": "123456", "passkey": \#(assertion)}"#)
                .expectFailure(.badRequest, "VALIDATION_ERROR", "Send code or passkey, not both")
            try await client.send(.post, "/api/auth/2fa/verify", json: #"{"userId": "\#(userId)"}"#)
                .expectFailure(.badRequest, "VALIDATION_ERROR", "code or passkey is required")
            try await client.send(
                .post, "/api/auth/2fa/verify", json: #"{"userId": "\#(userId)", "passkey": {"id": "x", "rawId": "x", "type": "public-key"}}"#
            ).expectFailure(.badRequest, "VALIDATION_ERROR", "passkey.response is required")
            // A user without passkeys answering with one: refused as a wrong factor.
            try await client.send(.post, "/api/auth/2fa/verify", json: #"{"userId": "\#(userId)", "passkey": \#(assertion)}"#)
                .expectFailure(.unauthorized, "PASSKEY_INVALID")
        }
    }
}
