import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import RepairMinderServer

/// Shop registration (docs/API.md §9.1).
@Suite struct RegistrationTests {
    static let email = "ada@fixit.test"
    static let password = "violet kettle 1987 drum"

    static func body(email: String = email, company: String = "Fixit Phones", password: String = password) -> [String: String] {
        ["companyName": company, "firstName": "Ada", "lastName": "Lovelace", "email": email, "password": password]
    }

    private func counts(_ server: TestServer) async throws -> [Int] {
        try await server.withDatabase { db in [try await db.count("companies"), try await db.count("users")] }
    }

    @Test func registerThenVerifyCreatesAPendingShopAndSignsInQuarantined() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let before = try await counts(server)
            let reply = try await client.post("/api/auth/register", Self.body(email: "Ada@Fixit.test"))
            #expect(reply.status == .created)
            #expect(NSDictionary(dictionary: reply.json) == NSDictionary(dictionary: [
                "success": true, "data": ["message": "Check your email for a code to finish registration"],
            ]))
            #expect(try await counts(server) == before, "nothing is created before the code")
            let code = try await client.latestCode(to: Self.email)
            let signedIn = try await client.post("/api/auth/register/verify", ["email": Self.email, "code": code])
            #expect(signedIn.status == .ok)
            let user = try #require(signedIn.data["user"] as? [String: Any])
            #expect(user["role"] as? String == "admin")
            #expect(user["email"] as? String == Self.email)
            #expect(user["company_status"] as? String == "pending_approval")
            #expect((signedIn.data["company"] as? [String: Any])?["name"] as? String == "Fixit Phones")
            #expect(try await counts(server) == [before[0] + 1, before[1] + 1])
            // Quarantined: /me works, the rest of the API answers 403 until approval.
            let token = try #require(signedIn.string("token"))
            #expect(try await client.send(.get, "/api/auth/me", bearer: token).status == .ok)
            try await client.send(.get, "/api/user/device-tokens", bearer: token).expectFailure(.forbidden, "ACCOUNT_PENDING_APPROVAL")
            // The password registered with signs in (with its second factor).
            #expect(try await client.post("/api/auth/login", ["email": Self.email, "password": Self.password]).status == .ok)
            let activity = try await client.send(.get, "/api/auth/activity", bearer: token)
            #expect((activity.json["data"] as? [[String: Any]])?.compactMap { $0["type"] as? String } == ["login_succeeded", "registered"])
        }
    }

    /// No enumeration: a taken address gets the same answer; its owner gets a mail without a code.
    @Test func aTakenAddressGetsTheSameAnswerAndNoCode() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let admin = DemoFixtures.adminEmail
            let fresh = try await client.post("/api/auth/register", Self.body())
            let taken = try await client.post("/api/auth/register", Self.body(email: admin, company: "Another Shop"))
            #expect(taken.status == fresh.status)
            #expect(NSDictionary(dictionary: taken.json) == NSDictionary(dictionary: fresh.json))
            let mail = try #require(try await client.mail(to: admin).last)
            #expect(mail.subject == "You already have a Repair Minder account")
            #expect(Mailbox.code(in: mail) == nil)
            let pending = try await server.withDatabase { try await $0.count("pending_registrations") }
            #expect(pending == 1)
            try await client.post("/api/auth/register/verify", ["email": admin, "code": "123456"])
                .expectFailure(.unauthorized, "INVALID_CODE", "Invalid or expired code")
        }
    }

    @Test func wrongOrExpiredCodesCreateNothing() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let before = try await counts(server)
            #expect(try await client.post("/api/auth/register", Self.body()).status == .created)
            let code = try await client.latestCode(to: Self.email)
            let wrong = code == "000000" ? "111111" : "000000"
            try await client.post("/api/auth/register/verify", ["email": Self.email, "code": wrong])
                .expectFailure(.unauthorized, "INVALID_CODE", "Invalid or expired code")
            server.clock.advance(by: 601)
            try await client.post("/api/auth/register/verify", ["email": Self.email, "code": code])
                .expectFailure(.unauthorized, "INVALID_CODE")
            #expect(try await counts(server) == before)
        }
    }

    @Test func aWeakPasswordOrATakenShopNameIsRefusedAndSendsNothing() async throws {
        let server = try await TestServer()
        try await server.run { client in
            try await client.post("/api/auth/register", Self.body(password: "password1"))
                .expectFailure(.badRequest, "WEAK_PASSWORD", "This password is too common. Choose another.")
            try await client.post("/api/auth/register", Self.body(company: "Acme Repairs"))
                .expectFailure(.conflict, "COMPANY_NAME_TAKEN", "A shop with this name is already registered. Choose another name.")
            try await client.post("/api/auth/register", ["companyName": "X", "email": Self.email, "password": Self.password])
                .expectFailure(.badRequest, "VALIDATION_ERROR")
            #expect(try await client.mail(to: Self.email).isEmpty)
        }
    }

    /// Verifying twice with one code, at once: one shop.
    @Test func concurrentVerifiesWithOneCodeCreateOneShop() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let before = try await counts(server)
            #expect(try await client.post("/api/auth/register", Self.body()).status == .created)
            let code = try await client.latestCode(to: Self.email)
            let statuses = try await race(8) {
                try await client.post("/api/auth/register/verify", ["email": Self.email, "code": code]).status.code
            }
            #expect(statuses.filter { $0 == 200 }.count == 1, "\(statuses)")
            #expect(try await counts(server) == [before[0] + 1, before[1] + 1])
        }
    }

    /// Between register and verify, the address got an account (another shop's admin added it)
    /// or the shop's name was registered by someone else: 409, and nothing is created.
    @Test(arguments: [
        ("EMAIL_TAKEN", "An account with this email already exists"),
        ("COMPANY_NAME_TAKEN", "A shop with this name is already registered. Choose another name."),
    ])
    func whatWasTakenMeanwhileIs409AndCreatesNothing(code errorCode: String, message: String) async throws {
        let server = try await TestServer()
        try await server.run { client in
            #expect(try await client.post("/api/auth/register", Self.body()).status == .created)
            let code = try await client.latestCode(to: Self.email)
            try await server.withDatabase { db in
                var file = FixtureFile()
                if errorCode == "EMAIL_TAKEN" {
                    file.users = [.init(email: Self.email, firstName: "Ada", lastName: "Elsewhere", company: "Acme Repairs", role: "office")]
                } else {
                    file.companies = [.init(name: "Fixit Phones")]
                }
                _ = try await FixtureLoader(database: db, bcryptCost: 4).load(file)
            }
            let before = try await counts(server)
            try await client.post("/api/auth/register/verify", ["email": Self.email, "code": code])
                .expectFailure(.conflict, errorCode, message)
            #expect(try await counts(server) == before)
        }
    }
}
