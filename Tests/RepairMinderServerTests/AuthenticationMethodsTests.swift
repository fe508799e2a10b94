import Foundation
import Hummingbird
import HummingbirdTesting
import RepairMinderModels
import TestSupport
import Testing

@testable import RepairMinderServer

/// Every staff access token says how its session signed in (`amr`, docs/API.md §13.2), checked
/// by PyJWT (a library we did not write) given only the JWKS URL: each sign-in path's values,
/// and a refresh keeping its session's.
@Suite struct AuthenticationMethodsTests {
    @Test(.enabled(if: PythonScript.runs(needing: "jwt, cryptography"), "needs PyJWT: python3 -m pip install 'pyjwt[crypto]'"))
    func eachSignInPathNamesItsMethods() async throws {
        let server = try await TestServer {
            $0.publicURL = PasskeyTests.site
            $0.jwtAlgorithm = .es256
        }
        // The authenticator app's codes take the clock a few 30-second steps on; started ten
        // minutes back, it never issues a token PyJWT would find issued in the future.
        server.clock.advance(by: -600)
        try await server.run(.live) { client in
            let port = try #require(client.client.port)
            let jwksURL = "http://127.0.0.1:\(port)/.well-known/jwks.json"
            func expect(_ reply: Reply, _ amr: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws {
                #expect(reply.status == .ok, sourceLocation: sourceLocation)
                let token = try #require(reply.string("token"), sourceLocation: sourceLocation)
                let verdict = try await SigningKeyTests.pyJWTVerdict(
                    jwksURL: jwksURL, token: token, audience: "repairminder", issuer: server.settings.serverURL, amr: amr)
                #expect(verdict == nil, "\(amr): \(verdict ?? "")", sourceLocation: sourceLocation)
            }
            let admin = DemoFixtures.adminEmail
            // Nothing enrolled: the password and the emailed code; a magic link alone.
            let password = try await client.signIn()
            try await expect(password, ["pwd", "email", "mfa"])
            let refreshed = try await client.post("/api/auth/refresh", ["refreshToken": try #require(password.string("refreshToken"))])
            try await expect(refreshed, ["pwd", "email", "mfa"])
            #expect(try await client.post("/api/auth/magic-link/request", ["email": admin]).status == .ok)
            try await expect(
                try await client.post("/api/auth/magic-link/verify-code", ["email": admin, "code": try await client.latestCode(to: admin)]),
                ["email"])

            // With the app: the password or a magic link, then its code.
            let secret = try await SecurityPolicyTests.enrolApp(client, server: server, token: try #require(password.string("token")))
            try await expect(try await TOTPTests.verify(client, code: TOTPTests.code(secret, server.clock.now)), ["pwd", "otp", "mfa"])
            server.clock.advance(by: 30)
            #expect(try await client.post("/api/auth/magic-link/request", ["email": admin]).status == .ok)
            let magic = try await client.post(
                "/api/auth/magic-link/verify-code", ["email": admin, "code": try await client.latestCode(to: admin)])
            let userId = try #require(magic.string("userId"))
            try await expect(
                try await client.post(
                    "/api/auth/2fa/verify",
                    ["userId": userId, "code": TOTPTests.code(secret, server.clock.now), "challengeToken": try #require(magic.string("challengeToken"))]),
                ["email", "otp", "mfa"])

            // With a passkey: the password and the passkey, or the passkey alone.
            let engineer = SecurityPolicyTests.Member(
                email: DemoFixtures.engineerEmail, app: nil, passkey: SoftwarePasskeyAuthenticator(origin: PasskeyTests.site))
            let engineerToken = try #require(
                try await client.signIn(DemoFixtures.engineerEmail, DemoFixtures.engineerPassword).string("token"))
            #expect(try await PasskeyTests.enrol(client, token: engineerToken, try #require(engineer.passkey)).status == .created)
            let login = try await client.post("/api/auth/login", ["email": engineer.email, "password": DemoFixtures.engineerPassword])
            let options = try JSONDecoder().decode(
                PublicKeyCredentialRequestOptionsJSON.self, from: JSONSerialization.data(withJSONObject: try #require(login.data["passkey"])))
            let answer = TwoFactorVerifyRequest(
                userId: try #require(login.string("userId")), passkey: try await #require(engineer.passkey).signIn(options),
                challengeToken: login.string("challengeToken"))
            try await expect(
                try await client.send(.post, "/api/auth/2fa/verify", json: try PasskeyTests.json(answer)), ["pwd", "swk", "user", "mfa"])
            try await expect(try await PasskeyTests.signIn(client, try #require(engineer.passkey)), ["swk", "user", "mfa"])

            // An accepted invitation and a registration: the mailbox.
            let (_, accepted) = try await SecurityPolicyTests.member(client, try #require(refreshed.string("token")), "joiner")
            try await expect(accepted, ["email"])
            let owner = "owner@new-shop.test"
            let register = try await client.post(
                "/api/auth/register",
                ["companyName": "New Shop", "firstName": "Nora", "lastName": "Owner", "email": owner, "password": SecurityPolicyTests.password])
            #expect(register.status == .created)
            try await expect(
                try await client.post("/api/auth/register/verify", ["email": owner, "code": try await client.latestCode(to: owner)]), ["email"])
        }
    }
}
