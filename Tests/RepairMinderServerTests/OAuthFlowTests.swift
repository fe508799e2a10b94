import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import RepairMinderModels
import SQLKit
import Testing
import _CryptoExtras

@testable import RepairMinderServer

/// The OpenID Connect provider end to end (docs/API.md §16.2–§16.6), over the same in-process
/// transport as the console's tests: a browser signs in and allows an app, the app exchanges the
/// code with PKCE, reads UserInfo, refreshes, revokes; and each refusal the issue names.
@Suite struct OAuthFlowTests {
    static let callback = "https://bookings.acme.test/callback"

    /// A PKCE verifier and its S256 challenge.
    static func pkce() -> (verifier: String, challenge: String) {
        let verifier = Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64URLEncoded()
        return (verifier, Data(SHA256.hash(data: Data(verifier.utf8))).base64URLEncoded())
    }

    /// An app of Acme registered by its admin: its client id and secret (nil for a public one).
    static func registerApp(
        _ client: TestClient, type: String = "confidential", scopes: [String] = ["openid", "profile", "email", "offline_access", "repairminder", "clients:read"],
        postLogout: [String] = ["https://bookings.acme.test/bye"]
    ) async throws -> (id: String, secret: String?) {
        let admin = try await TeamTests.token(client)
        let body: [String: Any] = [
            "name": "Acme bookings", "type": type, "redirectUris": [callback, "http://127.0.0.1/native"],
            "postLogoutRedirectUris": postLogout, "scopes": scopes,
        ]
        let made = try await OAuthAppTests.register(client, admin, body)
        #expect(made.status == .created)
        return (try #require(made.string("clientId")), made.string("clientSecret"))
    }

    static func authorizePath(
        clientId: String, challenge: String?, scope: String = "openid profile email offline_access", redirect: String = callback,
        extra: [String: String] = [:]
    ) -> String {
        var items = [
            ("response_type", "code"), ("client_id", clientId), ("redirect_uri", redirect), ("scope", scope), ("state", "s-1"),
            ("nonce", "n-1"),
        ]
        if let challenge { items += [("code_challenge", challenge), ("code_challenge_method", "S256")] }
        for (name, value) in extra.sorted(by: { $0.key < $1.key }) {
            items.removeAll { $0.0 == name }
            items.append((name, value))
        }
        return "/oauth/authorize?" + items.map { "\($0.0)=\(ConsoleBrowser.encoded([$0.0: $0.1]).dropFirst($0.0.count + 1))" }.joined(separator: "&")
    }

    /// The query parameters of a redirect to the app.
    static func query(_ location: String?) throws -> [String: String] {
        let components = try #require(location.flatMap(URLComponents.init(string:)))
        return Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }) { first, _ in first }
    }

    /// Posts a form to an OAuth endpoint, with HTTP Basic client credentials when `basic` is given.
    static func form(
        _ client: TestClient, _ path: String, _ fields: [String: String], basic: (String, String)? = nil, bearer: String? = nil
    ) async throws -> Reply {
        var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
        if let (id, secret) = basic { headers[.authorization] = "Basic " + Data("\(id):\(secret)".utf8).base64EncodedString() }
        if let bearer { headers[.authorization] = "Bearer " + bearer }
        return try await client.client.execute(
            uri: path, method: .post, headers: headers, body: ByteBuffer(string: ConsoleBrowser.encoded(fields))
        ) { response in
            let json = (try? JSONSerialization.jsonObject(with: Data(buffer: response.body))) as? [String: any Sendable] ?? [:]
            return Reply(status: response.status, headers: response.headers, json: json)
        }
    }

    /// A browser signed in as `email` that has been through the authorization of `path` and
    /// allowed it: the redirect's query.
    static func authorize(_ browser: ConsoleBrowser, _ path: String, allow: Bool = true) async throws -> [String: String] {
        var page = try await browser.get(path)
        if page.status == .ok, let fields = page.form("consent-form") {
            var decision = fields
            decision["decision"] = allow ? "allow" : "deny"
            page = try await browser.post("/oauth/authorize/decision", decision, csrf: false)
        }
        #expect(page.status == .seeOther, "\(page.problem ?? page.html.prefix(300).description)")
        return try query(page.location)
    }

    /// `browser`'s person signs in to the app (allowing it when asked) and the app exchanges
    /// the code: the token endpoint's answer.
    static func signIn(
        _ client: TestClient, _ browser: ConsoleBrowser, clientId: String, secret: String?,
        scope: String = "openid profile email offline_access", extra: [String: String] = [:]
    ) async throws -> Reply {
        let (verifier, challenge) = pkce()
        let code = try #require(try await authorize(browser, authorizePath(clientId: clientId, challenge: challenge, scope: scope, extra: extra))["code"])
        return try await form(
            client, "/oauth/token", ["grant_type": "authorization_code", "code": code, "redirect_uri": callback, "code_verifier": verifier],
            basic: secret.map { (clientId, $0) })
    }

    /// The claims of a JWT whose RS256 signature the server's JWKS verifies.
    static func verifiedIDToken(_ client: TestClient, _ token: String) async throws -> [String: Any] {
        let parts = token.split(separator: ".").map(String.init)
        try #require(parts.count == 3)
        let headerBytes = try #require(Data(base64URLEncoded: parts[0])), payload = try #require(Data(base64URLEncoded: parts[1]))
        let header = try #require(try JSONSerialization.jsonObject(with: headerBytes) as? [String: Any])
        #expect(header["alg"] as? String == "RS256")
        let keys = try #require(try await client.send(.get, "/.well-known/jwks.json").json["keys"] as? [[String: Any]])
        let key = try #require(keys.first { $0["kid"] as? String == header["kid"] as? String })
        let n = try #require((key["n"] as? String).flatMap { Data(base64URLEncoded: $0) })
        let e = try #require((key["e"] as? String).flatMap { Data(base64URLEncoded: $0) })
        let publicKey = try _RSA.Signing.PublicKey(n: n, e: e)
        let signatureBytes = try #require(Data(base64URLEncoded: parts[2]))
        let signature = _RSA.Signing.RSASignature(rawRepresentation: signatureBytes)
        #expect(publicKey.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8), padding: .insecurePKCS1v1_5))
        return try #require(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
    }

    @Test func aWebAppSignsAStaffMemberInAndKeepsTheSessionFresh() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let (clientId, secret) = try await Self.registerApp(client)
            let clientSecret = try #require(secret)
            let (verifier, challenge) = Self.pkce()
            let path = Self.authorizePath(clientId: clientId, challenge: challenge)
            let browser = ConsoleBrowser(client)

            // Not signed in: to the console's sign-in, which comes back to the request (and
            // takes the app's login_hint as the address to fill in).
            let hinted = ConsoleBrowser(client)
            _ = try await hinted.get(Self.authorizePath(clientId: clientId, challenge: challenge, extra: ["login_hint": "ada@acme.test"]))
            #expect(try await hinted.get("/console/sign-in?notice=app-sign-in").html.contains(#"value="ada@acme.test""#))
            let toSignIn = try await browser.get(path)
            #expect(toSignIn.status == .seeOther && toSignIn.location == "/console/sign-in?notice=app-sign-in")
            #expect(try await browser.get("/console/sign-in?notice=app-sign-in").notice == "Sign in to Repair Minder to continue to the app.")
            let signedIn = try await browser.signIn(follow: false)
            // (The same parameters, in another order.)
            #expect(try Self.query("https://x.test" + (signedIn.location ?? "")) == Self.query("https://x.test" + path))
            #expect(signedIn.location?.hasPrefix("/oauth/authorize?") == true)
            #expect(browser.cookies[ConsoleCookies.signIn] == browser.sessionToken)
            // The consent page names the app and what it asks.
            let consent = try await browser.get(path)
            #expect(consent.status == .ok && consent.heading == "Allow Acme bookings?")
            #expect(consent.html.contains("See your email address") && consent.headers[.contentSecurityPolicy]?.contains("form-action 'self' https://bookings.acme.test") == true)
            let answer = try await Self.authorize(browser, path)
            #expect(answer["state"] == "s-1" && answer["iss"] == server.settings.serverURL)
            let code = try #require(answer["code"])

            let tokens = try await Self.form(
                client, "/oauth/token", ["grant_type": "authorization_code", "code": code, "redirect_uri": Self.callback, "code_verifier": verifier],
                basic: (clientId, clientSecret))
            #expect(tokens.status == .ok, "\(tokens.json)")
            #expect(tokens.headers[.cacheControl] == "no-store")
            #expect(tokens.json["token_type"] as? String == "Bearer" && tokens.json["scope"] as? String == "openid profile email offline_access")
            let access = try #require(tokens.json["access_token"] as? String)
            let refresh = try #require(tokens.json["refresh_token"] as? String)
            let id = try await Self.verifiedIDToken(client, try #require(tokens.json["id_token"] as? String))
            #expect(id["iss"] as? String == server.settings.serverURL && id["aud"] as? String == clientId && id["azp"] as? String == clientId)
            #expect(id["nonce"] as? String == "n-1" && id["email"] as? String == DemoFixtures.adminEmail && id["email_verified"] as? Bool == true)
            #expect(id["name"] as? String == "Ada Admin" && id["sid"] is String && id["auth_time"] is Int && id["amr"] is [String])
            #expect(id["https://repairminder.app/company"] == nil)

            // The access token is the app's: UserInfo takes it, the API does not.
            let info = try await client.send(.get, "/oauth/userinfo", bearer: access)
            #expect(info.status == .ok && info.json["sub"] as? String == id["sub"] as? String && info.json["email"] as? String == DemoFixtures.adminEmail)
            try await client.send(.get, "/api/auth/me", bearer: access).expectFailure(.unauthorized, "UNAUTHORIZED")

            // The same person again: no consent page, a code at once.
            let again = Self.pkce()
            let second = try await Self.authorize(browser, Self.authorizePath(clientId: clientId, challenge: again.challenge, extra: ["prompt": "none"]))
            #expect(second["code"] != nil)

            // Refresh rotates; the spent token presented again, past the retry grace, ends the session.
            let refreshed = try await Self.form(client, "/oauth/token", ["grant_type": "refresh_token", "refresh_token": refresh], basic: (clientId, clientSecret))
            #expect(refreshed.status == .ok && refreshed.json["refresh_token"] as? String != refresh && refreshed.json["id_token"] is String)
            // A spent refresh token is no longer active (RFC 7662); its successor is.
            func introspect(_ token: String?) async throws -> Bool? {
                try await Self.form(client, "/oauth/introspect", ["token": try #require(token)], basic: (clientId, clientSecret)).json["active"] as? Bool
            }
            #expect(try await introspect(refresh) == false)
            #expect(try await introspect(refreshed.json["refresh_token"] as? String) == true)
            server.clock.advance(by: Double(server.settings.refreshReuseGrace) + 1)
            let replay = try await Self.form(client, "/oauth/token", ["grant_type": "refresh_token", "refresh_token": refresh], basic: (clientId, clientSecret))
            #expect(replay.status == .badRequest && replay.json["error"] as? String == "invalid_grant")
            let next = try #require(refreshed.json["refresh_token"] as? String)
            #expect(try await Self.form(client, "/oauth/token", ["grant_type": "refresh_token", "refresh_token": next], basic: (clientId, clientSecret)).status == .badRequest)
            #expect(try await client.send(.get, "/oauth/userinfo", bearer: access).status == .unauthorized)
        }
    }

    @Test func aCodeIsSpentOnceAndItsReplayRevokesWhatItGave() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let (clientId, secret) = try await Self.registerApp(client)
            let clientSecret = try #require(secret)
            let browser = try await ConsoleBrowser.signedIn(client)
            let (verifier, challenge) = Self.pkce()
            let code = try #require(try await Self.authorize(browser, Self.authorizePath(clientId: clientId, challenge: challenge))["code"])
            let exchange = ["grant_type": "authorization_code", "code": code, "redirect_uri": Self.callback, "code_verifier": verifier]
            let first = try await Self.form(client, "/oauth/token", exchange, basic: (clientId, clientSecret))
            let access = try #require(first.json["access_token"] as? String), refresh = try #require(first.json["refresh_token"] as? String)
            let second = try await Self.form(client, "/oauth/token", exchange, basic: (clientId, clientSecret))
            #expect(second.status == .badRequest && second.json["error"] as? String == "invalid_grant")
            // What the first exchange gave no longer works.
            #expect(try await client.send(.get, "/oauth/userinfo", bearer: access).status == .unauthorized)
            let refreshed = try await Self.form(client, "/oauth/token", ["grant_type": "refresh_token", "refresh_token": refresh], basic: (clientId, clientSecret))
            #expect(refreshed.json["error"] as? String == "invalid_grant")

            // A wrong verifier, another app's code, an expired code: each refused, each code spent.
            func freshCode() async throws -> (String, String) {
                let (v, c) = Self.pkce()
                return (try #require(try await Self.authorize(browser, Self.authorizePath(clientId: clientId, challenge: c))["code"]), v)
            }
            let (wrongVerifierCode, _) = try await freshCode()
            let wrong = try await Self.form(
                client, "/oauth/token",
                ["grant_type": "authorization_code", "code": wrongVerifierCode, "redirect_uri": Self.callback, "code_verifier": Self.pkce().verifier],
                basic: (clientId, clientSecret))
            #expect(wrong.json["error"] as? String == "invalid_grant" && (wrong.json["error_description"] as? String)?.contains("code_verifier") == true)
            let (other, _) = try await Self.registerApp(client, type: "public")
            let (foreignCode, foreignVerifier) = try await freshCode()
            let foreign = try await Self.form(
                client, "/oauth/token",
                ["grant_type": "authorization_code", "code": foreignCode, "redirect_uri": Self.callback, "code_verifier": foreignVerifier, "client_id": other])
            #expect(foreign.json["error"] as? String == "invalid_grant" && (foreign.json["error_description"] as? String)?.contains("another app") == true)
            let (lateCode, lateVerifier) = try await freshCode()
            server.clock.advance(by: 61)
            let late = try await Self.form(
                client, "/oauth/token",
                ["grant_type": "authorization_code", "code": lateCode, "redirect_uri": Self.callback, "code_verifier": lateVerifier],
                basic: (clientId, clientSecret))
            #expect(late.json["error"] as? String == "invalid_grant")
            // A public app sending a secret, and a body that is not a form: refused, nothing spent.
            let withSecret = try await Self.form(
                client, "/oauth/token", ["grant_type": "refresh_token", "refresh_token": "x", "client_id": other, "client_secret": "rmsec_x"])
            #expect(withSecret.status == .unauthorized && withSecret.json["error"] as? String == "invalid_client")
            let json = try await client.send(.post, "/oauth/token", json: #"{"grant_type":"authorization_code"}"#)
            #expect(json.status == .badRequest && json.json["error"] as? String == "invalid_request")
            // A wrong secret, and no credentials: 401 invalid_client with WWW-Authenticate.
            let badClient = try await Self.form(client, "/oauth/token", exchange, basic: (clientId, "rmsec_wrong"))
            #expect(badClient.status == .unauthorized && badClient.json["error"] as? String == "invalid_client")
            #expect(badClient.headers[.wwwAuthenticate]?.hasPrefix("Basic") == true)
        }
    }

    /// Two exchanges of one code at once, as a thief racing the app would: one wins, and the
    /// other's refusal revokes what the winner got.
    @Test func aCodeRacedTwiceGivesOneSessionAtMostAndThenNone() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let (clientId, secret) = try await Self.registerApp(client)
            let clientSecret = try #require(secret)
            let browser = try await ConsoleBrowser.signedIn(client)
            let (verifier, challenge) = Self.pkce()
            let code = try #require(try await Self.authorize(browser, Self.authorizePath(clientId: clientId, challenge: challenge))["code"])
            let exchange = ["grant_type": "authorization_code", "code": code, "redirect_uri": Self.callback, "code_verifier": verifier]
            let replies = try await withThrowingTaskGroup(of: Reply.self) { group in
                for _ in 0..<8 { group.addTask { try await Self.form(client, "/oauth/token", exchange, basic: (clientId, clientSecret)) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let won = replies.filter { $0.status == .ok }
            #expect(won.count <= 1 && replies.count == 8)
            #expect(replies.filter { $0.json["error"] as? String == "invalid_grant" }.count == 8 - won.count)
            // Whichever won, a loser came after it and revoked its session.
            for reply in won {
                let access = try #require(reply.json["access_token"] as? String)
                #expect(try await client.send(.get, "/oauth/userinfo", bearer: access).status == .unauthorized)
            }
            let live = try await server.withDatabase { db in
                try await db.withConnection { conn in
                    try await conn.raw("SELECT COUNT(*) AS n FROM oauth_sessions WHERE revoked_at IS NULL").first(decodingColumn: "n", as: Int.self)
                }
            }
            #expect(live == 0)
        }
    }

    @Test func requestsThatCannotBeSentBackAndThoseThatAre() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let (clientId, _) = try await Self.registerApp(client)
            let browser = try await ConsoleBrowser.signedIn(client)
            let (_, challenge) = Self.pkce()
            // Before the redirect URI is known good: a page, never a redirect.
            for redirect in [Self.callback + "/", "https://bookings.acme.test:8443/callback", Self.callback + "?x=1", "https://evil.test/callback"] {
                let page = try await browser.get(Self.authorizePath(clientId: clientId, challenge: challenge, redirect: redirect))
                #expect(page.status == .badRequest && page.location == nil, "\(redirect)")
            }
            #expect(try await browser.get(Self.authorizePath(clientId: "rmapp_nobody", challenge: challenge)).status == .badRequest)
            // A native app's loopback URI matches on any port.
            let native = try await Self.authorize(
                browser, Self.authorizePath(clientId: clientId, challenge: challenge, redirect: "http://127.0.0.1:53124/native"))
            #expect(native["code"] != nil)
            // After: an error back to the app, with state and iss.
            let missing = try await browser.get(Self.authorizePath(clientId: clientId, challenge: nil))
            #expect(try Self.query(missing.location)["error"] == "invalid_request")
            let plain = try await browser.get(Self.authorizePath(clientId: clientId, challenge: challenge, extra: ["code_challenge_method": "plain"]))
            let refused = try Self.query(plain.location)
            #expect(refused["error"] == "invalid_request" && refused["state"] == "s-1" && refused["iss"] == server.settings.serverURL)
            let scope = try await browser.get(Self.authorizePath(clientId: clientId, challenge: challenge, scope: "openid clients:write"))
            #expect(try Self.query(scope.location)["error"] == "invalid_scope")
            let denied = try await Self.authorize(
                browser, Self.authorizePath(clientId: clientId, challenge: challenge, extra: ["prompt": "consent"]), allow: false)
            #expect(denied["error"] == "access_denied" && denied["code"] == nil)

            // prompt=none without a session: login_required.
            let stranger = ConsoleBrowser(client)
            let none = try await stranger.get(Self.authorizePath(clientId: clientId, challenge: challenge, extra: ["prompt": "none"]))
            #expect(try Self.query(none.location)["error"] == "login_required")
            // A suspended shop's staff cannot sign in to an app, even one of the platform's.
            let platform = try await PlatformAdminTests.platformAdmin(client)
            let dashboard = try await OAuthAppTests.register(
                client, platform, ["name": "Dashboard", "type": "public", "redirectUris": [Self.callback], "scopes": ["openid"]],
                path: OAuthAppTests.platformPath)
            let dashboardId = try #require(dashboard.string("clientId"))
            let suspended = try await ConsoleBrowser.signedIn(client, "owner@suspended.test", "suspended password")
            let quarantined = try await suspended.get(Self.authorizePath(clientId: dashboardId, challenge: challenge, scope: "openid"))
            let answer = try Self.query(quarantined.location)
            #expect(answer["error"] == "access_denied" && answer["error_description"]?.contains("not active") == true)
            // An engineer's role has no clients:read.
            let engineer = try await ConsoleBrowser.signedIn(client, DemoFixtures.engineerEmail, DemoFixtures.engineerPassword)
            let beyond = try await engineer.get(Self.authorizePath(clientId: clientId, challenge: challenge, scope: "openid clients:read"))
            #expect(try Self.query(beyond.location)["error"] == "invalid_scope")
        }
    }

    /// `prompt=login` asks for a fresh sign-in, whose time the ID token's `auth_time` carries;
    /// the session the browser had is not ended by it (another site could send a browser there).
    @Test func promptLoginAsksForAFreshSignInWithoutEndingTheOldOne() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let (clientId, secret) = try await Self.registerApp(client)
            let browser = try await ConsoleBrowser.signedIn(client)
            let old = try #require(browser.sessionToken)
            let first = try await Self.signIn(client, browser, clientId: clientId, secret: secret)
            let firstToken = try #require(first.json["id_token"] as? String)
            let firstAuth = try #require(try await Self.verifiedIDToken(client, firstToken)["auth_time"] as? Int)
            server.clock.advance(by: 120)
            let (verifier, challenge) = Self.pkce()
            let asked = try await browser.get(Self.authorizePath(clientId: clientId, challenge: challenge, extra: ["prompt": "login"]))
            #expect(asked.location == "/console/sign-in?notice=app-sign-in")
            #expect(try await browser.get("/console/account").status == .ok, "the old session still works")
            let signedIn = try await browser.signIn(follow: false)
            #expect(browser.sessionToken != old)
            let back = try #require(signedIn.location)
            #expect(back.hasPrefix("/oauth/authorize?") && !back.contains("prompt"))
            let code = try #require(try await Self.authorize(browser, back)["code"])
            let tokens = try await Self.form(
                client, "/oauth/token", ["grant_type": "authorization_code", "code": code, "redirect_uri": Self.callback, "code_verifier": verifier],
                basic: (clientId, try #require(secret)))
            let idToken = try #require(tokens.json["id_token"] as? String)
            let auth = try #require(try await Self.verifiedIDToken(client, idToken)["auth_time"] as? Int)
            #expect(auth >= firstAuth + 120)
        }
    }

    /// Deleting one's account (docs/API.md §9.5) ends what apps were given and forgets the consents.
    @Test func aDeletedAccountsAppSessionsEnd() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let (clientId, secret) = try await Self.registerApp(client, scopes: ["openid", "offline_access"])
            let browser = try await ConsoleBrowser.signedIn(client, DemoFixtures.engineerEmail, DemoFixtures.engineerPassword)
            let tokens = try await Self.signIn(client, browser, clientId: clientId, secret: secret, scope: "openid offline_access")
            let engineer = try await TeamTests.token(client, DemoFixtures.engineerEmail, DemoFixtures.engineerPassword)
            let deleted = try await client.send(
                .delete, "/api/auth/me", json: #"{"password":"\#(DemoFixtures.engineerPassword)"}"#, bearer: engineer)
            #expect(deleted.status == .ok)
            #expect(try await client.send(.get, "/oauth/userinfo", bearer: try #require(tokens.json["access_token"] as? String)).status == .unauthorized)
            let refreshed = try await Self.form(
                client, "/oauth/token", ["grant_type": "refresh_token", "refresh_token": try #require(tokens.json["refresh_token"] as? String)],
                basic: (clientId, try #require(secret)))
            #expect(refreshed.json["error"] as? String == "invalid_grant")
            let left = try await server.withDatabase { db in
                try await db.withConnection { try await $0.raw("SELECT COUNT(*) AS n FROM oauth_consents").first(decodingColumn: "n", as: Int.self) }
            }
            #expect(left == 0)
        }
    }

    /// My account → Connected apps (docs/API.md §16.3): what the person allowed, taken back.
    @Test func aPersonTakesBackAnAppAndItsSessionsEnd() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let (clientId, secret) = try await Self.registerApp(client)
            let browser = try await ConsoleBrowser.signedIn(client)
            let tokens = try await Self.signIn(client, browser, clientId: clientId, secret: secret)
            let access = try #require(tokens.json["access_token"] as? String)
            let admin = try await TeamTests.token(client)
            let listed = try TeamTests.list(try await client.send(.get, "/api/auth/apps", bearer: admin))
            #expect(listed.map { $0["clientId"] as? String } == [clientId] && listed.first?["owner"] as? String == "Acme Repairs")
            #expect(listed.first?["scopes"] as? [String] == ["openid", "profile", "email", "offline_access"])
            // Another member allowed nothing; an app never allowed is 404.
            let engineer = try await TeamTests.token(client, DemoFixtures.engineerEmail, DemoFixtures.engineerPassword)
            #expect(try TeamTests.list(try await client.send(.get, "/api/auth/apps", bearer: engineer)).isEmpty)
            try await client.send(.delete, "/api/auth/apps/\(clientId)", bearer: engineer).expectFailure(.notFound, "NOT_FOUND")

            let account = try await browser.get("/console/account")
            #expect(account.html.contains("Acme bookings") && account.html.contains("/console/account/apps/\(clientId)/withdraw"))
            let taken = try await browser.post("/console/account/apps/\(clientId)/withdraw")
            #expect(taken.location == "/console/account?notice=app-withdrawn")
            #expect(try await client.send(.get, "/oauth/userinfo", bearer: access).status == .unauthorized)
            #expect(try TeamTests.list(try await client.send(.get, "/api/auth/apps", bearer: admin)).isEmpty)
            try await client.send(.delete, "/api/auth/apps/\(clientId)", bearer: admin).expectFailure(.notFound, "NOT_FOUND")
            // The next sign-in to it asks again.
            let again = try await browser.get(Self.authorizePath(clientId: clientId, challenge: Self.pkce().challenge))
            #expect(again.status == .ok && again.form("consent-form") != nil)

            // Deleting the app ends what it was given, and its client id signs nobody in.
            let second = try await Self.signIn(client, browser, clientId: clientId, secret: secret)
            let secondAccess = try #require(second.json["access_token"] as? String)
            let appId = try #require(try TeamTests.list(try await client.send(.get, "/api/company/apps", bearer: admin)).first?["id"] as? String)
            #expect(try await client.send(.delete, "/api/company/apps/\(appId)", bearer: admin).status == .ok)
            #expect(try await client.send(.get, "/oauth/userinfo", bearer: secondAccess).status == .unauthorized)
            let gone = try await Self.form(
                client, "/oauth/token", ["grant_type": "refresh_token", "refresh_token": try #require(second.json["refresh_token"] as? String)],
                basic: (clientId, try #require(secret)))
            #expect(gone.status == .unauthorized && gone.json["error"] as? String == "invalid_client")
            #expect(try await browser.get(Self.authorizePath(clientId: clientId, challenge: Self.pkce().challenge)).status == .badRequest)
        }
    }

    /// The purge (docs/operating.md) takes spent codes and the sessions of apps without
    /// `offline_access` once they are older than the retention; a live app session stays.
    @Test func thePurgeTakesDeadCodesAndSessionsThatCouldNeverRefresh() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let (clientId, secret) = try await Self.registerApp(client)
            let browser = try await ConsoleBrowser.signedIn(client)
            for scope in ["openid", "openid offline_access"] {
                #expect(try await Self.signIn(client, browser, clientId: clientId, secret: secret, scope: scope).status == .ok)
            }
            func count(_ table: String) async throws -> Int {
                try await server.withDatabase { db in
                    try await db.withConnection { try await $0.raw("SELECT COUNT(*) AS n FROM \(unsafeRaw: table)").first(decodingColumn: "n", as: Int.self) ?? -1 }
                }
            }
            #expect(try await count("oauth_codes") == 2)
            #expect(try await count("oauth_sessions") == 2)
            server.clock.advance(by: Double(server.settings.purgeRetention) + 120)
            let removed = try await server.withDatabase { db in try await Purge(database: db, settings: server.settings).run(now: server.clock.now) }
            #expect(removed["authorization codes"] == 2 && removed["app sessions without a refresh token"] == 1, "\(removed)")
            #expect(try await count("oauth_codes") == 0)
            #expect(try await count("oauth_sessions") == 1)
        }
    }

    @Test func logoutFollowsOnlyARegisteredAddressWithAValidHint() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let (clientId, secret) = try await Self.registerApp(client)
            let browser = try await ConsoleBrowser.signedIn(client)
            let tokens = try await Self.signIn(client, browser, clientId: clientId, secret: secret)
            let hint = try #require(tokens.json["id_token"] as? String)
            // An address the app did not register is never followed, hint or not.
            let open = try await browser.get("/oauth/logout?id_token_hint=\(hint)&post_logout_redirect_uri=https%3A%2F%2Fevil.test%2F")
            #expect(open.status == .badRequest && open.location == nil)
            // Without a hint: a page to confirm, nothing ended yet.
            let ask = try await browser.get("/oauth/logout")
            #expect(ask.status == .ok && ask.form("logout-form") != nil)
            #expect(try await browser.get("/console/account").status == .ok)
            let out = try await browser.get("/oauth/logout?id_token_hint=\(hint)&post_logout_redirect_uri=https%3A%2F%2Fbookings.acme.test%2Fbye&state=x")
            #expect(out.status == .seeOther && out.location == "https://bookings.acme.test/bye?state=x")
            #expect(try await browser.get("/console/account").location == "/console/sign-in")
        }
    }
}
