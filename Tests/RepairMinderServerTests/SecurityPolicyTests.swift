import ExtrasBase64
import Foundation
import Hummingbird
import HummingbirdTesting
import RepairMinderModels
import TestSupport
import Testing

@testable import RepairMinderServer

/// A shop's security policy, enforced at every token (docs/API.md §13.3), on the engine under
/// test: who meets a required factor, the grace period, restricted sessions and how enrolment
/// lifts them, magic links switched off, tightening and shortened lifetimes.
@Suite struct SecurityPolicyTests {
    static let admin = DemoFixtures.adminEmail
    static let policyPath = "/api/company/security-policy"
    static let day: Double = 86_400

    static func put(_ client: TestClient, _ token: String, _ body: [String: Any]) async throws -> Reply {
        let json = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
        return try await client.send(.put, policyPath, json: json, bearer: token)
    }

    /// The claims of an access token, unverified (the server's own tests check the signature).
    static func claims(_ token: String) throws -> [String: Any] {
        let payload = try #require(token.split(separator: ".").dropFirst().first)
        let data = try #require(Data(base64URLEncoded: payload))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// Enrols an authenticator app for the bearer's user; its secret.
    static func enrolApp(_ client: TestClient, server: TestServer, token: String) async throws -> [UInt8] {
        let setup = try await client.send(.post, "/api/auth/totp/setup", bearer: token)
        #expect(setup.status == .ok)
        let secret = try Base32.decode(string: try #require(setup.string("secret")))
        let enabled = try await client.post("/api/auth/totp/verify-setup", ["code": TOTPTests.code(secret, server.clock.now)], bearer: token)
        #expect(enabled.status == .ok)
        // The code just used is spent for its 30-second step: the next sign-in uses the next one.
        server.clock.advance(by: 30)
        return secret
    }

    /// A member of Acme made through an invitation, with a password: their address and the accept's reply.
    static func member(_ client: TestClient, _ adminToken: String, _ name: String) async throws -> (email: String, accepted: Reply) {
        let email = "\(name)@acme.test"
        #expect(try await InvitationTests.invite(client, adminToken, email: email).status == .created)
        let link = try await InvitationTests.linkToken(client, to: email)
        let accepted = try await client.post("/api/auth/invitations/accept", ["token": link, "password": Self.password])
        #expect(accepted.status == .ok)
        return (email, accepted)
    }

    static let password = "violet kettle 1987 drum"

    /// Moves the test clock past the wall clock: the demo accounts were created by the wall clock,
    /// after the test clock started (much later on a busy PostgreSQL), and a grace period of 0
    /// days counts from their creation.
    static func passTheDemoAccountsCreation(_ server: TestServer) {
        server.clock.advance(by: max(0, Date().timeIntervalSince1970 - server.clock.now) + 1)
    }

    /// How a member signs in: what they enrolled.
    struct Member {
        let email: String
        let app: [UInt8]?
        let passkey: SoftwarePasskeyAuthenticator?
    }

    /// A password sign-in of `member` with the strongest factor step 1 offers; step 1's methods and step 3's reply.
    static func signIn(_ client: TestClient, server: TestServer, _ member: Member) async throws -> (methods: [String], reply: Reply) {
        let login = try await client.post("/api/auth/login", ["email": member.email, "password": Self.password])
        #expect(login.status == .ok)
        let methods = try #require(login.data["methods"] as? [String])
        let userId = try #require(login.string("userId")), challengeToken = try #require(login.string("challengeToken"))
        if methods.contains("passkey"), let authenticator = member.passkey {
            let options = try JSONDecoder().decode(
                PublicKeyCredentialRequestOptionsJSON.self, from: JSONSerialization.data(withJSONObject: try #require(login.data["passkey"])))
            let answer = TwoFactorVerifyRequest(userId: userId, passkey: try await authenticator.signIn(options), challengeToken: challengeToken)
            return (methods, try await client.send(.post, "/api/auth/2fa/verify", json: try PasskeyTests.json(answer)))
        }
        if methods.contains("totp"), let secret = member.app {
            server.clock.advance(by: 30)
            return (methods, try await client.post(
                "/api/auth/2fa/verify", ["userId": userId, "code": TOTPTests.code(secret, server.clock.now), "challengeToken": challengeToken]))
        }
        _ = try await client.post("/api/auth/2fa/request", ["userId": userId, "email": member.email, "challengeToken": challengeToken])
        return (methods, try await client.post(
            "/api/auth/2fa/verify", ["userId": userId, "code": try await client.latestCode(to: member.email), "challengeToken": challengeToken]))
    }

    /// The admin, with a passkey (so that every policy is met by them), and their token.
    static func adminWithPasskey(_ client: TestClient) async throws -> (token: String, passkey: SoftwarePasskeyAuthenticator) {
        let token = try #require(try await client.signIn().string("token"))
        let passkey = SoftwarePasskeyAuthenticator(origin: PasskeyTests.site)
        #expect(try await PasskeyTests.enrol(client, token: token, passkey).status == .created)
        return (token, passkey)
    }

    @Test func theDefaultPolicyChangesNothing() async throws {
        let server = try await PasskeyTests.server()
        try await server.run { client in
            let signedIn = try await client.signIn()
            let token = try #require(signedIn.string("token"))
            #expect(signedIn.data["enrolmentRequired"] == nil)
            #expect(signedIn.data["scope"] == nil)
            #expect(try Self.claims(token)["scope"] == nil)
            let policy = try await client.send(.get, Self.policyPath, bearer: token)
            #expect(policy.status == .ok)
            #expect(policy.string("requiredFactor") == "none")
            #expect(policy.data["allowMagicLink"] as? Bool == true)
            #expect(policy.data["enrolmentGraceDays"] as? Int == 7)
            #expect(policy.data["sessionMaxLifetimeDays"] as? [String: Int] == ["web": 30, "mobile": 365])
            #expect(policy.data.keys.contains("updatedAt") && policy.data["updatedAt"] is NSNull)
            #expect(policy.data["updatedBy"] is NSNull)
            let refreshed = try await client.post("/api/auth/refresh", ["refreshToken": try #require(signedIn.string("refreshToken"))])
            #expect(refreshed.status == .ok)
            #expect(Set(refreshed.data.keys) == ["token", "refreshToken", "expiresIn"])
        }
    }

    /// Each required factor against a member with nothing, the app, a passkey or both: inside the
    /// grace period everyone signs in with full access (those short of it told by when), after it
    /// those short of it are restricted; under `passkey`, a member with both is offered only the
    /// passkey and the app's code is a wrong code.
    @Test(arguments: [RequiredFactor.appOrPasskey, .passkey])
    func eachMemberStandsAsTheirFactorsMeetThePolicy(required: RequiredFactor) async throws {
        let server = try await PasskeyTests.server()
        try await server.run { client in
            let (adminToken, _) = try await Self.adminWithPasskey(client)
            var members: [String: Member] = [:]
            for name in ["nothing", "app", "passkey", "both"] {
                let (email, accepted) = try await Self.member(client, adminToken, name)
                let token = try #require(accepted.string("token"))
                let app = name == "app" || name == "both" ? try await Self.enrolApp(client, server: server, token: token) : nil
                var passkey: SoftwarePasskeyAuthenticator?
                if name == "passkey" || name == "both" {
                    passkey = SoftwarePasskeyAuthenticator(origin: PasskeyTests.site)
                    #expect(try await PasskeyTests.enrol(client, token: token, try #require(passkey)).status == .created)
                }
                members[name] = Member(email: email, app: app, passkey: passkey)
            }
            let changedAt = server.clock.now
            let changed = try await Self.put(client, adminToken, ["requiredFactor": required.rawValue])
            #expect(changed.status == .ok)
            #expect(changed.string("requiredFactor") == required.rawValue)
            let deadline = Timestamp.iso8601(changedAt + 7 * Self.day)
            let meets: Set<String> = required == .passkey ? ["passkey", "both"] : ["app", "passkey", "both"]
            let expectedMethods = required == .passkey ? ["passkey"] : ["totp", "passkey"]

            for afterGrace in [false, true] {
                if afterGrace { server.clock.advance(by: 8 * Self.day) }
                for (name, member) in members.sorted(by: { $0.key < $1.key }) {
                    let context = "\(required.rawValue), \(name), after grace: \(afterGrace)"
                    if required == .passkey, name == "both" {
                        // Offered only the passkey; the app's code is refused as any wrong code.
                        let login = try await client.post("/api/auth/login", ["email": member.email, "password": Self.password])
                        #expect(login.data["methods"] as? [String] == ["passkey"], "\(context)")
                        let userId = try #require(login.string("userId"))
                        let instead = try await client.post("/api/auth/2fa/request", ["userId": userId, "email": member.email])
                        #expect(instead.string("message") == "Use your passkey to finish signing in")
                        server.clock.advance(by: 30)
                        try await client.post(
                            "/api/auth/2fa/verify", ["userId": userId, "code": TOTPTests.code(try #require(member.app), server.clock.now)]
                        ).expectFailure(.unauthorized, "INVALID_CODE", "Invalid verification code")
                    }
                    let (methods, reply) = try await Self.signIn(client, server: server, member)
                    #expect(reply.status == .ok, "\(context)")
                    let token = try #require(reply.string("token"))
                    let requirement = reply.data["enrolmentRequired"] as? [String: Any]
                    if meets.contains(name) {
                        #expect(requirement == nil, "\(context)")
                        #expect(reply.data["scope"] == nil, "\(context)")
                        #expect(!methods.contains("email"), "\(context)")
                    } else {
                        #expect(requirement?["methods"] as? [String] == expectedMethods, "\(context)")
                        #expect(requirement?["deadline"] as? String == deadline, "\(context)")
                        #expect(reply.data["scope"] as? String == (afterGrace ? "enrol" : nil), "\(context)")
                        #expect(try Self.claims(token)["scope"] as? String == (afterGrace ? "enrol" : nil), "\(context)")
                    }
                    let restricted = afterGrace && !meets.contains(name)
                    let policy = try await client.send(.get, Self.policyPath, bearer: token)
                    if restricted {
                        policy.expectFailure(
                            .forbidden, "FACTOR_ENROLMENT_REQUIRED",
                            "Your shop requires an authenticator app or a passkey. Set one up to continue.")
                    } else {
                        #expect(policy.status == .ok, "\(context)")
                    }
                }
            }
        }
    }

    /// A restricted session reaches `me`, `logout`, `refresh` and enrolment's routes, nothing else;
    /// once the member enrols, the next refresh answers a full token, without signing in again.
    @Test func aRestrictedSessionEnrolsAndTheNextRefreshFreesIt() async throws {
        let server = try await PasskeyTests.server()
        try await server.run { client in
            let (adminToken, _) = try await Self.adminWithPasskey(client)
            let (email, _) = try await Self.member(client, adminToken, "late")
            #expect(try await Self.put(client, adminToken, ["requiredFactor": "app_or_passkey", "enrolmentGraceDays": 0]).status == .ok)
            let (_, signedIn) = try await Self.signIn(client, server: server, Member(email: email, app: nil, passkey: nil))
            #expect(signedIn.string("scope") == "enrol")
            let token = try #require(signedIn.string("token"))
            for (method, path) in [
                (HTTPRequest.Method.get, Self.policyPath), (.get, "/api/users/me"), (.get, "/api/auth/sessions"),
                (.get, "/api/auth/passkeys"), (.get, "/api/auth/activity"), (.get, "/api/auth/totp/status"),
                (.post, "/api/auth/logout-others"), (.get, "/api/user/device-tokens"),
            ] {
                let reply = try await client.send(method, path, bearer: token)
                reply.expectFailure(.forbidden, "FACTOR_ENROLMENT_REQUIRED")
            }
            #expect(try await client.send(.get, "/api/auth/me", bearer: token).status == .ok)
            // A restricted session can end itself.
            let (_, another) = try await Self.signIn(client, server: server, Member(email: email, app: nil, passkey: nil))
            let anotherToken = try #require(another.string("token"))
            #expect(try await client.send(.post, "/api/auth/logout", bearer: anotherToken).status == .ok)
            try await client.send(.get, "/api/auth/me", bearer: anotherToken).expectFailure(.unauthorized, "UNAUTHORIZED")
            #expect(try await client.send(.post, "/api/auth/passkeys/register/options", json: "{}", bearer: token).status == .ok)
            let refreshed = try await client.post("/api/auth/refresh", ["refreshToken": try #require(signedIn.string("refreshToken"))])
            #expect(refreshed.string("scope") == "enrol")
            #expect((refreshed.data["enrolmentRequired"] as? [String: Any])?["methods"] as? [String] == ["totp", "passkey"])
            let restrictedToken = try #require(refreshed.string("token"))

            // Enrolling is allowed; the token in hand stays restricted until the refresh.
            _ = try await Self.enrolApp(client, server: server, token: restrictedToken)
            try await client.send(.get, "/api/auth/sessions", bearer: restrictedToken).expectFailure(.forbidden, "FACTOR_ENROLMENT_REQUIRED")
            let freed = try await client.post("/api/auth/refresh", ["refreshToken": try #require(refreshed.string("refreshToken"))])
            #expect(freed.status == .ok)
            #expect(freed.data["scope"] == nil)
            #expect(freed.data["enrolmentRequired"] == nil)
            let fullToken = try #require(freed.string("token"))
            #expect(try Self.claims(fullToken)["scope"] == nil)
            let sessions = try await client.send(.get, "/api/auth/sessions", bearer: fullToken)
            #expect(sessions.status == .ok)
            #expect((sessions.json["data"] as? [Any])?.count == 2)  // the accept's session and this one
            #expect(try await client.send(.post, "/api/auth/logout", bearer: fullToken).status == .ok)
        }
    }

    /// Every issuance path applies the policy: magic link, an accepted invitation, refresh (and
    /// login step 3 above); passkey sign-in meets any policy.
    @Test func everyIssuancePathAppliesThePolicy() async throws {
        let server = try await PasskeyTests.server()
        try await server.run { client in
            let (adminToken, passkey) = try await Self.adminWithPasskey(client)
            let (email, _) = try await Self.member(client, adminToken, "member")
            #expect(try await Self.put(client, adminToken, ["requiredFactor": "passkey", "enrolmentGraceDays": 0]).status == .ok)
            // An invitation accepted now starts restricted.
            let (_, accepted) = try await Self.member(client, adminToken, "newcomer")
            #expect(accepted.string("scope") == "enrol")
            #expect((accepted.data["enrolmentRequired"] as? [String: Any])?["methods"] as? [String] == ["passkey"])
            // A magic link of a member with nothing enrolled.
            #expect(try await client.post("/api/auth/magic-link/request", ["email": email]).status == .ok)
            let magic = try await client.post("/api/auth/magic-link/verify-code", ["email": email, "code": try await client.latestCode(to: email)])
            #expect(magic.status == .ok)
            #expect(magic.string("scope") == "enrol")
            // Passkey sign-in: the admin has one, so nothing is required of them.
            let withPasskey = try await PasskeyTests.signIn(client, passkey)
            #expect(withPasskey.status == .ok)
            #expect(withPasskey.data["enrolmentRequired"] == nil)
            #expect(withPasskey.data["scope"] == nil)
        }
    }

    @Test func magicLinksSwitchedOffSendNothingAndAnEarlierCodeFails() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let adminToken = try #require(try await client.signIn().string("token"))
            let engineer = DemoFixtures.engineerEmail
            #expect(try await client.post("/api/auth/magic-link/request", ["email": engineer]).status == .ok)
            let earlier = try await client.latestCode(to: engineer)
            #expect(try await Self.put(client, adminToken, ["allowMagicLink": false]).data["allowMagicLink"] as? Bool == false)
            let sent = try await client.mail(to: engineer).count
            server.clock.advance(by: 31)
            let request = try await client.post("/api/auth/magic-link/request", ["email": engineer])
            #expect(request.status == .ok)
            #expect(request.string("message") == "Magic link sent")
            #expect(try await client.mail(to: engineer).count == sent)
            try await client.post("/api/auth/magic-link/verify-code", ["email": engineer, "code": earlier])
                .expectFailure(.unauthorized, "INVALID_CODE", "Invalid or expired code")
            // Password sign-in is unaffected, and so are other shops' staff.
            #expect(try await client.signIn(engineer, DemoFixtures.engineerPassword).status == .ok)
            let other = "owner@pending.test"
            let before = try await client.mail(to: other).count
            #expect(try await client.post("/api/auth/magic-link/request", ["email": other]).status == .ok)
            #expect(try await client.mail(to: other).count == before + 1)
        }
    }

    /// A tightening reaches a full token already issued at once on this instance (the bearer
    /// check reads the policy with the shop) and within 5 s on another; its refresh then
    /// answers a restricted token. Customers of the shop are not affected.
    @Test func aTighteningReachesExistingSessionsOnEveryInstance() async throws {
        let server = try await PasskeyTests.server()
        try await server.runTwoInstances { a, b in
            let (adminToken, _) = try await Self.adminWithPasskey(a)
            let engineer = try await a.signIn(DemoFixtures.engineerEmail, DemoFixtures.engineerPassword)
            let token = try #require(engineer.string("token"))
            #expect(try await b.send(.get, "/api/auth/sessions", bearer: token).status == .ok)
            let customer = try #require(try await a.customerSignIn("jane@example.test").string("token"))
            #expect(try await Self.put(a, adminToken, ["requiredFactor": "app_or_passkey", "enrolmentGraceDays": 0]).status == .ok)
            Self.passTheDemoAccountsCreation(server)
            try await a.send(.get, "/api/auth/sessions", bearer: token).expectFailure(.forbidden, "FACTOR_ENROLMENT_REQUIRED")
            try await waitUntil(timeout: .seconds(5)) {
                try await b.send(.get, "/api/auth/sessions", bearer: token).code == "FACTOR_ENROLMENT_REQUIRED"
            }
            let refreshed = try await b.post("/api/auth/refresh", ["refreshToken": try #require(engineer.string("refreshToken"))])
            #expect(refreshed.string("scope") == "enrol")
            #expect(try await b.send(.get, "/api/customer/auth/me", bearer: customer).status == .ok)
        }
    }

    /// A shortened session lifetime ends an older session at its next refresh (and the session
    /// with it); a younger one refreshes, and a new session's refresh token never outlives it.
    @Test func aShortenedLifetimeEndsOlderSessionsAtTheirRefresh() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let older = try await client.signIn(DemoFixtures.engineerEmail, DemoFixtures.engineerPassword)
            server.clock.advance(by: 2 * Self.day)
            let adminToken = try #require(try await client.signIn().string("token"))
            let younger = try await client.signIn(DemoFixtures.engineerEmail, DemoFixtures.engineerPassword)
            let changed = try await Self.put(client, adminToken, ["sessionMaxLifetimeDays": ["web": 1]])
            #expect(changed.data["sessionMaxLifetimeDays"] as? [String: Int] == ["web": 1, "mobile": 365])
            try await client.post("/api/auth/refresh", ["refreshToken": try #require(older.string("refreshToken"))])
                .expectFailure(.unauthorized, "REFRESH_TOKEN_EXPIRED", "Refresh token expired")
            let youngerToken = try #require(younger.string("token"))
            let sessions = try TeamTests.list(try await client.send(.get, "/api/auth/sessions", bearer: youngerToken))
            #expect(sessions.count == 1)
            let refreshed = try await client.post("/api/auth/refresh", ["refreshToken": try #require(younger.string("refreshToken"))])
            #expect(refreshed.status == .ok)
            server.clock.advance(by: Self.day)
            try await client.post("/api/auth/refresh", ["refreshToken": try #require(refreshed.string("refreshToken"))])
                .expectFailure(.unauthorized, "REFRESH_TOKEN_EXPIRED")
        }
    }

    /// Moving from `app_or_passkey` to `passkey` gives a fresh grace period only to whom the
    /// change is new (a member who met the looser rule with the app); a member already past
    /// the first deadline without anything stays restricted. A restricted token grants no permission.
    @Test func aTighteningNeverExtendsADeadline() async throws {
        let server = try await PasskeyTests.server()
        try await server.run { client in
            let (adminToken, passkey) = try await Self.adminWithPasskey(client)
            let (nothing, _) = try await Self.member(client, adminToken, "nothing")
            let (appEmail, appAccepted) = try await Self.member(client, adminToken, "app")
            let secret = try await Self.enrolApp(client, server: server, token: try #require(appAccepted.string("token")))
            #expect(try await Self.put(client, adminToken, ["requiredFactor": "app_or_passkey"]).status == .ok)
            let firstDeadline = server.clock.now + 7 * Self.day
            server.clock.advance(by: 8 * Self.day)
            let admin = try #require(try await PasskeyTests.signIn(client, passkey).string("token"))
            #expect(try await Self.put(client, admin, ["requiredFactor": "passkey"]).status == .ok)
            let secondDeadline = server.clock.now + 7 * Self.day

            let (_, restricted) = try await Self.signIn(client, server: server, Member(email: nothing, app: nil, passkey: nil))
            #expect(restricted.string("scope") == "enrol")
            let requirement = try #require(restricted.data["enrolmentRequired"] as? [String: Any])
            #expect(requirement["deadline"] as? String == Timestamp.iso8601(firstDeadline))
            #expect(try Self.claims(try #require(restricted.string("token")))["permissions"] as? [String] == [])

            let (_, grace) = try await Self.signIn(client, server: server, Member(email: appEmail, app: secret, passkey: nil))
            #expect(grace.data["scope"] == nil)
            #expect((grace.data["enrolmentRequired"] as? [String: Any])?["deadline"] as? String == Timestamp.iso8601(secondDeadline))
            #expect((try Self.claims(try #require(grace.string("token")))["permissions"] as? [String])?.isEmpty == false)
        }
    }

    /// A login challenge a magic link opened ends with the shop's magic links: its second step is
    /// a wrong code once they are switched off.
    @Test func aChallengeAMagicLinkOpenedEndsWithMagicLinks() async throws {
        let server = try await PasskeyTests.server()
        try await server.run { client in
            let (adminToken, _) = try await Self.adminWithPasskey(client)
            let (email, accepted) = try await Self.member(client, adminToken, "linked")
            let secret = try await Self.enrolApp(client, server: server, token: try #require(accepted.string("token")))
            #expect(try await client.post("/api/auth/magic-link/request", ["email": email]).status == .ok)
            let magic = try await client.post("/api/auth/magic-link/verify-code", ["email": email, "code": try await client.latestCode(to: email)])
            #expect(magic.data["requiresTwoFactor"] as? Bool == true)
            #expect(try await Self.put(client, adminToken, ["allowMagicLink": false]).status == .ok)
            server.clock.advance(by: 30)
            let userId = try #require(magic.string("userId")), challengeToken = try #require(magic.string("challengeToken"))
            try await client.post(
                "/api/auth/2fa/verify", ["userId": userId, "code": TOTPTests.code(secret, server.clock.now), "challengeToken": challengeToken]
            ).expectFailure(.unauthorized, "INVALID_CODE")
            // Its password sign-in is unaffected.
            let (_, signedIn) = try await Self.signIn(client, server: server, Member(email: email, app: secret, passkey: nil))
            #expect(signedIn.status == .ok)
        }
    }

    @Test func theSameFactorTwiceIsNotTwoFactors() {
        #expect(AuthenticationMethods.amr([.emailedCode, .emailedCode]) == ["email"])
        #expect(AuthenticationMethods.amr([.password, .emailedCode]) == ["pwd", "email", "mfa"])
        #expect(AuthenticationMethods.amr([.passkey]) == ["swk", "user", "mfa"])
    }

    /// What a shop chose is shown as it applies: never longer than the server's own lifetime.
    @Test func theLifetimesShownAreTheOnesThatApply() {
        var settings = TestServer.defaultSettings()
        settings.sessionMaxLifetimeWeb = 10 * 86_400
        var policy = ShopPolicy.defaults
        policy.sessionMaxWebDays = 20
        policy.sessionMaxMobileDays = 5
        let wire = policy.wire(settings: settings, updatedBy: nil)
        #expect(wire.sessionMaxLifetimeDays == SessionLifetimeDays(web: 10, mobile: 5))
        #expect(policy.sessionMaxLifetime(isMobile: false, settings: settings) == 10 * 86_400)
    }
}
