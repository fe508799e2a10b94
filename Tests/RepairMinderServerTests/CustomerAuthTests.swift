import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import RepairMinderServer

/// Customer sign-in (docs/API.md §3).
@Suite struct CustomerAuthTests {
    let jane = "jane@example.test"
    let multi = "multi@example.test"

    @Test func unknownEmailsGetTheSameAnswerAndNoMail() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let known = try await client.post("/api/customer/auth/request-magic-link", ["email": jane])
            let unknown = try await client.post("/api/customer/auth/request-magic-link", ["email": "ghost@example.test"])
            #expect(known.status == .ok)
            #expect(NSDictionary(dictionary: known.json) == NSDictionary(dictionary: unknown.json))
            #expect(known.string("message") == "If an account exists, a login code has been sent")
            #expect(try await client.mail(to: "ghost@example.test").isEmpty)
            #expect(try await client.mail(to: jane).count == 1)
        }
    }

    @Test func singleCompanySignInAnswersTokenClientAndCompany() async throws {
        let server = try await TestServer()
        try await server.run { client in
            _ = try await client.post("/api/customer/auth/request-magic-link", ["email": "  Jane@Example.test "])
            let code = try await client.latestCode(to: jane)
            let reply = try await client.post("/api/customer/auth/verify-code", ["email": jane, "code": code])
            #expect(reply.status == .ok)
            #expect(Set(reply.data.keys) == ["token", "client", "company"])
            let customer = try #require(reply.data["client"] as? [String: Any])
            #expect(customer["firstName"] as? String == "Jane")
            #expect(customer["lastName"] as? String == "Customer")
            #expect(customer["name"] as? String == "Jane Customer")
            #expect(customer["email"] as? String == jane)
            let company = try #require(reply.data["company"] as? [String: Any])
            #expect(company["name"] as? String == "Acme Repairs")
            #expect(company["logoUrl"] is NSNull)
            // The claims of seed 000.
            let token = try #require(reply.string("token"))
            let payload = try #require(Data(base64URLEncoded: token.split(separator: ".")[1]))
            let claims = try #require(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
            #expect(claims["type"] as? String == "customer")
            #expect(claims["scope"] as? String == "customer_portal")
            #expect(claims["clientId"] as? String == customer["id"] as? String)
            #expect(claims["companyId"] as? String == company["id"] as? String)
            #expect(claims["email"] as? String == jane)
            for key in ["issuedAt", "sessionId", "iat", "exp"] { #expect(claims[key] != nil, "missing \(key)") }
            #expect((claims["exp"] as? Int ?? 0) - (claims["iat"] as? Int ?? 0) == 7 * 24 * 3600)
            // The code is used up.
            try await client.post("/api/customer/auth/verify-code", ["email": jane, "code": code])
                .expectFailure(.unauthorized, "INVALID_CODE", "Invalid or expired code")
        }
    }

    @Test func mobileCustomersGetNinetyDays() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let reply = try await client.customerSignIn(jane, userAgent: TestClient.iPhone)
            let token = try #require(reply.string("token"))
            let claims = try #require(
                try JSONSerialization.jsonObject(with: Data(base64URLEncoded: token.split(separator: ".")[1])!) as? [String: Any])
            #expect((claims["exp"] as? Int ?? 0) - (claims["iat"] as? Int ?? 0) == 90 * 24 * 3600)
            // And the session ends with it.
            server.clock.advance(by: 90 * 24 * 3600 + 1)
            try await client.send(.get, "/api/customer/auth/me", bearer: token).expectFailure(.unauthorized, "TOKEN_EXPIRED")
        }
    }

    @Test func severalCompaniesAskForASelectionWithoutUsingTheCode() async throws {
        let server = try await TestServer()
        try await server.run { client in
            _ = try await client.post("/api/customer/auth/request-magic-link", ["email": multi])
            let code = try await client.latestCode(to: multi)
            let selection = try await client.post("/api/customer/auth/verify-code", ["email": multi, "code": code])
            #expect(selection.status == .ok)
            #expect(selection.data["requiresCompanySelection"] as? Bool == true)
            #expect(selection.string("email") == multi)
            #expect(selection.string("code") == code)
            let companies = try #require(selection.data["companies"] as? [[String: Any]])
            #expect(companies.compactMap { $0["name"] as? String } == ["Acme Repairs", "Beta Tech"])
            #expect(companies.allSatisfy { Set($0.keys) == ["id", "name", "logoUrl"] })
            // Asking again gives the same answer: the code was not consumed.
            let again = try await client.post("/api/customer/auth/verify-code", ["email": multi, "code": code])
            #expect(again.data["requiresCompanySelection"] as? Bool == true)
            let beta = try #require(companies.first { $0["name"] as? String == "Beta Tech" }?["id"] as? String)
            let reply = try await client.post("/api/customer/auth/verify-code", ["email": multi, "code": code, "companyId": beta])
            #expect(reply.status == .ok)
            #expect((reply.data["company"] as? [String: Any])?["id"] as? String == beta)
            // Now it is used.
            try await client.post("/api/customer/auth/verify-code", ["email": multi, "code": code, "companyId": beta])
                .expectFailure(.unauthorized, "INVALID_CODE")
        }
    }

    @Test func aCompanyTheEmailIsNotAClientOfIsAWrongCode() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let pending = try await server.withDatabase { db in
                try #require(try await db.withConnection {
                    try await $0.raw("SELECT id FROM companies WHERE name = 'Pending Phones'").first(decodingColumn: "id", as: String.self)
                })
            }
            _ = try await client.post("/api/customer/auth/request-magic-link", ["email": multi])
            let code = try await client.latestCode(to: multi)
            try await client.post("/api/customer/auth/verify-code", ["email": multi, "code": code, "companyId": pending])
                .expectFailure(.unauthorized, "INVALID_CODE", "Invalid or expired code")
            try await client.post("/api/customer/auth/verify-code", ["email": multi, "code": code, "companyId": "no-such-company"])
                .expectFailure(.unauthorized, "INVALID_CODE", "Invalid or expired code")
            let sessions = try await server.withDatabase { try await $0.count("customer_sessions") }
            #expect(sessions == 0)
            let attempts = try await server.withDatabase { try await $0.count("magic_codes", where: "failed_attempts = 2") }
            #expect(attempts == 1)
        }
    }

    @Test func aCodeRequestedForOneCompanyCoversOnlyThatCompany() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let acme = try await server.withDatabase { db in
                try #require(try await db.withConnection {
                    try await $0.raw("SELECT id FROM companies WHERE name = 'Acme Repairs'").first(decodingColumn: "id", as: String.self)
                })
            }
            _ = try await client.post("/api/customer/auth/request-magic-link", ["email": multi, "companyId": acme])
            let code = try await client.latestCode(to: multi)
            let reply = try await client.post("/api/customer/auth/verify-code", ["email": multi, "code": code])
            #expect(reply.status == .ok)
            #expect((reply.data["company"] as? [String: Any])?["id"] as? String == acme)
        }
    }

    @Test func wrongExpiredAndExhaustedCodesAreRefused() async throws {
        let server = try await TestServer()
        try await server.run { client in
            _ = try await client.post("/api/customer/auth/request-magic-link", ["email": jane])
            let code = try await client.latestCode(to: jane)
            let wrong = code == "000000" ? "111111" : "000000"
            for _ in 1...5 {
                try await client.post("/api/customer/auth/verify-code", ["email": jane, "code": wrong])
                    .expectFailure(.unauthorized, "INVALID_CODE", "Invalid or expired code")
            }
            try await client.post("/api/customer/auth/verify-code", ["email": jane, "code": code])
                .expectFailure(.unauthorized, "INVALID_CODE")
            _ = try await client.post("/api/customer/auth/request-magic-link", ["email": jane])
            let late = try await client.latestCode(to: jane)
            server.clock.advance(by: 601)
            try await client.post("/api/customer/auth/verify-code", ["email": jane, "code": late])
                .expectFailure(.unauthorized, "INVALID_CODE")
            let sessions = try await server.withDatabase { try await $0.count("customer_sessions") }
            #expect(sessions == 0)
        }
    }

    @Test func concurrentVerifiesSignInOnce() async throws {
        let server = try await TestServer()
        try await server.run { client in
            _ = try await client.post("/api/customer/auth/request-magic-link", ["email": jane])
            let code = try await client.latestCode(to: jane)
            let statuses = try await race(10) { try await client.post("/api/customer/auth/verify-code", ["email": jane, "code": code]).status.code }
            #expect(statuses.filter { $0 == 200 }.count == 1)
            let sessions = try await server.withDatabase { try await $0.count("customer_sessions") }
            #expect(sessions == 1)
        }
    }

    @Test func meAndLogout() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let token = try #require(try await client.customerSignIn(multi, companyName: "Beta Tech").string("token"))
            let me = try await client.send(.get, "/api/customer/auth/me", bearer: token)
            #expect(me.status == .ok)
            #expect((me.data["client"] as? [String: Any])?["email"] as? String == multi)
            #expect((me.data["company"] as? [String: Any])?["name"] as? String == "Beta Tech")
            let logout = try await client.send(.post, "/api/customer/auth/logout", bearer: token)
            #expect(NSDictionary(dictionary: logout.json) == NSDictionary(dictionary: ["success": true]))
            try await client.send(.get, "/api/customer/auth/me", bearer: token).expectFailure(.unauthorized, "UNAUTHORIZED")
            try await client.send(.post, "/api/customer/auth/logout", bearer: token).expectFailure(.unauthorized, "UNAUTHORIZED")
        }
    }

    @Test(arguments: [
        ("/api/customer/auth/request-magic-link", #"{}"#, "email is required"),
        ("/api/customer/auth/request-magic-link", #"{"email":"x"}"#, "email must be a valid email address"),
        ("/api/customer/auth/request-magic-link", #"{"email":"jane@example.test\u0000"}"#, "email must be a valid email address"),
        ("/api/customer/auth/request-magic-link", #"{"email":"jane@example.test","companyId":5}"#, "companyId must be a string"),
        ("/api/customer/auth/verify-code", #"{"email":"jane@example.test"}"#, "code is required"),
        ("/api/customer/auth/verify-code", #"{"code":"123456"}"#, "email is required"),
        ("/api/customer/auth/verify-code", #"{"email":"jane@example.test","code":"12a456"}"#, "code must be a 6-digit code"),
        ("/api/customer/auth/verify-code", #"{"email":"jane@example.test","code":"123456","companyId":""}"#, "companyId is required"),
    ])
    func badFields(path: String, body: String, message: String) async throws {
        let server = try await TestServer()
        try await server.run { client in
            try await client.send(.post, path, json: body).expectFailure(.badRequest, "VALIDATION_ERROR", message)
            try await client.send(.post, path, json: "nope").expectFailure(.badRequest, "INVALID_JSON")
            #expect(try await client.mail(to: "jane@example.test").isEmpty)
        }
    }

    @Test func logoURLsPointAtTheBrandingEndpointWhichServesTheFile() async throws {
        let server = try await TestServer { $0.publicURL = "https://portal.example/" }
        // (On PostgreSQL nothing has made the data directory yet.)
        try FileManager.default.createDirectory(atPath: server.settings.dataDirectory, withIntermediateDirectories: true)
        let logo = server.settings.dataDirectory + "/logo.png"
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3])
        try png.write(to: URL(fileURLWithPath: logo))
        let acme = try await server.withDatabase { db in
            try await db.withConnection { try await $0.raw("UPDATE companies SET logo_url = \(bind: logo) WHERE name = 'Acme Repairs'").run() }
            return try #require(try await db.withConnection {
                try await $0.raw("SELECT id FROM companies WHERE name = 'Acme Repairs'").first(decodingColumn: "id", as: String.self)
            })
        }
        try await server.run { client in
            let reply = try await client.customerSignIn(jane)
            let url = try #require((reply.data["company"] as? [String: Any])?["logoUrl"] as? String)
            #expect(url == "https://portal.example/api/branding/\(acme)/logo")
            let staff = try await client.signIn()
            #expect((staff.data["company"] as? [String: Any])?["logo_url"] as? String == url)
            try await client.client.execute(uri: "/api/branding/\(acme)/logo", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/png")
                #expect(response.headers[.xContentTypeOptions] == "nosniff")
                #expect(response.headers[.contentSecurityPolicy] == nil)
                #expect(Data(buffer: response.body) == png)
            }
            try await client.send(.get, "/api/branding/not-a-company/logo").expectFailure(.notFound, "NOT_FOUND")
            let beta = try await server.withDatabase { db in
                try #require(try await db.withConnection {
                    try await $0.raw("SELECT id FROM companies WHERE name = 'Beta Tech'").first(decodingColumn: "id", as: String.self)
                })
            }
            try await client.send(.get, "/api/branding/\(beta)/logo").expectFailure(.notFound, "NOT_FOUND")
        }
    }

    /// An SVG logo cannot run script from the API's origin, and only files inside the data
    /// directory are served, whatever path the database names (`..`, a symbolic link out).
    @Test func logosAreServedOnlyFromTheDataDirectoryAndSVGsCannotRunScript() async throws {
        let server = try await TestServer()
        let data = server.settings.dataDirectory
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let svg = #"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>"#
        try Data(svg.utf8).write(to: URL(fileURLWithPath: data + "/logo.svg"))
        let outside = data + "-outside.png"
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: URL(fileURLWithPath: outside))
        defer { try? FileManager.default.removeItem(atPath: outside) }
        try FileManager.default.createSymbolicLink(atPath: data + "/link.png", withDestinationPath: outside)
        let acme = try await server.withDatabase { db in
            try #require(try await db.withConnection {
                try await $0.raw("SELECT id FROM companies WHERE name = 'Acme Repairs'").first(decodingColumn: "id", as: String.self)
            })
        }
        @Sendable func setLogo(_ path: String) async throws {
            try await server.withDatabase { db in
                try await db.withConnection { try await $0.raw("UPDATE companies SET logo_url = \(bind: path) WHERE id = \(bind: acme)").run() }
            }
        }
        try await server.run { client in
            try await setLogo(data + "/logo.svg")
            try await client.client.execute(uri: "/api/branding/\(acme)/logo", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/svg+xml")
                #expect(response.headers[.xContentTypeOptions] == "nosniff")
                #expect(response.headers[.contentSecurityPolicy] == "default-src 'none'; style-src 'unsafe-inline'")
            }
            for path in [outside, data + "/../" + URL(fileURLWithPath: outside).lastPathComponent, data + "/link.png"] {
                try await setLogo(path)
                try await client.send(.get, "/api/branding/\(acme)/logo").expectFailure(.notFound, "NOT_FOUND")
            }
        }
    }
}
