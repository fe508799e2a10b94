import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import RepairMinderServer

/// REKI's contract under `/auth/*` (docs/API.md §10, seed 002), every row through real HTTP:
/// plain JSON answers, seed 002's error shape for every failure, its messages, and the staff
/// session machinery (rotation, reuse, grace, revocation) on REKI's own tables. The races run
/// in-process (the router transport): the live test client sends one request at a time on
/// one connection, which would never race.
@Suite struct REKITests {
    static let email = "test@example.com"
    static let password = "violet kettle 1987"
    static let newPassword = "amber lantern 2031"

    /// A registered REKI user's tokens.
    private func register(_ client: TestClient, _ email: String = email, userAgent: String = TestClient.browser) async throws -> Reply {
        let reply = try await client.post("/auth/register", ["email": email, "password": Self.password], userAgent: userAgent)
        #expect(reply.status == .created)
        return reply
    }

    private func count(_ server: TestServer, _ table: String, where condition: String = "1 = 1") async throws -> Int {
        try await server.withDatabase { try await $0.count(table, where: condition) }
    }

    // MARK: Register

    @Test func registerAnswersTheUserAndTokensUnenveloped() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            let reply = try await register(client)
            #expect(Set(reply.json.keys) == ["user", "access_token", "refresh_token"])
            let user = try #require(reply.json["user"] as? [String: Any])
            #expect(Set(user.keys) == ["id", "email", "createdAt"])
            #expect(user["email"] as? String == Self.email)
            #expect((user["createdAt"] as? String)?.wholeMatch(of: Self.isoMilliseconds) != nil)
            // The access token carries seed 002's claims and the session.
            let claims = try #require(reply.top("access_token").flatMap(Self.claims))
            // Seed 002's claims, and the registered claims every access token carries (docs/API.md §2.6).
            #expect(Set(claims.keys) == ["email", "sub", "sid", "iat", "exp", "iss", "aud", "jti"])
            #expect(claims["aud"] as? String == "reki")
            #expect(claims["sub"] as? String == user["id"] as? String)
            #expect((claims["exp"] as? Int).map { $0 - (claims["iat"] as? Int ?? 0) } == 900)
            // Stored: a bcrypt hash of the password's digest at the configured cost (4 in tests), and the session.
            let hash = try await server.withDatabase { try await REKIUserStore(database: $0).user(email: Self.email)?.passwordHash }
            #expect(hash?.hasPrefix(PasswordDigest.prefix + "$2b$04$") == true)
            #expect(try await count(server, "reki_sessions") == 1)
            #expect(try await count(server, "reki_refresh_tokens") == 1)
            let me = try await client.send(.get, "/auth/me", bearer: reply.top("access_token"))
            #expect(me.status == .ok)
            #expect(NSDictionary(dictionary: me.json) == NSDictionary(dictionary: user))
        }
    }

    @Test func aTakenEmailIs409AndCreatesNothing() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            _ = try await register(client)
            try await client.post("/auth/register", ["email": "Test@Example.com", "password": "another good password"])
                .expectREKIFailure(.conflict, "Email already exists")
            #expect(try await count(server, "reki_users") == 1)
            #expect(try await count(server, "reki_sessions") == 1)
        }
    }

    @Test(arguments: [
        (["email": "not-an-email", "password": password], "email must be a valid email address"),
        (["email": email, "password": "short"], "Password must be at least 8 characters"),
        (["email": email, "password": "password123"], "This password is too common. Choose another."),
        (["email": email, "password": email], "Password must not be your email address"),
        (["email": email, "password": String(repeating: "é", count: 129)], "Password must be at most 128 characters"),
        (["email": email, "password": String(repeating: "\u{0}", count: 8)], "Password must not contain the NUL character"),
        (["email": email], "password is required"),
    ])
    func badEmailsAndWeakPasswordsAre400WithTheRule(body: [String: String], message: String) async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            try await client.post("/auth/register", body).expectREKIFailure(.badRequest, message)
            #expect(try await count(server, "reki_users") == 0)
        }
    }

    @Test func concurrentRegistrationsOfOneEmailMakeOneUser() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let replies = try await race(8) { try await client.post("/auth/register", ["email": Self.email, "password": Self.password]) }
            #expect(replies.filter { $0.status == .created }.count == 1)
            #expect(replies.filter { $0.status == .conflict }.count == 7)
            #expect(try await count(server, "reki_users") == 1)
            #expect(try await count(server, "reki_sessions") == 1)
        }
    }

    // MARK: Login

    @Test func loginAnswersTokensAndTheUser() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            let registered = try await register(client)
            let reply = try await client.post("/auth/login", ["email": Self.email, "password": Self.password])
            #expect(reply.status == .ok)
            #expect(Set(reply.json.keys) == ["access_token", "refresh_token", "user"])
            #expect(reply.top("refresh_token") != registered.top("refresh_token"))
            #expect(try await count(server, "reki_sessions") == 2)
            #expect(try await client.send(.get, "/auth/me", bearer: reply.top("access_token")).status == .ok)
        }
    }

    /// `DELETE /auth/me`: the password again; then nothing of the account is left, its tokens
    /// are refused and the address registers again.
    @Test func deletingTheAccountLeavesNothing() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            let registered = try await register(client)
            let other = try await client.post("/auth/login", ["email": Self.email, "password": Self.password])
            let token = registered.top("access_token")
            try await client.send(.delete, "/auth/me", json: #"{"password":"wrong"}"#, bearer: token)
                .expectREKIFailure(.unauthorized, "Invalid credentials")
            try await client.send(.delete, "/auth/me", json: "{}", bearer: token).expectREKIFailure(.badRequest, "password is required")
            try await client.send(.delete, "/auth/me", json: #"{"password":"\#(Self.password)"}"#).expectREKIFailure(.unauthorized, "Unauthorized")
            #expect(try await count(server, "reki_users") == 1)

            let deleted = try await client.send(.delete, "/auth/me", json: #"{"password":"\#(Self.password)"}"#, bearer: token)
            #expect(deleted.status == .ok)
            #expect(deleted.json as NSDictionary == ["message": "success"])
            for table in ["reki_users", "reki_sessions", "reki_refresh_tokens"] { #expect(try await count(server, table) == 0, "\(table)") }
            for session in [registered, other] {
                try await client.send(.get, "/auth/me", bearer: session.top("access_token")).expectREKIFailure(.unauthorized, "Unauthorized")
                try await client.post("/auth/refresh", ["refreshToken": session.top("refresh_token") ?? ""])
                    .expectREKIFailure(.unauthorized, "Unauthorized")
            }
            _ = try await register(client)
        }
    }

    @Test func wrongPasswordAndUnknownEmailAnswerTheSame() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            _ = try await register(client)
            try await client.post("/auth/login", ["email": Self.email, "password": "not the password"])
                .expectREKIFailure(.unauthorized, "Invalid credentials")
            try await client.post("/auth/login", ["email": "nobody@example.com", "password": Self.password])
                .expectREKIFailure(.unauthorized, "Invalid credentials")
            #expect(try await count(server, "reki_sessions") == 1)
        }
    }

    /// §7's per-account failure limit, counted apart from a staff account of the same address.
    @Test func failedLoginsRunIntoTheAccountsLimit() async throws {
        let server = try await TestServer { $0.loginFailureLimit = 3 }
        try await server.run(.live) { client in
            _ = try await register(client)
            for _ in 0..<3 {
                try await client.post("/auth/login", ["email": Self.email, "password": "not the password"])
                    .expectREKIFailure(.unauthorized, "Invalid credentials")
            }
            let limited = try await client.post("/auth/login", ["email": Self.email, "password": Self.password])
            limited.expectREKIFailure(.tooManyRequests, "Too many requests")
            #expect(limited.headers[.retryAfter].flatMap(Int.init).map { $0 >= 1 } == true)
            // The staff account of the same address is not affected.
            #expect(try await client.post("/api/auth/login", ["email": DemoFixtures.adminEmail, "password": DemoFixtures.adminPassword]).status == .ok)
        }
    }

    // MARK: Refresh

    @Test func refreshRotatesAndARetryWithinGraceGetsTheSameSuccessor() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            let first = try #require(try await register(client).top("refresh_token"))
            let reply = try await client.post("/auth/refresh", ["refreshToken": first])
            #expect(reply.status == .ok)
            #expect(Set(reply.json.keys) == ["access_token", "refresh_token"])
            let second = try #require(reply.top("refresh_token"))
            #expect(second != first)
            #expect(try await client.send(.get, "/auth/me", bearer: reply.top("access_token")).status == .ok)
            let retried = try await client.post("/auth/refresh", ["refreshToken": first])
            #expect(retried.top("refresh_token") == second)
        }
    }

    @Test func reuseAfterGraceRevokesTheWholeSession() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            let registered = try await register(client)
            let first = try #require(registered.top("refresh_token"))
            let rotated = try await client.post("/auth/refresh", ["refreshToken": first])
            server.clock.advance(by: Double(server.settings.refreshReuseGrace) + 1)
            try await client.post("/auth/refresh", ["refreshToken": first]).expectREKIFailure(.unauthorized, "Unauthorized")
            // The family is gone: the successor and both access tokens.
            try await client.post("/auth/refresh", ["refreshToken": try #require(rotated.top("refresh_token"))])
                .expectREKIFailure(.unauthorized, "Unauthorized")
            try await client.send(.get, "/auth/me", bearer: rotated.top("access_token")).expectREKIFailure(.unauthorized, "Unauthorized")
            try await client.send(.get, "/auth/me", bearer: registered.top("access_token")).expectREKIFailure(.unauthorized, "Unauthorized")
            #expect(try await count(server, "reki_sessions", where: "revoked_reason = 'refresh_token_reuse'") == 1)
        }
    }

    @Test func twentyConcurrentRefreshesYieldOneSuccessor() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let first = try #require(try await register(client).top("refresh_token"))
            let replies = try await race(20) { try await client.post("/auth/refresh", ["refreshToken": first]) }
            #expect(replies.allSatisfy { $0.status == .ok })
            #expect(Set(replies.compactMap { $0.top("refresh_token") }).count == 1)
            #expect(try await count(server, "reki_refresh_tokens", where: "rotated_at IS NULL") == 1)
            #expect(try await count(server, "reki_refresh_tokens") == 2)
        }
    }

    /// Seven days, sliding: a refresh just before the end gets seven more; after them, 401.
    @Test func refreshTokensLiveSevenDaysSliding() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            let week = 7 * 24 * 3600.0
            let first = try #require(try await register(client, userAgent: TestClient.iPhone).top("refresh_token"))
            server.clock.advance(by: week - 1)
            let second = try #require(try await client.post("/auth/refresh", ["refreshToken": first]).top("refresh_token"))
            server.clock.advance(by: week - 1)
            let third = try #require(try await client.post("/auth/refresh", ["refreshToken": second]).top("refresh_token"))
            server.clock.advance(by: week + 1)
            try await client.post("/auth/refresh", ["refreshToken": third]).expectREKIFailure(.unauthorized, "Unauthorized")
        }
    }

    @Test(arguments: ["not-a-token-we-issued", String(repeating: "x", count: 512)])
    func unknownRefreshTokensAre401(token: String) async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            try await client.post("/auth/refresh", ["refreshToken": token]).expectREKIFailure(.unauthorized, "Unauthorized")
        }
    }

    /// Longer than any token issued and than the document allows (`FieldRules.refreshToken`): bad input.
    @Test func anOverlongRefreshTokenIsBadInput() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            try await client.post("/auth/refresh", ["refreshToken": String(repeating: "x", count: 513)])
                .expectREKIFailure(.badRequest, "refreshToken is too long")
        }
    }

    // MARK: Me and logout

    @Test func meRefusesMissingBadAndExpiredTokens() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            let access = try await register(client).top("access_token")
            try await client.send(.get, "/auth/me").expectREKIFailure(.unauthorized, "Unauthorized")
            try await client.send(.get, "/auth/me", bearer: "not.a.jwt").expectREKIFailure(.unauthorized, "Unauthorized")
            try await client.send(.get, "/auth/me", bearer: (access ?? "") + "x").expectREKIFailure(.unauthorized, "Unauthorized")
            server.clock.advance(by: 901)
            try await client.send(.get, "/auth/me", bearer: access).expectREKIFailure(.unauthorized, "Unauthorized")
        }
    }

    @Test func logoutEndsTheSessionsTokensAndNoOther() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            let registered = try await register(client)
            let other = try await client.post("/auth/login", ["email": Self.email, "password": Self.password])
            let reply = try await client.send(.post, "/auth/logout", bearer: registered.top("access_token"))
            #expect(reply.status == .ok)
            #expect(NSDictionary(dictionary: reply.json) == ["message": "success"])
            try await client.send(.get, "/auth/me", bearer: registered.top("access_token")).expectREKIFailure(.unauthorized, "Unauthorized")
            try await client.post("/auth/refresh", ["refreshToken": registered.top("refresh_token") ?? ""])
                .expectREKIFailure(.unauthorized, "Unauthorized")
            try await client.send(.post, "/auth/logout", bearer: registered.top("access_token")).expectREKIFailure(.unauthorized, "Unauthorized")
            #expect(try await client.send(.get, "/auth/me", bearer: other.top("access_token")).status == .ok)
        }
    }

    // MARK: Tokens do not cross

    @Test func tokensDoNotCrossBetweenREKIAndRepairMinder() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            let reki = try #require(try await register(client, DemoFixtures.adminEmail).top("access_token"))
            try await client.send(.get, "/api/auth/me", bearer: reki).expectFailure(.unauthorized, "UNAUTHORIZED")
            try await client.send(.get, "/api/customer/auth/me", bearer: reki).expectFailure(.unauthorized, "UNAUTHORIZED")
            let staff = try #require(try await client.signIn().string("token"))
            try await client.send(.get, "/auth/me", bearer: staff).expectREKIFailure(.unauthorized, "Unauthorized")
            try await client.send(.post, "/auth/logout", bearer: staff).expectREKIFailure(.unauthorized, "Unauthorized")
            let customer = try #require(try await client.customerSignIn("jane@example.test").string("token"))
            try await client.send(.get, "/auth/me", bearer: customer).expectREKIFailure(.unauthorized, "Unauthorized")
        }
    }

    // MARK: Forgot and reset

    @Test(arguments: [email, "nobody@example.com"])
    func forgotAnswersTheSameForEveryAddressAndMailsOnlyUsers(address: String) async throws {
        let server = try await TestServer { $0.publicURL = "https://reki.example" }
        try await server.run(.live) { client in
            _ = try await register(client)
            let reply = try await client.post("/auth/forgot-password", ["email": address])
            #expect(reply.status == .ok)
            #expect(NSDictionary(dictionary: reply.json) == ["message": "If the email exists, a password reset link has been sent"])
            let mails = try await client.mail(to: address)
            #expect(mails.count == (address == Self.email ? 1 : 0))
            guard let mail = mails.first else { return }
            #expect(mail.subject == "Reset your REKI password")
            let token = try #require(Self.resetToken(in: mail.text))
            #expect(mail.text.contains("https://reki.example/reset-password?token=\(token)"))
            // Stored only as its hash.
            #expect(try await count(server, "reki_password_resets", where: "token_hash = '\(token)'") == 0)
            #expect(try await count(server, "reki_password_resets", where: "token_hash = '\(SecretHashing.tokenHash(token))'") == 1)
        }
    }

    @Test func aResetSetsThePasswordAndRevokesEverySession() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            let registered = try await register(client)
            let token = try await requestResetToken(client)
            let reply = try await client.post("/auth/reset-password", ["token": token, "newPassword": Self.newPassword])
            #expect(reply.status == .ok)
            #expect(NSDictionary(dictionary: reply.json) == ["message": "success"])
            try await client.post("/auth/refresh", ["refreshToken": registered.top("refresh_token") ?? ""])
                .expectREKIFailure(.unauthorized, "Unauthorized")
            try await client.send(.get, "/auth/me", bearer: registered.top("access_token")).expectREKIFailure(.unauthorized, "Unauthorized")
            try await client.post("/auth/login", ["email": Self.email, "password": Self.password])
                .expectREKIFailure(.unauthorized, "Invalid credentials")
            #expect(try await client.post("/auth/login", ["email": Self.email, "password": Self.newPassword]).status == .ok)
            // Used once.
            try await client.post("/auth/reset-password", ["token": token, "newPassword": "yet another password"])
                .expectREKIFailure(.badRequest, "Invalid or expired reset token")
        }
    }

    @Test func badExpiredAndSupersededTokensChangeNothing() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            let registered = try await register(client)
            try await client.post("/auth/reset-password", ["token": String(repeating: "a", count: 64), "newPassword": Self.newPassword])
                .expectREKIFailure(.badRequest, "Invalid or expired reset token")
            let older = try await requestResetToken(client)
            let newer = try await requestResetToken(client)
            // A weak password leaves the token usable.
            try await client.post("/auth/reset-password", ["token": newer, "newPassword": "password123"])
                .expectREKIFailure(.badRequest, "This password is too common. Choose another.")
            #expect(try await client.post("/auth/reset-password", ["token": newer, "newPassword": Self.newPassword]).status == .ok)
            // Using one link retires the others.
            try await client.post("/auth/reset-password", ["token": older, "newPassword": "yet another password"])
                .expectREKIFailure(.badRequest, "Invalid or expired reset token")
            let late = try await requestResetToken(client)
            server.clock.advance(by: 3601)
            try await client.post("/auth/reset-password", ["token": late, "newPassword": "yet another password"])
                .expectREKIFailure(.badRequest, "Invalid or expired reset token")
            #expect(try await client.post("/auth/login", ["email": Self.email, "password": Self.newPassword]).status == .ok)
            _ = registered
        }
    }

    @Test func twoResetsWithOneTokenOneWins() async throws {
        let server = try await TestServer()
        try await server.run { client in
            _ = try await register(client)
            let token = try await requestResetToken(client)
            let replies = try await race(6) { [newPassword = Self.newPassword] in
                try await client.post("/auth/reset-password", ["token": token, "newPassword": newPassword])
            }
            #expect(replies.filter { $0.status == .ok }.count == 1)
            for failed in replies where failed.status != .ok {
                failed.expectREKIFailure(.badRequest, "Invalid or expired reset token")
            }
        }
    }

    /// Forgot-password counts against the address's mail budget (§7), known or not.
    @Test func forgotFollowsTheMailLimits() async throws {
        let server = try await TestServer { $0.codeResendInterval = 30 }
        try await server.run(.live) { client in
            _ = try await register(client)
            #expect(try await client.post("/auth/forgot-password", ["email": Self.email]).status == .ok)
            let limited = try await client.post("/auth/forgot-password", ["email": Self.email])
            limited.expectREKIFailure(.tooManyRequests, "Too many requests")
            #expect(limited.headers[.retryAfter] != nil)
            #expect(try await client.mail(to: Self.email).count == 1)
        }
    }

    // MARK: Bad input and other failures in seed 002's shape

    @Test func badInputUnknownRoutesAndOversizedBodiesUseSeed002sShape() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            try await client.send(.post, "/auth/login", json: "{not json").expectREKIFailure(.badRequest, "Invalid JSON")
            try await client.send(.post, "/auth/login", json: "[1, 2]").expectREKIFailure(.badRequest, "Invalid JSON")
            try await client.send(.post, "/auth/login", json: #"{"email": 7, "password": "x"}"#)
                .expectREKIFailure(.badRequest, "email must be a string")
            try await client.send(.post, "/auth/refresh", json: "{}").expectREKIFailure(.badRequest, "refreshToken is required")
            try await client.send(.post, "/auth/reset-password", json: #"{"token": "abc"}"#)
                .expectREKIFailure(.badRequest, "newPassword is required")
            let huge = #"{"email": "a@b.example", "password": "\#(String(repeating: "p", count: 70_000))"}"#
            try await client.send(.post, "/auth/login", json: huge).expectREKIFailure(.contentTooLarge, "Request body is too large")
            try await client.send(.get, "/auth/nothing-here").expectREKIFailure(.notFound, "Not found")
            try await client.send(.get, "/auth/login").expectREKIFailure(.methodNotAllowed, "Method not allowed: use POST")
            // The rest of the API keeps its envelope.
            try await client.send(.get, "/api/nothing-here").expectFailure(.notFound, "NOT_FOUND")
            #expect(try await count(server, "reki_users") == 0)
        }
    }

    @Test func thePerIPSignInLimitAnswersInSeed002sShape() async throws {
        let server = try await TestServer { $0.ipRateLimit = 2 }
        try await server.run(.live) { client in
            for _ in 0..<2 {
                try await client.post("/auth/login", ["email": Self.email, "password": Self.password])
                    .expectREKIFailure(.unauthorized, "Invalid credentials")
            }
            let limited = try await client.post("/auth/login", ["email": Self.email, "password": Self.password])
            limited.expectREKIFailure(.tooManyRequests, "Too many requests")
            #expect(limited.headers[.retryAfter] != nil)
        }
    }

    @Test func turnedOffTheRoutesAre404InTheEnvelope() async throws {
        let server = try await TestServer { $0.rekiEnabled = false }
        try await server.run(.live) { client in
            try await client.post("/auth/register", ["email": Self.email, "password": Self.password]).expectFailure(.notFound, "NOT_FOUND")
            try await client.send(.get, "/auth/me").expectFailure(.notFound, "NOT_FOUND")
            let document = try await client.send(.get, "/api/openapi.json")
            #expect((document.json["paths"] as? [String: Any])?.keys.contains { $0.hasPrefix("/auth/") } == false)
            #expect(try await client.signIn().status == .ok)
        }
    }

    /// One error, two renderings: an unexpected failure is a 500 in either shape, by path.
    @Test func anUnexpectedErrorIs500InTheShapeOfItsPath() async throws {
        struct Boom: Error {}
        let router = Router()
        router.add(middleware: ErrorMiddleware())
        router.get("/auth/boom") { _, _ -> String in throw Boom() }
        router.get("/api/boom") { _, _ -> String in throw Boom() }
        try await Application(router: router, logger: TestServer.quietLogger).test(.router) { client in
            func reply(_ response: TestResponse) throws -> Reply {
                let object = try JSONSerialization.jsonObject(with: Data(buffer: response.body))
                let json = object as? [String: any Sendable] ?? [:]
                return Reply(status: response.status, headers: response.headers, json: json)
            }
            try await client.execute(uri: "/auth/boom", method: .get) { response in
                try reply(response).expectREKIFailure(.internalServerError, "Internal server error")
            }
            try await client.execute(uri: "/api/boom", method: .get) { response in
                try reply(response).expectFailure(.internalServerError, "INTERNAL_ERROR", "An unexpected error occurred")
            }
        }
    }

    // MARK: Helpers

    /// Asks for a reset link and returns its token.
    private func requestResetToken(_ client: TestClient) async throws -> String {
        let before = try await client.mail(to: Self.email).count
        #expect(try await client.post("/auth/forgot-password", ["email": Self.email]).status == .ok)
        let mails = try await client.mail(to: Self.email)
        #expect(mails.count == before + 1)
        return try #require(mails.last.flatMap { Self.resetToken(in: $0.text) })
    }

    static func resetToken(in text: String) -> String? {
        text.firstMatch(of: /reset-password\?token=([0-9a-f]{64})\b/).map { String($0.1) }
    }

    static var isoMilliseconds: Regex<Substring> { /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/ }

    /// A JWT's claims, unverified.
    static func claims(of token: String) -> [String: Any]? {
        let parts = token.split(separator: ".")
        guard parts.count == 3, let payload = Data(base64URLEncoded: parts[1]) else { return nil }
        return (try? JSONSerialization.jsonObject(with: payload)) as? [String: Any]
    }
}

extension Reply {
    /// A top-level string member (REKI answers are not enveloped).
    func top(_ key: String) -> String? { json[key] as? String }

    /// Checks seed 002's failure shape: exactly `statusCode`, `message` and `timestamp`.
    func expectREKIFailure(_ status: HTTPResponse.Status, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(self.status == status, "status", sourceLocation: sourceLocation)
        #expect(Set(json.keys) == ["statusCode", "message", "timestamp"], "keys", sourceLocation: sourceLocation)
        #expect(json["statusCode"] as? Int == Int(status.code), "statusCode", sourceLocation: sourceLocation)
        #expect(json["message"] as? String == message, "message", sourceLocation: sourceLocation)
        let timestamp = json["timestamp"] as? String
        #expect(timestamp?.wholeMatch(of: REKITests.isoMilliseconds) != nil, "timestamp", sourceLocation: sourceLocation)
    }
}
