import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import RepairMinderModels
import TestSupport
import Testing

@testable import RepairMinderServer

/// Access tokens other services can verify without being able to mint them (docs/API.md
/// §2.6): a key pair of the key set signs, `/.well-known/jwks.json` publishes its public half,
/// and the audience tells the kinds of token apart.
@Suite struct SigningKeyTests {
    /// The access tokens' keys `/.well-known/jwks.json` publishes (the ID tokens' RS256 keys,
    /// docs/API.md §16, are `idTokenKeys`).
    static func jwks(_ client: TestClient) async throws -> (reply: Reply, keys: [[String: Any]]) {
        let reply = try await client.send(.get, "/.well-known/jwks.json")
        return (reply, try #require(reply.json["keys"] as? [[String: Any]]).filter { $0["alg"] as? String != "RS256" })
    }

    /// The ID tokens' keys the JWKS publishes.
    static func idTokenKeys(_ client: TestClient) async throws -> [[String: Any]] {
        let reply = try await client.send(.get, "/.well-known/jwks.json")
        return try #require(reply.json["keys"] as? [[String: Any]]).filter { $0["alg"] as? String == "RS256" }
    }

    static func parts(of token: String) throws -> (header: [String: Any], claims: [String: Any]) {
        let pieces = token.split(separator: ".", omittingEmptySubsequences: false)
        try #require(pieces.count == 3)
        func object(_ piece: Substring) throws -> [String: Any] {
            let data = try #require(Data(base64URLEncoded: piece))
            return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
        return (try object(pieces[0]), try object(pieces[1]))
    }

    /// A token of our own making: `header` and `claims`, signed by `sign` over the signing input.
    static func token(header: [String: Any], claims: [String: Any], sign: (Data) throws -> Data) throws -> String {
        let input =
            try JSONSerialization.data(withJSONObject: header).base64URLEncoded() + "."
            + JSONSerialization.data(withJSONObject: claims).base64URLEncoded()
        return input + "." + (try sign(Data(input.utf8))).base64URLEncoded()
    }

    @Test(arguments: [SigningKeyAlgorithm.es256, .eddsa])
    func theJWKSPublishesThePublicKeyThatVerifiesTokens(algorithm: SigningKeyAlgorithm) async throws {
        let server = try await TestServer { $0.jwtAlgorithm = algorithm }
        try await server.run { client in
            let token = try #require(try await client.signIn().string("token"))
            let (reply, keys) = try await Self.jwks(client)
            #expect(reply.status == .ok)
            #expect(reply.headers[.cacheControl] == "public, max-age=300")
            #expect(reply.headers[.contentType] == "application/json")
            // Only the new key pair: the test's HS256 secret is never published.
            #expect(keys.count == 1)
            // Beside it, the ID tokens' RS256 key, its public half only.
            let idKeys = try await Self.idTokenKeys(client)
            #expect(idKeys.count == 1 && idKeys.allSatisfy { $0["kty"] as? String == "RSA" && $0["n"] != nil && $0["e"] as? String == "AQAB" })
            #expect(idKeys.allSatisfy { $0["d"] == nil && $0["p"] == nil && $0["q"] == nil && $0["use"] as? String == "sig" })
            let key = try #require(keys.first)
            let header = try Self.parts(of: token).header
            #expect(key["kid"] as? String == header["kid"] as? String)
            #expect(key["alg"] as? String == algorithm.rawValue && header["alg"] as? String == algorithm.rawValue)
            #expect(key["use"] as? String == "sig")
            #expect(key["kty"] as? String == (algorithm == .es256 ? "EC" : "OKP"))
            #expect(key["crv"] as? String == (algorithm == .es256 ? "P-256" : "Ed25519"))
            #expect(key["d"] == nil && key["k"] == nil)
            // The published key verifies the token's signature (outside jwt-kit).
            let pieces = token.split(separator: ".")
            let input = Data("\(pieces[0]).\(pieces[1])".utf8)
            let signature = try #require(Data(base64URLEncoded: pieces[2]))
            let x = try #require((key["x"] as? String).flatMap { Data(base64URLEncoded: $0) })
            if algorithm == .es256 {
                let y = try #require((key["y"] as? String).flatMap { Data(base64URLEncoded: $0) })
                let publicKey = try P256.Signing.PublicKey(x963Representation: [0x04] + x + y)
                #expect(publicKey.isValidSignature(try P256.Signing.ECDSASignature(rawRepresentation: signature), for: input))
            } else {
                #expect(try Curve25519.Signing.PublicKey(rawRepresentation: x).isValidSignature(signature, for: input))
            }
        }
    }

    @Test func theKeySetFileIsPrivateAndSurvivesARestart() async throws {
        let server = try await TestServer()
        let kids = Locked<[String]>([])
        try await server.runAcrossRestart(changing: { _ in }) { client in
            let token = try #require(try await client.signIn().string("token"))
            kids.value.append(try #require(try Self.parts(of: token).header["kid"] as? String))
        } then: { client in
            let token = try #require(try await client.signIn().string("token"))
            kids.value.append(try #require(try Self.parts(of: token).header["kid"] as? String))
        }
        #expect(kids.value.count == 2 && kids.value[0] == kids.value[1])
    }

    @Test func theKeySetIsCreatedOnceWithMode0600() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/signing-keys.json"
        let first = try SigningKeyFile.loadOrCreate(path, algorithm: .es256, retiring: nil, now: 100)
        let again = try SigningKeyFile.loadOrCreate(path, algorithm: .eddsa, retiring: nil, now: 200)
        #expect(first == again)
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        #expect(first.keys.count == 2 && first.keys[0].alg == .es256 && first.keys[0].d != nil)
        // And the ID tokens' key: RS256, 2048 bits, its private members stored as RFC 7518 names them.
        let rsa = first.keys[1]
        #expect(rsa.alg == .rs256 && rsa.kty == "RSA" && rsa.n.flatMap { Data(base64URLEncoded: $0) }?.count == 256)
        #expect([rsa.d, rsa.p, rsa.q, rsa.dp, rsa.dq, rsa.qi].allSatisfy { $0 != nil })
        #expect(first.idTokenKey(at: 100)?.kid == rsa.kid && first.signingKey(at: 100)?.kid == first.keys[0].kid)
    }

    /// Switching from HS256 signs nobody out: a token of the secret keeps working until it
    /// expires, new tokens carry the key pair's `kid`, and the secret is never published.
    @Test func switchingFromHS256KeepsOldTokensUntilTheyExpire() async throws {
        let server = try await TestServer { $0.jwtAlgorithm = .hs256 }
        let saved = Locked<String>("")
        try await server.runAcrossRestart(changing: { $0.jwtAlgorithm = .es256 }) { client in
            saved.value = try #require(try await client.signIn().string("token"))
            let (_, keys) = try await Self.jwks(client)
            #expect(keys.isEmpty)
            #expect(try await Self.idTokenKeys(client).isEmpty)
        } then: { client in
            #expect(try await client.send(.get, "/api/auth/me", bearer: saved.value).status == .ok)
            let fresh = try #require(try await client.signIn().string("token"))
            #expect(try Self.parts(of: fresh).header["alg"] as? String == "ES256")
            let (_, keys) = try await Self.jwks(client)
            #expect(keys.count == 1 && keys.allSatisfy { $0["kty"] as? String == "EC" })
            server.clock.advance(by: 901)
            try await client.send(.get, "/api/auth/me", bearer: saved.value).expectFailure(.unauthorized, "TOKEN_EXPIRED")
        }
    }

    /// Every kind of forgery the issue names, refused with 401 and nothing else.
    @Test func forgedTokensAreRefused() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let token = try #require(try await client.signIn().string("token"))
            let (header, claims) = try Self.parts(of: token)
            let (_, keys) = try await Self.jwks(client)
            let published = try JSONSerialization.data(withJSONObject: try #require(keys.first))
            let stranger = P256.Signing.PrivateKey()
            // The server's own key, read from its key set: for tokens signed right but wrong otherwise.
            let own = try #require(SigningKeyFile.load(server.settings.signingKeysPath).signingKey(at: server.clock.now))
            let ownKey = try P256.Signing.PrivateKey(rawRepresentation: try #require(own.d.flatMap { Data(base64URLEncoded: $0) }))
            let signedRight = { (data: Data) throws -> Data in try ownKey.signature(for: data).rawRepresentation }
            // The control: a token of our making, signed right, is accepted.
            let control = try Self.token(header: header, claims: claims, sign: signedRight)
            #expect(try await client.send(.get, "/api/auth/me", bearer: control).status == .ok)
            let forgeries: [(String, String)] = [
                ("unknown kid", try Self.token(header: header.merging(["kid": "not-a-key-of-ours"]) { $1 }, claims: claims) {
                    try stranger.signature(for: $0).rawRepresentation
                }),
                ("right kid, another key", try Self.token(header: header, claims: claims) { try stranger.signature(for: $0).rawRepresentation }),
                ("alg none", try Self.token(header: header.merging(["alg": "none"]) { $1 }, claims: claims) { _ in Data() }),
                ("HS256 signed with the public key", try Self.token(header: header.merging(["alg": "HS256"]) { $1 }, claims: claims) {
                    Data(HMAC<SHA256>.authenticationCode(for: $0, using: SymmetricKey(data: published)))
                }),
                ("another audience", try Self.token(header: header, claims: claims.merging(["aud": "reki"]) { $1 }, sign: signedRight)),
                ("another issuer", try Self.token(header: header, claims: claims.merging(["iss": "https://evil.example"]) { $1 }, sign: signedRight)),
                ("typ JWT", try Self.token(header: header.merging(["typ": "JWT"]) { $1 }, claims: claims, sign: signedRight)),
            ]
            for (name, forged) in forgeries {
                let reply = try await client.send(.get, "/api/auth/me", bearer: forged)
                #expect(reply.status == .unauthorized, "\(name)")
                #expect(reply.code == "UNAUTHORIZED", "\(name)")
            }
            #expect(try await client.send(.get, "/api/auth/me", bearer: token).status == .ok)
        }
    }

    /// Each kind of token is refused on the others' routes by its audience.
    @Test func aTokenOfOneKindFailsOnTheOthersRoutes() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            let staff = try #require(try await client.signIn().string("token"))
            let customer = try #require(try await client.customerSignIn("jane@example.test").string("token"))
            let reki = try #require(
                try await client.post("/auth/register", ["email": "kind@example.test", "password": "violet kettle 1987"]).json["access_token"]
                    as? String)
            #expect(try Self.parts(of: staff).claims["aud"] as? String == "repairminder")
            #expect(try Self.parts(of: customer).claims["aud"] as? String == "repairminder-customer")
            #expect(try Self.parts(of: reki).claims["aud"] as? String == "reki")
            for (token, path, accepted) in [
                (staff, "/api/auth/me", true), (customer, "/api/auth/me", false), (reki, "/api/auth/me", false),
                (customer, "/api/customer/auth/me", true), (staff, "/api/customer/auth/me", false), (reki, "/api/customer/auth/me", false),
                (reki, "/auth/me", true), (staff, "/auth/me", false), (customer, "/auth/me", false),
            ] {
                let status = try await client.send(.get, path, bearer: token).status
                #expect((status == .ok) == accepted, "\(path): \(status)")
                if !accepted { #expect(status == .unauthorized, "\(path)") }
            }
        }
    }

    /// Whether python3 has PyJWT with its crypto extra (`.ci/run` installs it).
    static let pyJWTAvailable = PythonScript.canImport("jwt, cryptography")

    /// `.ci/pyjwt-verify.py`'s verdict on `token`: nil when every check held, else what failed.
    /// With `amr`, the token's `amr` claim must be exactly it.
    static func pyJWTVerdict(jwksURL: String, token: String, audience: String, issuer: String, amr: [String]? = nil) async throws
        -> String?
    {
        let expected = try amr.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }
        return try await PythonScript.verdict("pyjwt-verify.py", [jwksURL, token, audience, issuer] + (expected.map { [$0] } ?? []))
    }

    /// A token of each kind verifies with PyJWT's `PyJWKClient`, given only the JWKS URL, with
    /// `iss` and `aud` checked; another audience or issuer is refused there too.
    @Test(
        .enabled(if: pyJWTAvailable, "needs PyJWT: python3 -m pip install 'pyjwt[crypto]'"),
        arguments: [SigningKeyAlgorithm.es256, .eddsa])
    func aStandardLibraryVerifiesTokensGivenOnlyTheJWKSURL(algorithm: SigningKeyAlgorithm) async throws {
        let server = try await TestServer { $0.jwtAlgorithm = algorithm }
        try await server.run(.live) { client in
            let port = try #require(client.client.port)
            let jwksURL = "http://127.0.0.1:\(port)/.well-known/jwks.json"
            let staff = try #require(try await client.signIn().string("token"))
            let customer = try #require(try await client.customerSignIn("jane@example.test").string("token"))
            let reki = try #require(
                try await client.post("/auth/register", ["email": "pyjwt@example.test", "password": "violet kettle 1987"])
                    .json["access_token"] as? String)
            for (token, audience) in [(staff, "repairminder"), (customer, "repairminder-customer"), (reki, "reki")] {
                let verdict = try await Self.pyJWTVerdict(jwksURL: jwksURL, token: token, audience: audience, issuer: server.settings.serverURL)
                #expect(verdict == nil, "\(audience): \(verdict ?? "")")
            }
        }
    }

    /// The `kid`s `/.well-known/jwks.json` lists on `client`'s instance.
    static func publishedIDs(_ client: TestClient) async throws -> Set<String> {
        Set(try await jwks(client).keys.compactMap { $0["kid"] as? String })
    }

    /// A rotation end to end, on two instances sharing the key set (on PostgreSQL when the
    /// tests have it): the new key is published at once by both, signs after the activation
    /// delay, tokens of the old key keep working until they expire (a customer's, which has no
    /// refresh, for as long as its session), and then only the new key is published.
    @Test func aRotationReachesEveryInstanceWithoutARestart() async throws {
        let server = try await TestServer {
            $0.signingKeysRefreshInterval = .milliseconds(50)
            $0.customerSessionTTLWeb = 3_000
            $0.customerSessionTTLMobile = 2_000
        }
        let path = server.settings.signingKeysPath
        let lifetime = server.settings.longestTokenLifetime
        #expect(lifetime == 3_000)
        try await server.runTwoInstances { a, b in
            let before = try #require(try await a.signIn().string("token"))
            let customer = try #require(try await a.customerSignIn("jane@example.test").string("token"))
            let old = try #require(try Self.parts(of: before).header["kid"] as? String)
            let (seenByA, seenByB) = (try await Self.publishedIDs(a), try await Self.publishedIDs(b))
            #expect(seenByA == [old] && seenByB == [old])

            let (added, dropped) = try SigningKeyAdministration.rotate(
                path: path, algorithm: .es256, activationDelay: 600, tokenLifetime: lifetime, now: server.clock.now)
            #expect(dropped.isEmpty && added.state == .published)
            try await waitUntil("both instances publishing the new key") {
                let (seenByA, seenByB) = (try await Self.publishedIDs(a), try await Self.publishedIDs(b))
                return seenByA == [old, added.kid] && seenByB == [old, added.kid]
            }
            // Published, not signing yet.
            #expect(try Self.parts(of: try #require(try await b.signIn().string("token"))).header["kid"] as? String == old)

            server.clock.advance(by: 601)
            for client in [a, b] {
                try await waitUntil("the new key signing") {
                    let token = try #require(try await client.signIn().string("token"))
                    return try Self.parts(of: token).header["kid"] as? String == added.kid
                }
                // The old key's token still works on both until it expires.
                #expect(try await client.send(.get, "/api/auth/me", bearer: before).status == .ok)
            }
            #expect(try await Self.publishedIDs(a) == [old, added.kid])
            // Past the staff token's expiry, the old key still verifies the customer's.
            server.clock.advance(by: 900)
            try await a.send(.get, "/api/auth/me", bearer: before).expectFailure(.unauthorized, "TOKEN_EXPIRED")
            for client in [a, b] {
                #expect(try await client.send(.get, "/api/customer/auth/me", bearer: customer).status == .ok)
            }

            server.clock.advance(by: lifetime)
            try await waitUntil("the retired key no longer published") {
                let (seenByA, seenByB) = (try await Self.publishedIDs(a), try await Self.publishedIDs(b))
                return seenByA == [added.kid] && seenByB == [added.kid]
            }
            try await b.send(.get, "/api/customer/auth/me", bearer: customer).expectFailure(.unauthorized, "UNAUTHORIZED")
            let listed = try SigningKeyAdministration.list(path: path, tokenLifetime: lifetime, now: server.clock.now)
            // (The tests' HS256 secret is in the set too, retired when the set was made.) The ID
            // tokens' keys rotate beside the access tokens', each family on its own.
            let retired = SigningKeyAdministration.KeyStatus.State.retired(verifiesUntil: added.activatesAt + lifetime)
            #expect(listed.filter { $0.algorithm == "ES256" }.map(\.state) == [retired, .signing])
            #expect(listed.filter { $0.algorithm == "RS256" }.map(\.state) == [retired, .signing])
            let idTokenKey = try #require(listed.last { $0.algorithm == "RS256" }?.kid)
            // The next rotation drops the old keys from the file.
            let next = try SigningKeyAdministration.rotate(
                path: path, algorithm: .eddsa, activationDelay: 0, tokenLifetime: lifetime, now: server.clock.now)
            #expect(next.dropped.contains(old) && next.dropped.count == 3)
            let kept = try SigningKeyFile.load(path).keys
            #expect(kept.filter { $0.alg != .rs256 }.map(\.kid) == [added.kid, next.added.kid])
            #expect(kept.filter { $0.alg == .rs256 }.count == 2 && kept.contains { $0.kid == idTokenKey })
        }
    }

    /// The README's example for other services, compiled here, against the live server: a
    /// staff token verifies with only the issuer's URL; a customer's does not (its audience),
    /// nor a restricted session's (its scope).
    @Test func theREADMEsResourceServerExampleVerifiesTokens() async throws {
        let server = try await TestServer { $0.publicURL = "https://auth.repairminder.example" }
        try await server.run(.live) { client in
            // The test server listens on a port of its own; a deployment's JWKS is at the issuer's URL.
            let port = try #require(client.client.port)
            let jwksURL = try #require(URL(string: "http://127.0.0.1:\(port)/.well-known/jwks.json"))
            let tokens = RepairMinderTokens(issuer: "https://auth.repairminder.example", jwksURL: jwksURL)
            let signIn = try await client.signIn()
            let claims = try await tokens.verify(try #require(signIn.string("token")))
            #expect(claims.sub.value == (signIn.data["user"] as? [String: Any])?["id"] as? String)
            #expect(claims.role == "admin")
            #expect(claims.amr == ["pwd", "email", "mfa"])
            let customer = try #require(try await client.customerSignIn("jane@example.test").string("token"))
            await #expect(throws: (any Error).self) { _ = try await tokens.verify(customer) }
            // A session restricted by its shop's policy (docs/API.md §13.3) is refused too.
            let admin = try #require(signIn.string("token"))
            #expect(try await SecurityPolicyTests.put(client, admin, ["requiredFactor": "passkey", "enrolmentGraceDays": 0]).status == .ok)
            SecurityPolicyTests.passTheDemoAccountsCreation(server)
            let restricted = try await client.signIn(DemoFixtures.engineerEmail, DemoFixtures.engineerPassword)
            #expect(restricted.string("scope") == "enrol")
            await #expect(throws: (any Error).self) { _ = try await tokens.verify(try #require(restricted.string("token"))) }
        }
    }

    /// A key that leaves the set (removed as compromised, say) takes its tokens with it, even
    /// those this instance verified and remembered before.
    @Test func aTokenOfARemovedKeyIsRefusedEvenIfVerifiedBefore() async throws {
        let first = try SigningKeySet.generate(.es256, activatesAt: 0), second = try SigningKeySet.generate(.es256, activatesAt: 0)
        let signer = try await TokenSigner(
            keys: .init(signing: first, verifying: [], published: PublicJWKS(keys: [])), issuer: "https://rm.example")
        let claims = AccessTokenClaims(
            userId: "u1", companyId: "c1", role: .admin, phiAccessLevel: nil, isMobile: false, dataClassification: nil,
            permissions: [], sessionId: "s1", issuedAt: 1_000, expiresAt: 1_900)
        let token = try await signer.sign(claims)
        #expect(try await signer.verify(token, as: AccessTokenClaims.self, now: 1_500) == claims)
        // A key added keeps what was verified; a key removed does not.
        try await signer.replace(with: .init(signing: first, verifying: [second], published: PublicJWKS(keys: [])))
        #expect(signer.verified.count == 1)
        try await signer.replace(with: .init(signing: second, verifying: [], published: PublicJWKS(keys: [])))
        await #expect(throws: TokenSigner.VerificationError.malformed) {
            _ = try await signer.verify(token, as: AccessTokenClaims.self, now: 1_500)
        }
    }

    /// Re-reading the key set never makes one: a file gone missing keeps the keys in use
    /// (a new set would sign everyone out), and start-up in development is what creates it.
    @Test func aRereadNeverCreatesTheKeySet() async throws {
        var settings = TestServer.defaultSettings()
        defer { try? FileManager.default.removeItem(atPath: settings.dataDirectory) }
        settings.signingKeysRefreshInterval = .milliseconds(50)
        let signer = try await TokenSigner(settings: settings, now: 100)
        let inUse = signer.keys
        try FileManager.default.removeItem(atPath: settings.signingKeysPath)
        let refresh = SigningKeyRefreshService(
            signer: signer, settings: settings, jwtSecret: nil, clock: ServerClock { 200 }, logger: TestServer.quietLogger)
        await #expect(throws: SettingsError.self) { try await refresh.refresh() }
        #expect(signer.keys == inUse)
        #expect(!FileManager.default.fileExists(atPath: settings.signingKeysPath))
    }
}
