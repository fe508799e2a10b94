import Foundation
import Hummingbird
import HummingbirdTesting
import RepairMinderModels
import TestSupport
import Testing

@testable import RepairMinderServer

/// Bearer authentication, `/api/auth/me` and logout (docs/API.md §1, §2.6, §2.8, §2.9).
@Suite struct AccessTokenTests {
    @Test func meAnswersTheUserCompanyAndHasPassword() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let signIn = try await client.signIn()
            let me = try await client.send(.get, "/api/auth/me", bearer: signIn.string("token"))
            #expect(me.status == .ok)
            #expect(me.data["hasPassword"] as? Bool == true)
            let user = try #require(me.data["user"] as? [String: Any])
            let signedInUser = try #require(signIn.data["user"] as? [String: Any])
            #expect(user["id"] as? String == signedInUser["id"] as? String)
            #expect(user["email"] as? String == "admin@acme.test")
            #expect((me.data["company"] as? [String: Any])?["name"] as? String == "Acme Repairs")
        }
    }

    @Test func claimsAreThoseOfSeed000() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let signIn = try await client.signIn()
            let token = try #require(signIn.string("token"))
            let payload = try #require(Data(base64URLEncoded: token.split(separator: ".")[1]))
            let claims = try #require(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
            for key in ["userId", "companyId", "role", "phiAccessLevel", "isMobile", "dataClassification", "permissions", "sub", "sid", "iat", "exp"] {
                #expect(claims[key] != nil, "missing claim \(key)")
            }
            #expect(claims["sub"] as? String == claims["userId"] as? String)
            #expect((claims["exp"] as? Int ?? 0) - (claims["iat"] as? Int ?? 0) == 900)
            // And RFC 9068's registered claims and header.
            #expect(claims["iss"] as? String == server.settings.serverURL)
            #expect(claims["aud"] as? String == "repairminder")
            #expect((claims["jti"] as? String)?.count ?? 0 >= 16)
            let header = try #require(Data(base64URLEncoded: token.split(separator: ".")[0]))
            let fields = try #require(try JSONSerialization.jsonObject(with: header) as? [String: Any])
            #expect(fields["alg"] as? String == "ES256")
            #expect(fields["typ"] as? String == "at+jwt")
            #expect(fields["kid"] is String)
        }
    }

    @Test(arguments: [nil, "", "Bearer", "Bearer not.a.jwt", "Basic YWRtaW46cGFzc3dvcmQ=", "Bearer a.b.c"])
    func missingOrMalformedTokensAreUnauthorized(header: String?) async throws {
        let server = try await TestServer()
        try await server.run { client in
            var headers: HTTPFields = [:]
            if let header { headers[.authorization] = header }
            try await client.send(.get, "/api/auth/me", headers: headers)
                .expectFailure(.unauthorized, "UNAUTHORIZED")
            try await client.send(.post, "/api/auth/logout", headers: headers)
                .expectFailure(.unauthorized, "UNAUTHORIZED")
        }
    }

    @Test func aTamperedTokenIsUnauthorized() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let token = try #require(try await client.signIn().string("token"))
            var parts = token.split(separator: ".").map(String.init)
            var claims = try #require(try JSONSerialization.jsonObject(with: Data(base64URLEncoded: parts[1])!) as? [String: Any])
            claims["role"] = "master_admin"
            parts[1] = try JSONSerialization.data(withJSONObject: claims).base64URLEncoded()
            try await client.send(.get, "/api/auth/me", bearer: parts.joined(separator: "."))
                .expectFailure(.unauthorized, "UNAUTHORIZED")
            // Signed with another key: refused as well.
            let original = try JSONDecoder().decode(AccessTokenClaims.self, from: try #require(Data(base64URLEncoded: parts[1])))
            let forged = try await TokenSigner.forTests(issuer: server.settings.serverURL).sign(original)
            try await client.send(.get, "/api/auth/me", bearer: forged).expectFailure(.unauthorized, "UNAUTHORIZED")
        }
    }

    @Test func anExpiredTokenGetsTokenExpired() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let token = try #require(try await client.signIn().string("token"))
            server.clock.advance(by: 901)
            try await client.send(.get, "/api/auth/me", bearer: token)
                .expectFailure(.unauthorized, "TOKEN_EXPIRED")
        }
    }

    /// ECDSA signatures are malleable: (r, s) and (r, n − s) both verify, so a holder can spell a
    /// token they hold a second way (docs/API.md §2.6 decides to accept it, as jwt-kit and PyJWT
    /// do). Nothing keys on a token's bytes: the second spelling carries the same session, and
    /// ending that session refuses both.
    @Test func aSecondSpellingOfATokenIsTheSameSessionAndEndsWithIt() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let token = try #require(try await client.signIn().string("token"))
            let parts = token.split(separator: ".").map(String.init)
            let signature = try #require(Data(base64URLEncoded: parts[2]))
            #expect(signature.count == 64)
            // n, the order of P-256, big-endian.
            let hex = Array("FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551")
            let order = stride(from: 0, to: hex.count, by: 2).compactMap { UInt8(String(hex[$0...$0 + 1]), radix: 16) }
            var s = [UInt8](signature.suffix(32)), borrow = 0
            for index in stride(from: 31, through: 0, by: -1) {
                let difference = Int(order[index]) - Int(s[index]) - borrow
                s[index] = UInt8((difference + 256) % 256)
                borrow = difference < 0 ? 1 : 0
            }
            let other = parts[0] + "." + parts[1] + "." + (signature.prefix(32) + Data(s)).base64URLEncoded()
            #expect(other != token)
            #expect(try await client.send(.get, "/api/auth/me", bearer: other).status == .ok)
            #expect(try await client.send(.post, "/api/auth/logout", bearer: other).status == .ok)
            for spelling in [token, other] {
                try await client.send(.get, "/api/auth/me", bearer: spelling).expectFailure(.unauthorized, "UNAUTHORIZED")
            }
        }
    }

    @Test func logoutRevokesTheSessionAndItsAccessToken() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let signIn = try await client.signIn()
            let other = try await client.signIn()
            let token = try #require(signIn.string("token"))
            let logout = try await client.send(.post, "/api/auth/logout", bearer: token)
            #expect(logout.status == .ok)
            #expect(NSDictionary(dictionary: logout.json) == NSDictionary(dictionary: ["success": true]))
            try await client.send(.get, "/api/auth/me", bearer: token).expectFailure(.unauthorized, "UNAUTHORIZED")
            try await client.send(.post, "/api/auth/logout", bearer: token).expectFailure(.unauthorized, "UNAUTHORIZED")
            // Another session of the same user is untouched.
            #expect(try await client.send(.get, "/api/auth/me", bearer: other.string("token")).status == .ok)
        }
    }

    /// A deactivation written by someone else (another instance, an operator): a session this
    /// instance has cached as live (`StaffCallerCache`) is refused within the cache's lifetime,
    /// well inside API.md's 5 seconds.
    @Test func deactivationElsewhereStopsAccessTokensWithinSeconds() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let token = try #require(try await client.signIn().string("token"))
            #expect(try await client.send(.get, "/api/auth/me", bearer: token).status == .ok)
            try await server.withDatabase { db in
                try await db.withConnection {
                    try await $0.raw("UPDATE users SET is_active = 0 WHERE email = 'admin@acme.test'").run()
                }
            }
            // Refused once the cached entry expires; how long an entry lives is
            // StaffCallerCacheTests' to check, on a clock of its own, not this test's.
            var status = HTTPResponse.Status.ok
            try await waitUntil("the deactivated session refused", interval: .milliseconds(100)) {
                status = try await client.send(.get, "/api/auth/me", bearer: token).status
                return status != .ok
            }
            #expect(status == .unauthorized)
        }
    }

    @Test func tokensOfThePreviousHS256SecretStayValidAfterRotation() async throws {
        let oldSecret = "the-old-signing-secret-of-32-bytes-or-more"
        let server = try await TestServer {
            $0.jwtAlgorithm = .hs256
            $0.jwtSecret = oldSecret
        }
        let token: String = try await {
            let box = TokenBox()
            try await server.run { client in box.token = try await client.signIn().string("token") }
            return try #require(box.token)
        }()
        // Restart with a new key, keeping the old one as previous: the old token still verifies.
        var rotated = server.settings
        rotated.jwtSecret = "the-new-signing-secret-of-32-bytes-or-more"
        rotated.previousJWTSecret = oldSecret
        let old = try await TokenSigner.forTests(.hs256, secret: oldSecret)
        let signer = try await TokenSigner.forTests(.hs256, secret: rotated.jwtSecret, previous: rotated.previousJWTSecret)
        let claims = try await signer.verify(token, as: AccessTokenClaims.self, now: server.clock.now)
        #expect(claims.role == .admin)
        #expect(signer.keys.signing.kid != old.keys.signing.kid)
        // Without the previous key it is refused.
        await #expect(throws: TokenSigner.VerificationError.malformed) {
            _ = try await TokenSigner.forTests(.hs256, secret: rotated.jwtSecret).verify(token, as: AccessTokenClaims.self, now: server.clock.now)
        }
    }
}

final class TokenBox: @unchecked Sendable {
    var token: String?
}
