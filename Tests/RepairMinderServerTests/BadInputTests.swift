import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import RepairMinderServer

/// docs/API.md §1's table of bad input: each row's status, code and message, and no state change.
@Suite struct BadInputTests {
    @Test func bodyThatIsNotJSONIsInvalidJSON() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let reply = try await client.send(.post, "/api/auth/login", json: "{not json")
            reply.expectFailure(.badRequest, "INVALID_JSON")
            let array = try await client.send(.post, "/api/auth/login", json: #"["a@b.test","pw"]"#)
            array.expectFailure(.badRequest, "INVALID_JSON")
            let empty = try await client.send(.post, "/api/auth/login", json: "")
            empty.expectFailure(.badRequest, "INVALID_JSON")
        }
    }

    @Test func wrongContentTypeIsInvalidJSON() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let reply = try await client.send(
                .post, "/api/auth/login", json: #"{"email":"admin@acme.test","password":"x"}"#,
                headers: [.contentType: "application/x-www-form-urlencoded"])
            reply.expectFailure(.badRequest, "INVALID_JSON")
        }
    }

    /// Issue 25, item 9: a body without a content type is what a web page can make its
    /// visitors' browsers send cross-site (a `no-cors` fetch): refused like a wrong type, and
    /// nothing is counted or checked.
    @Test func aBodyWithoutAContentTypeIsRefused() async throws {
        let server = try await TestServer { $0.loginFailureLimit = 5 }
        try await server.run { client in
            let body = #"{"email":"admin@acme.test","password":"wrong password"}"#
            let reply = try await client.client.execute(
                uri: "/api/auth/login", method: .post, headers: [.userAgent: TestClient.browser], body: ByteBuffer(string: body)
            ) { response in response }
            #expect(reply.status == .badRequest)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(buffer: reply.body)) as? [String: any Sendable])
            #expect(json["code"] as? String == "INVALID_JSON")
            #expect(json["error"] as? String == "Content-Type must be application/json")
            #expect(try await server.withDatabase { try await $0.count("request_windows") } == 0)
        }
    }

    /// Every answer, success or failure, says its type is not to be guessed; none but the
    /// public, cacheable ones may be stored by a browser or proxy.
    @Test func everyAnswerCarriesTheSecurityHeaders() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let token = try #require(try await client.signIn().string("token"))
            let answers = [
                try await client.send(.get, "/api/health"), try await client.send(.get, "/api/nothing-here"),
                try await client.post("/api/auth/login", ["email": "admin@acme.test", "password": "wrong"]),
                try await client.send(.get, "/api/auth/me", bearer: token), try await client.send(.get, "/auth/me"),
            ]
            for answer in answers {
                #expect(answer.headers[.xContentTypeOptions] == "nosniff", "\(answer.status)")
                #expect(answer.headers[.cacheControl] == "no-store", "\(answer.status)")
            }
            let config = try await client.send(.get, "/api/config")
            #expect(config.headers[.xContentTypeOptions] == "nosniff")
            #expect(config.headers[.cacheControl] == "public, max-age=86400")
        }
    }

    @Test(arguments: [
        (#"{"password":"pw"}"#, "email is required"),
        (#"{"email":"","password":"pw"}"#, "email is required"),
        (#"{"email":"   ","password":"pw"}"#, "email is required"),
        (#"{"email":42,"password":"pw"}"#, "email must be a string"),
        (#"{"email":"not-an-email","password":"pw"}"#, "email must be a valid email address"),
        (#"{"email":"a@b","password":"pw"}"#, "email must be a valid email address"),
        // Control and invisible format characters are never part of an address (docs/API.md §1).
        (#"{"email":"admin@acme.test\u0000","password":"correct horse battery"}"#, "email must be a valid email address"),
        (#"{"email":"ad\u0007min@acme.test","password":"correct horse battery"}"#, "email must be a valid email address"),
        (#"{"email":"admin\u202e@acme.test","password":"correct horse battery"}"#, "email must be a valid email address"),
        (#"{"email":"admin@acme.test"}"#, "password is required"),
        (#"{"email":"admin@acme.test","password":""}"#, "password is required"),
        (#"{"email":"admin@acme.test","password":["x"]}"#, "password must be a string"),
        (#"{"email":"admin@acme.test","password":null}"#, "password is required"),
    ])
    func loginFieldValidation(body: String, message: String) async throws {
        let server = try await TestServer()
        try await server.run { client in
            let reply = try await client.send(.post, "/api/auth/login", json: body)
            reply.expectFailure(.badRequest, "VALIDATION_ERROR", message)
            // Nothing changed: no challenge was opened.
            let challenges = try await server.withDatabase { db in try await db.count("login_challenges") }
            #expect(challenges == 0)
        }
    }

    /// The limit is one setting, `--max-body-size`, for the API and the reset page alike.
    @Test func theBodyLimitIsASetting() async throws {
        let server = try await TestServer { $0.maxBodySize = 2048 }
        try await server.run { client in
            let padding = String(repeating: "x", count: 3000)
            try await client.send(.post, "/api/auth/login", json: #"{"email":"admin@acme.test","password":"\#(padding)"}"#)
                .expectFailure(.contentTooLarge, "PAYLOAD_TOO_LARGE")
            #expect(try await server.withDatabase { db in try await db.count("login_challenges") } == 0, "nothing changed")
            let small = try await client.post("/api/auth/login", ["email": "admin@acme.test", "password": "wrong password"])
            #expect(small.status == .unauthorized)
        }
        var settings = ServerSettings()
        settings.maxBodySize = 100
        #expect(throws: SettingsError("--max-body-size must be between 1024 and 1048576 bytes")) { try settings.validate() }
    }

    @Test(arguments: [
        ("/api/auth/2fa/request", #"{"email":"admin@acme.test"}"#, "userId is required"),
        ("/api/auth/2fa/request", #"{"userId":"x"}"#, "email is required"),
        ("/api/auth/2fa/verify", #"{"userId":"x"}"#, "code or passkey is required"),
        ("/api/auth/2fa/verify", #"{"code":"123456"}"#, "userId is required"),
        ("/api/auth/2fa/verify", #"{"userId":"x","code":"12345"}"#, "code must be a 6-digit code or an 8-character recovery code"),
        ("/api/auth/2fa/verify", #"{"userId":"x","code":"12345a"}"#, "code must be a 6-digit code or an 8-character recovery code"),
        ("/api/auth/2fa/verify", #"{"userId":"x","code":123456}"#, "code must be a string"),
        ("/api/auth/magic-link/request", #"{}"#, "email is required"),
        ("/api/auth/magic-link/request", #"{"email":"nope"}"#, "email must be a valid email address"),
        ("/api/auth/magic-link/request", #"{"email":"admin@acme.test\u0000"}"#, "email must be a valid email address"),
        ("/api/auth/2fa/request", #"{"userId":"x","email":"admin@acme.test\u001f"}"#, "email must be a valid email address"),
        ("/api/auth/magic-link/verify-code", #"{"email":"admin@acme.test\u0000","code":"123456"}"#, "email must be a valid email address"),
        ("/api/auth/magic-link/verify-code", #"{"email":"admin@acme.test"}"#, "code is required"),
        ("/api/auth/magic-link/verify-code", #"{"email":"admin@acme.test","code":"1234567"}"#, "code must be a 6-digit code"),
        ("/api/auth/2fa/verify", #"{"userId":"x","passkey":{"id":"x","rawId":"x","type":"public-key","response":{"clientDataJSON":"e30","authenticatorData":"AA","signature":"AA","userHandle":"a+b"}}}"#,
         "passkey.response.userHandle must be base64url without padding"),
        ("/api/auth/passkeys/login/verify", #"{}"#, "challengeId is required"),
        ("/api/auth/passkeys/login/verify", #"{"challengeId":"c"}"#, "credential is required"),
        ("/api/auth/passkeys/login/verify", #"{"challengeId":"c","credential":{"id":"x","rawId":"x","type":"public-key","response":{"clientDataJSON":"e30","authenticatorData":"AA"}}}"#,
         "credential.response.signature is required"),
        ("/api/auth/passkeys/login/verify", #"{"challengeId":"c","credential":{"id":"x","rawId":"x","type":"public-key","response":{"clientDataJSON":"e30","authenticatorData":"AA","signature":"\#(String(repeating: "A", count: 1025))"}}}"#,
         "credential.response.signature is too long"),
        ("/api/auth/refresh", #"{}"#, "refreshToken is required"),
        ("/api/auth/refresh", #"{"refreshToken":7}"#, "refreshToken must be a string"),
    ])
    func fieldValidationOnEveryEndpoint(path: String, body: String, message: String) async throws {
        let server = try await TestServer()
        try await server.run { client in
            let reply = try await client.send(.post, path, json: body)
            reply.expectFailure(.badRequest, "VALIDATION_ERROR", message)
            #expect(try await client.mail(to: "admin@acme.test").isEmpty)
        }
    }

    @Test func bodyOver64KiBIsRefused() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let padding = String(repeating: "x", count: 65 * 1024)
            let reply = try await client.send(
                .post, "/api/auth/login", json: #"{"email":"admin@acme.test","password":"\#(padding)"}"#)
            reply.expectFailure(.contentTooLarge, "PAYLOAD_TOO_LARGE")
            let challenges = try await server.withDatabase { db in try await db.count("login_challenges") }
            #expect(challenges == 0)
        }
    }

    @Test func unknownRouteIsNotFoundAndWrongMethodIsNotAllowed() async throws {
        let server = try await TestServer()
        try await server.run { client in
            try await client.send(.get, "/api/nothing-here").expectFailure(.notFound, "NOT_FOUND")
            try await client.send(.get, "/").expectFailure(.notFound, "NOT_FOUND")
            // A known path with another method: 405 and the methods it has (RFC 9110 §15.5.6).
            let login = try await client.send(.get, "/api/auth/login")
            login.expectFailure(.methodNotAllowed, "METHOD_NOT_ALLOWED", "Method not allowed: use POST")
            #expect(login.headers[.allow] == "POST")
            let device = try await client.send(.put, "/api/user/device-token")
            device.expectFailure(.methodNotAllowed, "METHOD_NOT_ALLOWED")
            #expect(device.headers[.allow] == "DELETE, POST")
            // A parameterised path too; REKI's paths answer in REKI's shape.
            try await client.send(.post, "/api/auth/sessions/some-id").expectFailure(.methodNotAllowed, "METHOD_NOT_ALLOWED")
            let reki = try await client.send(.get, "/auth/login")
            #expect(reki.status == .methodNotAllowed)
            #expect(reki.headers[.allow] == "POST")
        }
    }

    @Test func unexpectedFailureIsAGeneric500() async throws {
        let server = try await TestServer()
        try await server.run { client in
            // Break the database under the running server: the answer must be the generic envelope.
            try await server.withDatabase { db in
                try await db.withConnection { try await $0.raw("DROP TABLE request_windows").run() }
                try await db.withConnection { try await $0.raw("DROP TABLE login_challenges").run() }
            }
            let reply = try await client.post(
                "/api/auth/login", ["email": DemoFixtures.adminEmail, "password": DemoFixtures.adminPassword])
            reply.expectFailure(.internalServerError, "INTERNAL_ERROR", "An unexpected error occurred")
            #expect(!(reply.error ?? "").contains("login_challenges"))
        }
    }
}

extension Database {
    /// Rows in `table` (test helper).
    func count(_ table: String, where condition: String = "1 = 1") async throws -> Int {
        try await withConnection { db in
            try await db.raw("SELECT COUNT(*) AS n FROM \(unsafeRaw: table) WHERE \(unsafeRaw: condition)")
                .first(decodingColumn: "n", as: Int.self) ?? 0
        }
    }
}

@Suite struct HealthTests {
    @Test func healthAnswersTheEnvelopedStatus() async throws {
        let server = try await TestServer()
        try await server.run { client in
            // One request first: on a cold machine with every suite starting at once, the first
            // database ping once took longer than health's 2 s budget (CI: "unavailable").
            _ = try await client.send(.get, "/api/health")
            let reply = try await client.send(.get, "/api/health")
            #expect(reply.status == .ok)
            #expect(reply.json["success"] as? Bool == true)
            #expect(reply.string("status") == "ok")
            #expect(reply.string("database") == "ok")
            #expect(reply.string("version") == repairMinderVersion)
        }
    }
}
