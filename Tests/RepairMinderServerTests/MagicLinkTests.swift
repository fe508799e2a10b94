import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import RepairMinderServer

/// Staff magic-link codes (docs/API.md §2.4, §2.5).
@Suite struct MagicLinkTests {
    @Test func codeSignsInWithoutAPassword() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let email = "nopassword@acme.test"
            let request = try await client.post("/api/auth/magic-link/request", ["email": "NoPassword@acme.test"])
            #expect(request.status == .ok)
            #expect(request.string("message") == "Magic link sent")
            let code = try await client.latestCode(to: email)
            let reply = try await client.post("/api/auth/magic-link/verify-code", ["email": email, "code": code])
            #expect(reply.status == .ok)
            #expect(reply.string("token") != nil)
            #expect(reply.string("refreshToken") != nil)
            #expect((reply.data["user"] as? [String: Any])?["email"] as? String == email)
            let me = try await client.send(.get, "/api/auth/me", bearer: reply.string("token"))
            #expect(me.data["hasPassword"] as? Bool == false)
        }
    }

    @Test(arguments: ["nobody@acme.test", "deactivated@acme.test", "archived@acme.test", "disabled@acme.test"])
    func accountsThatCannotUseItGetTheSameAnswerAndNoMail(email: String) async throws {
        let server = try await TestServer()
        try await server.withDatabase { db in
            var file = FixtureFile()
            file.users = [.init(email: "disabled@acme.test", firstName: "Dis", lastName: "Abled", company: "Acme Repairs", role: "office")]
            file.users![0].magicLinkEnabled = false
            _ = try await FixtureLoader(database: db, bcryptCost: 4).load(file)
        }
        try await server.run { client in
            let reply = try await client.post("/api/auth/magic-link/request", ["email": email])
            #expect(reply.status == .ok)
            #expect(NSDictionary(dictionary: reply.json) == NSDictionary(dictionary: ["success": true, "data": ["message": "Magic link sent"]]))
            #expect(try await client.mail(to: email).isEmpty)
            let codes = try await server.withDatabase { try await $0.count("magic_codes") }
            #expect(codes == 0)
        }
    }

    @Test func wrongUsedAndExpiredCodesAreRefusedAlike() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let email = DemoFixtures.engineerEmail
            _ = try await client.post("/api/auth/magic-link/request", ["email": email])
            let code = try await client.latestCode(to: email)
            let wrong = code == "000000" ? "111111" : "000000"
            try await client.post("/api/auth/magic-link/verify-code", ["email": email, "code": wrong])
                .expectFailure(.unauthorized, "INVALID_CODE", "Invalid or expired code")
            #expect(try await client.post("/api/auth/magic-link/verify-code", ["email": email, "code": code]).status == .ok)
            try await client.post("/api/auth/magic-link/verify-code", ["email": email, "code": code])
                .expectFailure(.unauthorized, "INVALID_CODE", "Invalid or expired code")

            _ = try await client.post("/api/auth/magic-link/request", ["email": email])
            let late = try await client.latestCode(to: email)
            server.clock.advance(by: 601)
            try await client.post("/api/auth/magic-link/verify-code", ["email": email, "code": late])
                .expectFailure(.unauthorized, "INVALID_CODE", "Invalid or expired code")
            let sessions = try await server.withDatabase { try await $0.count("sessions") }
            #expect(sessions == 1)
        }
    }

    @Test func fiveWrongTriesCloseTheCode() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let email = DemoFixtures.engineerEmail
            _ = try await client.post("/api/auth/magic-link/request", ["email": email])
            let code = try await client.latestCode(to: email)
            let wrong = code == "000000" ? "111111" : "000000"
            for _ in 1...5 {
                try await client.post("/api/auth/magic-link/verify-code", ["email": email, "code": wrong])
                    .expectFailure(.unauthorized, "INVALID_CODE")
            }
            try await client.post("/api/auth/magic-link/verify-code", ["email": email, "code": code])
                .expectFailure(.unauthorized, "INVALID_CODE", "Invalid or expired code")
            let sessions = try await server.withDatabase { try await $0.count("sessions") }
            #expect(sessions == 0)
        }
    }

    @Test func concurrentUsesOfOneCodeSignInOnce() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let email = DemoFixtures.engineerEmail
            _ = try await client.post("/api/auth/magic-link/request", ["email": email])
            let code = try await client.latestCode(to: email)
            let statuses = try await race(10) {
                try await client.post("/api/auth/magic-link/verify-code", ["email": email, "code": code]).status.code
            }
            #expect(statuses.filter { $0 == 200 }.count == 1)
            let sessions = try await server.withDatabase { try await $0.count("sessions") }
            #expect(sessions == 1)
        }
    }
}
