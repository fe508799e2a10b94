import Foundation
import Hummingbird
import HummingbirdTesting
import RepairMinderModels
import TestSupport
import Testing

@testable import RepairMinderServer

/// Passkeys against the running server (docs/API.md §11), on SQLite and on PostgreSQL, made by
/// a software authenticator that answers as a browser would.
@Suite struct PasskeyTests {
    static let site = "https://repairminder.test"
    let admin = DemoFixtures.adminEmail

    static func server() async throws -> TestServer {
        try await TestServer { $0.publicURL = site }
    }

    /// The decoded `data` of a reply, as `T`.
    static func decode<T: Decodable>(_ reply: Reply, as type: T.Type) throws -> T {
        let data = try JSONSerialization.data(withJSONObject: try #require(reply.json["data"]))
        return try JSONDecoder().decode(T.self, from: data)
    }

    /// Enrols a passkey made by `authenticator` for the bearer's user; the reply of `register/verify`.
    static func enrol(
        _ client: TestClient, token: String, _ authenticator: SoftwarePasskeyAuthenticator, name: String? = "Laptop",
        tampering: SoftwarePasskeyAuthenticator.Tampering = .init()
    ) async throws -> Reply {
        let options = try await client.send(.post, "/api/auth/passkeys/register/options", json: "{}", bearer: token)
        #expect(options.status == .ok)
        let started = try decode(options, as: PasskeyRegistrationOptions.self)
        authenticator.tampering = tampering
        let credential = try await authenticator.createPasskey(started.publicKey)
        return try await client.send(
            .post, "/api/auth/passkeys/register/verify",
            json: try json(PasskeyRegistrationRequest(challengeId: started.challengeId, name: name, credential: credential)),
            bearer: token)
    }

    /// A usernameless sign-in by `authenticator`; the reply of `login/verify`.
    static func signIn(
        _ client: TestClient, _ authenticator: SoftwarePasskeyAuthenticator,
        tampering: SoftwarePasskeyAuthenticator.Tampering = .init()
    ) async throws -> Reply {
        let options = try decode(
            try await client.send(.post, "/api/auth/passkeys/login/options", json: "{}"), as: PasskeyLoginOptions.self)
        authenticator.tampering = tampering
        let assertion = try await authenticator.signIn(options.publicKey)
        return try await client.send(
            .post, "/api/auth/passkeys/login/verify",
            json: try json(PasskeyLoginRequest(challengeId: options.challengeId, credential: assertion)))
    }

    static func json(_ value: some Encodable) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }

    static func passkeyCount(_ server: TestServer) async throws -> Int {
        try await server.withDatabase { try await $0.count("passkeys") }
    }

    @Test(arguments: [SoftwarePasskeyAuthenticator.Algorithm.es256, .edDSA, .rs256])
    func enrolListSignInRemove(_ algorithm: SoftwarePasskeyAuthenticator.Algorithm) async throws {
        let server = try await Self.server()
        try await server.run { client in
            let token = try #require(try await client.signIn().string("token"))
            let authenticator = SoftwarePasskeyAuthenticator(origin: Self.site, algorithm: algorithm)

            // The options: WebAuthn Level 3 JSON, a 32-byte challenge, an opaque user handle.
            let options = try await client.send(.post, "/api/auth/passkeys/register/options", json: "{}", bearer: token)
            let publicKey = try #require(options.data["publicKey"] as? [String: Any])
            let challenge = try #require(publicKey["challenge"] as? String)
            #expect(Data(base64URLEncoded: challenge)?.count == 32)
            #expect(publicKey["rp"] as? [String: String] == ["id": "repairminder.test", "name": "Repair Minder"])
            let user = try #require(publicKey["user"] as? [String: String])
            #expect(user["name"] == admin)
            let handle = try #require(user["id"])
            #expect(Data(base64URLEncoded: handle)?.count == 32)
            #expect(user["id"]?.contains("admin") == false)
            #expect((publicKey["pubKeyCredParams"] as? [[String: Any]])?.compactMap { $0["alg"] as? Int } == [-7, -8, -257])
            #expect(NSDictionary(dictionary: try #require(publicKey["authenticatorSelection"] as? [String: Any])) == [
                "residentKey": "required", "requireResidentKey": true, "userVerification": "required",
            ])
            #expect(publicKey["attestation"] as? String == "none")
            #expect(publicKey["timeout"] as? Int == 300_000)
            #expect((publicKey["excludeCredentials"] as? [Any])?.isEmpty == true)

            let enrolled = try await Self.enrol(client, token: token, authenticator)
            #expect(enrolled.status == .created)
            #expect(enrolled.string("name") == "Laptop")
            #expect(enrolled.data["backedUp"] as? Bool == true)
            #expect(enrolled.data.keys.contains("lastUsedAt"))
            let id = try #require(enrolled.string("id"))

            // The next enrolment excludes it, and a second passkey can be added.
            let next = try await client.send(.post, "/api/auth/passkeys/register/options", json: "{}", bearer: token)
            let excluded = (next.data["publicKey"] as? [String: Any])?["excludeCredentials"] as? [[String: String]]
            let first = try #require(authenticator.credentials.first)
            #expect(excluded?.map { $0["id"] } == [Data(first.id).base64URLEncoded()])
            #expect((next.data["publicKey"] as? [String: Any])?["user"] as? [String: String] == user)

            let list = try await client.send(.get, "/api/auth/passkeys", bearer: token)
            #expect((list.json["data"] as? [[String: Any]])?.map { $0["id"] as? String } == [id])

            // A usernameless sign-in: empty allowCredentials, UV required.
            let loginOptions = try await client.send(.post, "/api/auth/passkeys/login/options", json: "{}")
            let requestOptions = try #require(loginOptions.data["publicKey"] as? [String: Any])
            #expect(requestOptions["rpId"] as? String == "repairminder.test")
            #expect(requestOptions["userVerification"] as? String == "required")
            #expect((requestOptions["allowCredentials"] as? [Any])?.isEmpty == true)
            let signedIn = try await Self.signIn(client, authenticator)
            #expect(signedIn.status == .ok)
            #expect(signedIn.string("refreshToken") != nil)
            #expect((signedIn.data["user"] as? [String: Any])?["email"] as? String == admin)
            let me = try await client.send(.get, "/api/auth/me", bearer: try #require(signedIn.string("token")))
            #expect(me.status == .ok)
            let used = try await client.send(.get, "/api/auth/passkeys", bearer: token)
            #expect((used.json["data"] as? [[String: Any]])?.first?["lastUsedAt"] is String)

            // Removed: it no longer signs in; both events are in the activity log.
            let removed = try await client.send(.delete, "/api/auth/passkeys/\(id)", bearer: token)
            #expect(removed.status == .ok)
            #expect(removed.json["success"] as? Bool == true)
            let again = try await client.send(.delete, "/api/auth/passkeys/\(id)", bearer: token)
            again.expectFailure(.notFound, "NOT_FOUND")
            try await Self.signIn(client, authenticator).expectFailure(.unauthorized, "PASSKEY_INVALID", "Passkey not recognised")
            let activity = try await client.send(.get, "/api/auth/activity", bearer: token)
            let types = (activity.json["data"] as? [[String: Any]])?.compactMap { $0["type"] as? String } ?? []
            #expect(types.contains("passkey_added"))
            #expect(types.contains("passkey_removed"))
        }
    }

    @Test func anotherUsersPasskeyCannotBeRemovedOrListed() async throws {
        let server = try await Self.server()
        try await server.run { client in
            let adminToken = try #require(try await client.signIn().string("token"))
            let id = try #require(
                try await Self.enrol(client, token: adminToken, SoftwarePasskeyAuthenticator(origin: Self.site)).string("id"))
            let engineer = try #require(try await client.signIn(DemoFixtures.engineerEmail, DemoFixtures.engineerPassword).string("token"))
            let list = try await client.send(.get, "/api/auth/passkeys", bearer: engineer)
            #expect((list.json["data"] as? [Any])?.isEmpty == true)
            try await client.send(.delete, "/api/auth/passkeys/\(id)", bearer: engineer).expectFailure(.notFound, "NOT_FOUND")
            #expect(try await Self.passkeyCount(server) == 1)
            try await client.send(.get, "/api/auth/passkeys").expectFailure(.unauthorized, "UNAUTHORIZED")
        }
    }

    /// Each check of registration (WebAuthn §7.1) refuses its own fault, with 400
    /// `PASSKEY_INVALID` naming it, and keeps nothing.
    @Test func registrationFailsClosed() async throws {
        let server = try await Self.server()
        try await server.run { client in
            let token = try #require(try await client.signIn().string("token"))
            func refused(_ tampering: SoftwarePasskeyAuthenticator.Tampering, _ message: String) async throws {
                let reply = try await Self.enrol(client, token: token, SoftwarePasskeyAuthenticator(origin: Self.site), tampering: tampering)
                reply.expectFailure(.badRequest, "PASSKEY_INVALID", "Passkey not accepted: \(message)")
            }
            var t = SoftwarePasskeyAuthenticator.Tampering()
            t.origin = "https://evil.test"
            try await refused(t, "the origin https://evil.test is not allowed")
            t = .init()
            t.rpId = "evil.test"
            try await refused(t, "the credential is for another relying party id")
            t = .init()
            t.userVerified = false
            try await refused(t, "the user was not verified (UV)")
            t = .init()
            t.userPresent = false
            try await refused(t, "the user was not present (UP)")
            t = .init()
            t.type = "webauthn.get"
            try await refused(t, "the client data's type is not webauthn.create")
            t = .init()
            t.challenge = RandomToken.base64URL(byteCount: 32)
            try await refused(t, "the challenge is not this ceremony's")
            t = .init()
            t.crossOrigin = true
            try await refused(t, "a cross-origin ceremony is not allowed")
            t = .init()
            t.backedUpWithoutEligibility = true
            try await refused(t, "backed up (BS) without backup eligibility (BE)")
            #expect(try await Self.passkeyCount(server) == 0)

            // A used or expired challenge, or another user's, is refused before anything is read.
            let authenticator = SoftwarePasskeyAuthenticator(origin: Self.site)
            let options = try Self.decode(
                try await client.send(.post, "/api/auth/passkeys/register/options", json: "{}", bearer: token),
                as: PasskeyRegistrationOptions.self)
            let credential = try await authenticator.createPasskey(options.publicKey)
            let body = try Self.json(PasskeyRegistrationRequest(challengeId: options.challengeId, name: nil, credential: credential))
            let engineer = try #require(try await client.signIn(DemoFixtures.engineerEmail, DemoFixtures.engineerPassword).string("token"))
            try await client.send(.post, "/api/auth/passkeys/register/verify", json: body, bearer: engineer)
                .expectFailure(.badRequest, "PASSKEY_INVALID", "Passkey not accepted: the challenge is unknown, expired or already used")
            let first = try await client.send(.post, "/api/auth/passkeys/register/verify", json: body, bearer: token)
            #expect(first.status == .created)
            #expect(first.string("name") == "Passkey")
            try await client.send(.post, "/api/auth/passkeys/register/verify", json: body, bearer: token)
                .expectFailure(.badRequest, "PASSKEY_INVALID", "Passkey not accepted: the challenge is unknown, expired or already used")

            // The same credential again, under a fresh challenge (to anyone): already registered.
            let fresh = try Self.decode(
                try await client.send(.post, "/api/auth/passkeys/register/options", json: "{}", bearer: engineer),
                as: PasskeyRegistrationOptions.self)
            var replayed = credential
            replayed.response.clientDataJSON = Data(
                SoftwarePasskeyAuthenticator.clientData(type: "webauthn.create", challenge: fresh.publicKey.challenge, origin: Self.site, crossOrigin: false)
            ).base64URLEncoded()
            try await client.send(
                .post, "/api/auth/passkeys/register/verify",
                json: try Self.json(PasskeyRegistrationRequest(challengeId: fresh.challengeId, name: nil, credential: replayed)), bearer: engineer
            ).expectFailure(.badRequest, "PASSKEY_INVALID", "Passkey not accepted: this passkey is already registered")

            let late = try Self.decode(
                try await client.send(.post, "/api/auth/passkeys/register/options", json: "{}", bearer: token),
                as: PasskeyRegistrationOptions.self)
            let lateCredential = try await SoftwarePasskeyAuthenticator(origin: Self.site).createPasskey(late.publicKey)
            server.clock.advance(by: 301)
            try await client.send(
                .post, "/api/auth/passkeys/register/verify",
                json: try Self.json(PasskeyRegistrationRequest(challengeId: late.challengeId, name: nil, credential: lateCredential)),
                bearer: token
            ).expectFailure(.badRequest, "PASSKEY_INVALID", "Passkey not accepted: the challenge is unknown, expired or already used")
            #expect(try await Self.passkeyCount(server) == 1)
        }
    }

    /// A malformed body is bad input (docs/API.md §1), refused before the ceremony is touched:
    /// nothing is kept, and the same challenge then enrols.
    @Test func malformedEnrolmentsAreBadInputAndChangeNothing() async throws {
        let server = try await Self.server()
        try await server.run { client in
            let token = try #require(try await client.signIn().string("token"))
            let options = try Self.decode(
                try await client.send(.post, "/api/auth/passkeys/register/options", json: "{}", bearer: token),
                as: PasskeyRegistrationOptions.self)
            let credential = try await SoftwarePasskeyAuthenticator(origin: Self.site).createPasskey(options.publicKey)
            let good = try Self.json(credential)
            for (body, message) in [
                (#"{"credential": \#(good)}"#, "challengeId is required"),
                (#"{"challengeId": "\#(options.challengeId)"}"#, "credential is required"),
                (#"{"challengeId": "\#(options.challengeId)", "credential": {"id": "x", "rawId": "x", "type": "public-key"}}"#,
                 "credential.response is required"),
                (#"{"challengeId": "\#(options.challengeId)", "credential": {"id": "x", "rawId": "x", "type": "password", "response": {"clientDataJSON": "e30", "attestationObject": "oA"}}}"#,
                 #"credential.type must be "public-key""#),
                (#"{"challengeId": "\#(options.challengeId)", "credential": {"id": "x", "rawId": "x", "type": "public-key", "response": {"clientDataJSON": "e30=", "attestationObject": "oA"}}}"#,
                 "credential.response.clientDataJSON must be base64url without padding"),
                (#"{"challengeId": "\#(options.challengeId)", "name": "\#(String(repeating: "n", count: 101))", "credential": \#(good)}"#,
                 "name is too long"),
            ] {
                try await client.send(.post, "/api/auth/passkeys/register/verify", json: body, bearer: token)
                    .expectFailure(.badRequest, "VALIDATION_ERROR", message)
            }
            #expect(try await Self.passkeyCount(server) == 0)
            let enrolled = try await client.send(
                .post, "/api/auth/passkeys/register/verify",
                json: try Self.json(PasskeyRegistrationRequest(challengeId: options.challengeId, name: nil, credential: credential)),
                bearer: token)
            #expect(enrolled.status == .created)
        }
    }

    /// Each check of a sign-in (WebAuthn §7.2) refuses with the one answer, 401
    /// `PASSKEY_INVALID` "Passkey not recognised", and issues nothing.
    @Test func signInFailsClosed() async throws {
        let server = try await Self.server()
        try await server.run { client in
            let token = try #require(try await client.signIn().string("token"))
            let authenticator = SoftwarePasskeyAuthenticator(origin: Self.site)
            #expect(try await Self.enrol(client, token: token, authenticator).status == .created)
            // Each refusal issues nothing: no session, and the passkey's counter and last use stay.
            func refused(_ tampering: SoftwarePasskeyAuthenticator.Tampering, by signer: SoftwarePasskeyAuthenticator? = nil) async throws {
                let before = try await server.withDatabase { db in
                    (try await db.count("sessions"), try await db.count("passkeys", where: "last_used_at IS NULL"))
                }
                try await Self.signIn(client, signer ?? authenticator, tampering: tampering)
                    .expectFailure(.unauthorized, "PASSKEY_INVALID", "Passkey not recognised")
                let after = try await server.withDatabase { db in
                    (try await db.count("sessions"), try await db.count("passkeys", where: "last_used_at IS NULL"))
                }
                #expect(after == before)
            }
            var t = SoftwarePasskeyAuthenticator.Tampering()
            t.origin = "https://evil.test"
            try await refused(t)
            t = .init()
            t.rpId = "evil.test"
            try await refused(t)
            t = .init()
            t.userVerified = false
            try await refused(t)
            t = .init()
            t.breakSignature = true
            try await refused(t)
            t = .init()
            t.type = "webauthn.create"
            try await refused(t)
            t = .init()
            t.userHandle = RandomToken.base64URL(byteCount: 32)
            try await refused(t)
            // An authenticator whose passkey was never enrolled (an unknown credential).
            let stranger = SoftwarePasskeyAuthenticator(origin: Self.site)
            _ = try await stranger.createPasskey(
                Self.decode(try await client.send(.post, "/api/auth/passkeys/register/options", json: "{}", bearer: token),
                    as: PasskeyRegistrationOptions.self).publicKey)
            try await refused(.init(), by: stranger)

            // The counter: forward signs in, backwards (a clone) does not, and nothing moves.
            #expect(try await Self.signIn(client, authenticator).status == .ok)
            let count = try #require(authenticator.credentials.first?.signCount)
            t = .init()
            t.signCount = count
            try await refused(t)
            t.signCount = count - 1
            try await refused(t)
            #expect(try await Self.signIn(client, authenticator).status == .ok)

            // A challenge is used once, and lives 5 minutes.
            let options = try Self.decode(
                try await client.send(.post, "/api/auth/passkeys/login/options", json: "{}"), as: PasskeyLoginOptions.self)
            let assertion = try await authenticator.signIn(options.publicKey)
            let body = try Self.json(PasskeyLoginRequest(challengeId: options.challengeId, credential: assertion))
            #expect(try await client.send(.post, "/api/auth/passkeys/login/verify", json: body).status == .ok)
            try await client.send(.post, "/api/auth/passkeys/login/verify", json: body)
                .expectFailure(.unauthorized, "PASSKEY_INVALID", "Passkey not recognised")
            let late = try Self.decode(
                try await client.send(.post, "/api/auth/passkeys/login/options", json: "{}"), as: PasskeyLoginOptions.self)
            let lateAssertion = try await authenticator.signIn(late.publicKey)
            server.clock.advance(by: 301)
            try await client.send(
                .post, "/api/auth/passkeys/login/verify",
                json: try Self.json(PasskeyLoginRequest(challengeId: late.challengeId, credential: lateAssertion))
            ).expectFailure(.unauthorized, "PASSKEY_INVALID", "Passkey not recognised")
        }
    }

    /// One challenge, many concurrent answers: exactly one signs in.
    @Test func aChallengeSignsInOnceUnderARace() async throws {
        let server = try await Self.server()
        try await server.run(.live) { client in
            let token = try #require(try await client.signIn().string("token"))
            let authenticator = SoftwarePasskeyAuthenticator(origin: Self.site)
            #expect(try await Self.enrol(client, token: token, authenticator).status == .created)
            let options = try Self.decode(
                try await client.send(.post, "/api/auth/passkeys/login/options", json: "{}"), as: PasskeyLoginOptions.self)
            let body = try Self.json(
                PasskeyLoginRequest(challengeId: options.challengeId, credential: try await authenticator.signIn(options.publicKey)))
            let statuses = try await race(8) { try await client.send(.post, "/api/auth/passkeys/login/verify", json: body).status }
            #expect(statuses.filter { $0 == .ok }.count == 1)
            #expect(statuses.filter { $0 == .unauthorized }.count == 7)
        }
    }

    /// Passkey sign-in is a sign-in route: the per-IP limit counts its options and its answers.
    @Test func signInIsCountedByThePerIPLimit() async throws {
        let server = try await TestServer {
            $0.publicURL = Self.site
            $0.ipRateLimit = 3
        }
        try await server.run { client in
            for _ in 1...3 { #expect(try await client.send(.post, "/api/auth/passkeys/login/options", json: "{}").status == .ok) }
            let limited = try await client.send(
                .post, "/api/auth/passkeys/login/verify", json: try Self.json(PasskeyLoginRequest.example))
            limited.expectFailure(.tooManyRequests, "RATE_LIMITED")
            #expect(limited.headers[.retryAfter] != nil)
        }
    }

    @Test func inactiveAndArchivedUsersCannotSignInWithAPasskey() async throws {
        let server = try await Self.server()
        try await server.run { client in
            let token = try #require(try await client.signIn().string("token"))
            let authenticator = SoftwarePasskeyAuthenticator(origin: Self.site)
            #expect(try await Self.enrol(client, token: token, authenticator).status == .created)
            try await server.withDatabase { database in
                try await database.withConnection { db in
                    try await db.raw("UPDATE users SET is_active = 0 WHERE email = \(bind: DemoFixtures.adminEmail)").run()
                }
            }
            try await Self.signIn(client, authenticator).expectFailure(.unauthorized, "ACCOUNT_DEACTIVATED")
            try await server.withDatabase { database in
                try await database.withConnection { db in
                    try await db.raw("UPDATE users SET is_active = 1, archived = 1 WHERE email = \(bind: DemoFixtures.adminEmail)").run()
                }
            }
            try await Self.signIn(client, authenticator).expectFailure(.unauthorized, "ACCOUNT_ARCHIVED")
        }
    }

    /// python-fido2, a WebAuthn library we did not write, reads our options and builds the
    /// authenticator's answers (ES256, EdDSA, RS256); its own relying party accepts them, and so
    /// must ours (`.ci/webauthn-check.py`).
    @Test(.enabled(if: PythonScript.canImport("fido2, cryptography"), "needs python-fido2: python3 -m pip install fido2"))
    func pythonFido2EnrolsAndSignsIn() async throws {
        let server = try await Self.server()
        try await server.run(.live) { client in
            let port = try #require(client.client.port)
            let token = try #require(try await client.signIn().string("token"))
            let verdict = try await PythonScript.verdict("webauthn-check.py", ["http://127.0.0.1:\(port)", token, Self.site])
            #expect(verdict == nil, "\(verdict ?? "")")
        }
    }

    @Test func appleAppSiteAssociationVouchesForTheApps() async throws {
        let server = try await TestServer { $0.appleAppIds = ["ABCDE12345.com.repairminder.app"] }
        try await server.run { client in
            let reply = try await client.send(.get, "/.well-known/apple-app-site-association")
            #expect(reply.status == .ok)
            #expect(reply.headers[.contentType] == "application/json")
            #expect(reply.json["webcredentials"] as? [String: [String]] == ["apps": ["ABCDE12345.com.repairminder.app"]])
            let details = (reply.json["applinks"] as? [String: Any])?["details"] as? [[String: Any]]
            #expect(details?.first?["appIDs"] as? [String] == ["ABCDE12345.com.repairminder.app"])
            #expect(details?.first?["components"] as? [[String: String]] == [["/": "/reset-password"], ["/": "/invite"], ["/": "/portal"]])
        }
    }

    @Test func settingsRefuseWhatBrowsersWould() throws {
        var settings = ServerSettings()
        settings.publicURL = "https://repairminder.example.com"
        #expect(settings.relyingPartyID == "repairminder.example.com")
        #expect(settings.relyingPartyOrigins == ["https://repairminder.example.com"])
        settings.webauthnRPID = "example.com"
        settings.webauthnOrigins = ["https://app.example.com", "https://example.com"]
        try settings.validateWebAuthn()
        // Origins as browsers write them: lowercase, no default port, no trailing slash.
        settings.webauthnOrigins = ["HTTPS://App.Example.com:443/", "http://example.com:8080"]
        #expect(settings.relyingPartyOrigins == ["https://app.example.com", "http://example.com:8080"])
        settings.webauthnRPID = "Example.COM"
        #expect(settings.relyingPartyID == "example.com")
        try settings.validateWebAuthn()
        settings.webauthnOrigins = ["https://example.org"]
        #expect(throws: SettingsError("--webauthn-origins: https://example.org is not on the relying party id's domain example.com (--webauthn-rp-id)")) {
            try settings.validateWebAuthn()
        }
        settings.webauthnOrigins = ["https://example.com/login"]
        #expect(throws: SettingsError("--webauthn-origins: \"https://example.com/login\" is not an origin like https://repairminder.example.com")) {
            try settings.validateWebAuthn()
        }
        settings.webauthnOrigins = []
        settings.webauthnRPID = "10.0.0.5"
        settings.publicURL = "https://10.0.0.5"
        try settings.validateWebAuthn()  // development allows it
        settings.environment = .production
        #expect(throws: SettingsError("--webauthn-rp-id must be a domain name with --env production, not the IP address 10.0.0.5")) {
            try settings.validateWebAuthn()
        }
        settings.webauthnRPID = "example.com:443"
        #expect(throws: SettingsError("--webauthn-rp-id must be a domain name, like repairminder.example.com, not \"example.com:443\"")) {
            try settings.validateWebAuthn()
        }
        settings.webauthnRPID = nil
        settings.publicURL = "https://repairminder.example.com"
        settings.appleAppIds = ["com.repairminder.app"]
        #expect(throws: SettingsError("--apple-app-ids: \"com.repairminder.app\" is not TEAMID.bundle.id (a 10-character team id, like ABCDE12345.com.example.app)")) {
            try settings.validateWebAuthn()
        }
    }
}
