import ExtrasBase64
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import RepairMinderServer

/// RFC 6238 itself, against the RFC's Appendix B vectors.
@Suite struct TOTPGeneratorTests {
    static let rfcSecret = Array("12345678901234567890".utf8)

    @Test(arguments: [
        (59.0, "94287082"), (1_111_111_109, "07081804"), (1_111_111_111, "14050471"),
        (1_234_567_890, "89005924"), (2_000_000_000, "69279037"), (20_000_000_000, "65353130"),
    ])
    func rfc6238AppendixBSHA1(time: Double, expected: String) {
        let generator = TOTPGenerator(digits: 8)
        #expect(generator.code(secret: Self.rfcSecret, step: generator.step(at: time)) == expected)
    }

    /// The secret's encoding as authenticator apps read it: RFC 4648 base32, no padding.
    @Test func base32AsTheAppsReadIt() throws {
        #expect(String(base32Encoding: Array("foobar".utf8), options: .omitPaddingCharacter) == "MZXW6YTBOI")
        let random = (0..<20).map { _ in UInt8.random(in: 0...255) }
        let encoded = String(base32Encoding: random, options: .omitPaddingCharacter)
        #expect(encoded.count == 32 && !encoded.contains("="))
        #expect(try Base32.decode(string: encoded) == random)
    }
}

/// The authenticator app as a second factor (docs/API.md §2.10, §2.3).
@Suite struct TOTPTests {
    let admin = DemoFixtures.adminEmail

    /// Enrols the admin; returns the secret bytes and the recovery codes.
    static func enrol(_ client: TestClient, server: TestServer, token: String) async throws -> (secret: [UInt8], recovery: [String]) {
        let setup = try await client.send(.post, "/api/auth/totp/setup", bearer: token)
        #expect(setup.status == .ok)
        let encoded = try #require(setup.string("secret"))
        let secret = try Base32.decode(string: encoded)
        #expect(secret.count == 20)
        let url = try #require(setup.string("otpauthUrl"))
        #expect(url == "otpauth://totp/Repair%20Minder:admin@acme.test?secret=\(encoded)&issuer=Repair%20Minder&algorithm=SHA1&digits=6&period=30")
        let reply = try await client.post("/api/auth/totp/verify-setup", ["code": code(secret, server.clock.now)], bearer: token)
        #expect(reply.status == .ok)
        #expect(reply.data["enabled"] as? Bool == true)
        let recovery = try #require(reply.data["recoveryCodes"] as? [String])
        #expect(recovery.count == 10)
        #expect(Set(recovery).count == 10)
        #expect(recovery.allSatisfy { $0.count == 8 && $0.allSatisfy { RecoveryCodes.alphabet.contains($0) } })
        return (secret, recovery)
    }

    static func code(_ secret: [UInt8], _ time: Double) -> String {
        let generator = TOTPGenerator()
        return generator.code(secret: secret, step: generator.step(at: time))
    }

    /// Login step 1 and a verify with `code`.
    static func verify(_ client: TestClient, code: String, email: String = DemoFixtures.adminEmail) async throws -> Reply {
        let userId = try await client.login(email, DemoFixtures.adminPassword)
        return try await client.post("/api/auth/2fa/verify", ["userId": userId, "code": code])
    }

    @Test func enrolledUsersSignInWithACodeAndNoEmail() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let token = try #require(try await client.signIn().string("token"))
            let (secret, _) = try await Self.enrol(client, server: server, token: token)
            let login = try await client.post("/api/auth/login", ["email": admin, "password": DemoFixtures.adminPassword])
            #expect(login.data["methods"] as? [String] == ["totp", "recovery_code"])
            let mailBefore = try await client.mail(to: admin).count
            server.clock.advance(by: 30)
            let reply = try await client.post(
                "/api/auth/2fa/verify", ["userId": try #require(login.string("userId")), "code": Self.code(secret, server.clock.now)])
            #expect(reply.status == .ok)
            #expect(reply.string("refreshToken") != nil)
            #expect(try await client.mail(to: admin).count == mailBefore)
            let status = try await client.send(.get, "/api/auth/totp/status", bearer: token)
            #expect(NSDictionary(dictionary: status.data) == ["enabled": true, "recoveryCodesRemaining": 10])
        }
    }

    @Test(arguments: [(-30.0, true), (0, true), (30, true), (-60, false), (60, false)])
    func codesOfTheNeighbouringStepsAreAcceptedAndNoFurther(offset: Double, accepted: Bool) async throws {
        let server = try await TestServer()
        try await server.run { client in
            let token = try #require(try await client.signIn().string("token"))
            let (secret, _) = try await Self.enrol(client, server: server, token: token)
            // Move on well past the setup's step and to the middle of a step.
            server.clock.advance(by: 300 - server.clock.now.truncatingRemainder(dividingBy: 30) + 15)
            let reply = try await Self.verify(client, code: Self.code(secret, server.clock.now + offset))
            if accepted {
                #expect(reply.status == .ok)
            } else {
                reply.expectFailure(.unauthorized, "INVALID_CODE", "Invalid verification code")
            }
        }
    }

    @Test func anAcceptedCodeIsRefusedForTheRestOfItsWindow() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let token = try #require(try await client.signIn().string("token"))
            let (secret, _) = try await Self.enrol(client, server: server, token: token)
            server.clock.advance(by: 60)
            let code = Self.code(secret, server.clock.now)
            #expect(try await Self.verify(client, code: code).status == .ok)
            try await Self.verify(client, code: code).expectFailure(.unauthorized, "INVALID_CODE")
            // So is the previous step's code, still inside the ±1 window.
            try await Self.verify(client, code: Self.code(secret, server.clock.now - 30)).expectFailure(.unauthorized, "INVALID_CODE")
            // The next step's code works.
            server.clock.advance(by: 30)
            #expect(try await Self.verify(client, code: Self.code(secret, server.clock.now)).status == .ok)
        }
    }

    @Test func eachRecoveryCodeWorksOnce() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let token = try #require(try await client.signIn().string("token"))
            let (_, recovery) = try await Self.enrol(client, server: server, token: token)
            #expect(try await Self.verify(client, code: recovery[0]).status == .ok)
            try await Self.verify(client, code: recovery[0]).expectFailure(.unauthorized, "INVALID_CODE")
            // Lowercase with a dash is the same code.
            let typed = recovery[1].prefix(4).lowercased() + "-" + recovery[1].suffix(4).lowercased()
            #expect(try await Self.verify(client, code: typed).status == .ok)
            let status = try await client.send(.get, "/api/auth/totp/status", bearer: token)
            #expect(status.data["recoveryCodesRemaining"] as? Int == 8)
            // Stored only as hashes.
            let plain = try await server.withDatabase { try await $0.count("recovery_codes", where: "code_hash = '\(recovery[2])'") }
            #expect(plain == 0)
        }
    }

    @Test func concurrentUsesOfARecoveryCodeSignInOnce() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let token = try #require(try await client.signIn().string("token"))
            let (_, recovery) = try await Self.enrol(client, server: server, token: token)
            let userId = try await client.login(admin, DemoFixtures.adminPassword)
            let statuses = try await race(10) { try await client.post("/api/auth/2fa/verify", ["userId": userId, "code": recovery[0]]).status.code }
            #expect(statuses.filter { $0 == 200 }.count == 1, "\(statuses)")
            #expect(try await client.send(.get, "/api/auth/totp/status", bearer: token).data["recoveryCodesRemaining"] as? Int == 9)
        }
    }

    @Test func aRecoveryCodeRacingWrongCodesIsSpentOnlyIfItSignsIn() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let token = try #require(try await client.signIn().string("token"))
            let (_, recovery) = try await Self.enrol(client, server: server, token: token)
            for _ in 0..<3 {
                let userId = try await client.login(admin, DemoFixtures.adminPassword)
                let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                    group.addTask { try await client.post("/api/auth/2fa/verify", ["userId": userId, "code": recovery[0]]).status.code }
                    for _ in 0..<8 { group.addTask { try await client.post("/api/auth/2fa/verify", ["userId": userId, "code": "000000"]).status.code } }
                    return try await group.reduce(into: [Int]()) { $0.append($1) }
                }
                let remaining = try await client.send(.get, "/api/auth/totp/status", bearer: token).data["recoveryCodesRemaining"] as? Int
                let signedIn = statuses.filter { $0 == 200 }.count
                #expect(signedIn <= 1)
                // Signed in and the code is spent, or the attempts ran out first and it is not.
                #expect(signedIn == 1 ? remaining == 9 : remaining == 10, "\(statuses), \(String(describing: remaining)) left")
                if signedIn == 1 { return }
            }
        }
    }

    /// A new login closes the open challenge while a recovery code completes it: the code is
    /// spent exactly when it signs in (closing and spending are one transaction).
    @Test func aRecoveryCodeRacingANewLoginIsSpentOnlyIfItSignsIn() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let token = try #require(try await client.signIn().string("token"))
            let (_, recovery) = try await Self.enrol(client, server: server, token: token)
            var remaining = 10
            for code in recovery.prefix(6) {
                let userId = try await client.login(admin, DemoFixtures.adminPassword)
                async let verify = client.post("/api/auth/2fa/verify", ["userId": userId, "code": code]).status
                async let relogin = client.login(admin, DemoFixtures.adminPassword)
                let (status, _) = try await (verify, relogin)
                if status == .ok { remaining -= 1 }
                #expect(try await client.send(.get, "/api/auth/totp/status", bearer: token).data["recoveryCodesRemaining"] as? Int == remaining)
            }
        }
    }

    /// When the factor turns out spent inside the transaction (a TOTP step replayed by a
    /// concurrent sign-in), closing the challenge is rolled back: it stays open for a right try.
    @Test func aFactorSpentMeanwhileLeavesTheChallengeOpen() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let userId = try await client.login(admin, DemoFixtures.adminPassword)
            try await server.withDatabase { db in
                let store = LoginChallengeStore(database: db)
                let now = server.clock.now
                let challenge = try #require(try await store.openChallenge(userId: userId, now: now))
                #expect(try await store.complete(challengeId: challenge.id, emailedCodeHash: nil, now: now, spend: { _ in false }) == .factorAlreadyUsed)
                #expect(try await store.openChallenge(userId: userId, now: now)?.id == challenge.id)
                #expect(try await store.complete(challengeId: challenge.id, emailedCodeHash: nil, now: now) == .completed)
                #expect(try await store.complete(challengeId: challenge.id, emailedCodeHash: nil, now: now) == .notOpen)
            }
        }
    }

    @Test func aTOTPCodeWithoutAnOpenChallengeIsRefused() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let signIn = try await client.signIn()
            let token = try #require(signIn.string("token"))
            let userId = try #require((signIn.data["user"] as? [String: Any])?["id"] as? String)
            let (secret, recovery) = try await Self.enrol(client, server: server, token: token)
            server.clock.advance(by: 30)
            try await client.post("/api/auth/2fa/verify", ["userId": userId, "code": Self.code(secret, server.clock.now)])
                .expectFailure(.unauthorized, "LOGIN_CHALLENGE_EXPIRED")
            try await client.post("/api/auth/2fa/verify", ["userId": userId, "code": recovery[0]])
                .expectFailure(.unauthorized, "LOGIN_CHALLENGE_EXPIRED")
            #expect(try await client.send(.get, "/api/auth/totp/status", bearer: token).data["recoveryCodesRemaining"] as? Int == 10)
        }
    }

    @Test func wrongAuthenticatorCodesShareTheChallengeBudget() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let token = try #require(try await client.signIn().string("token"))
            let (secret, _) = try await Self.enrol(client, server: server, token: token)
            let userId = try await client.login(admin, DemoFixtures.adminPassword)
            let right = Self.code(secret, server.clock.now + 30)
            let wrong = right == "000000" ? "111111" : "000000"
            for attempt in 1...5 {
                let code = attempt % 2 == 0 ? "ABCD2345" : wrong
                let reply = try await client.post("/api/auth/2fa/verify", ["userId": userId, "code": code])
                #expect(reply.code == (attempt < 5 ? "INVALID_CODE" : "TOO_MANY_ATTEMPTS"))
            }
            try await client.post("/api/auth/2fa/verify", ["userId": userId, "code": right])
                .expectFailure(.unauthorized, "LOGIN_CHALLENGE_EXPIRED")
        }
    }

    /// A check that fails with an error (here the sealed secret is damaged, so it does not
    /// decrypt) still counts the try: five such answers close the challenge, and the emailed
    /// code, right as it is, no longer signs in.
    @Test func triesThatFailWithAnErrorStillCountAgainstTheChallenge() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let token = try #require(try await client.signIn().string("token"))
            _ = try await Self.enrol(client, server: server, token: token)
            try await server.withDatabase { db in
                try await db.withConnection { try await $0.raw("UPDATE totp_credentials SET secret_sealed = 'AAAA'").run() }
            }
            let userId = try await client.login(admin, DemoFixtures.adminPassword)
            let emailed = try await client.requestCode(userId: userId, email: admin)
            let wrong = emailed == "000000" ? "111111" : "000000"
            for _ in 1...5 {
                let reply = try await client.post("/api/auth/2fa/verify", ["userId": userId, "code": wrong])
                reply.expectFailure(.internalServerError, "INTERNAL_ERROR")
            }
            try await client.post("/api/auth/2fa/verify", ["userId": userId, "code": emailed])
                .expectFailure(.unauthorized, "LOGIN_CHALLENGE_EXPIRED")
        }
    }

    @Test func theSecretIsNotReadableInTheDatabaseFiles() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let token = try #require(try await client.signIn().string("token"))
            let setup = try await client.send(.post, "/api/auth/totp/setup", bearer: token)
            let encoded = try #require(setup.string("secret"))
            let raw = Data(try Base32.decode(string: encoded))
            _ = try await client.post("/api/auth/totp/verify-setup", ["code": Self.code(Array(raw), server.clock.now)], bearer: token)
            guard case .sqlite(let path) = try server.settings.databaseLocation() else { return }
            var files = Data()
            for suffix in ["", "-wal"] {
                if let data = FileManager.default.contents(atPath: path + suffix) { files.append(data) }
            }
            #expect(files.count > 0)
            #expect(files.range(of: Data(encoded.utf8)) == nil)
            #expect(files.range(of: raw) == nil)
            #expect(files.range(of: Data(raw.base64EncodedString().utf8)) == nil)
            let sealed = try await server.withDatabase { db in
                try await db.withConnection {
                    try await $0.raw("SELECT secret_sealed FROM totp_credentials").first(decodingColumn: "secret_sealed", as: String?.self)
                }
            }
            #expect((sealed ?? nil) != nil)
        }
    }

    @Test func setupWhileEnabledIs409AndARepeatedSetupReplacesThePendingSecret() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let token = try #require(try await client.signIn().string("token"))
            let first = try #require(try await client.send(.post, "/api/auth/totp/setup", bearer: token).string("secret"))
            let second = try #require(try await client.send(.post, "/api/auth/totp/setup", bearer: token).string("secret"))
            #expect(first != second)
            // The first secret no longer completes the setup.
            try await client.post("/api/auth/totp/verify-setup", ["code": Self.code(try Base32.decode(string: first), server.clock.now)], bearer: token)
                .expectFailure(.badRequest, "INVALID_CODE")
            #expect(try await client.post("/api/auth/totp/verify-setup", ["code": Self.code(try Base32.decode(string: second), server.clock.now)], bearer: token).status == .ok)
            try await client.send(.post, "/api/auth/totp/setup", bearer: token)
                .expectFailure(.conflict, "TOTP_ALREADY_ENABLED")
            try await client.post("/api/auth/totp/verify-setup", ["code": "123456"], bearer: token)
                .expectFailure(.conflict, "TOTP_ALREADY_ENABLED")
        }
    }

    @Test func verifySetupWithoutSetupOrWithABadCodeChangesNothing() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let token = try #require(try await client.signIn().string("token"))
            try await client.post("/api/auth/totp/verify-setup", ["code": "123456"], bearer: token)
                .expectFailure(.badRequest, "TOTP_SETUP_REQUIRED")
            _ = try await client.send(.post, "/api/auth/totp/setup", bearer: token)
            try await client.post("/api/auth/totp/verify-setup", ["code": "12345"], bearer: token)
                .expectFailure(.badRequest, "VALIDATION_ERROR", "code must be a 6-digit code or an 8-character recovery code")
            // Shaped like a recovery code, which the body's rule takes (disable's): a wrong code here.
            try await client.post("/api/auth/totp/verify-setup", ["code": "ABCD-2345"], bearer: token)
                .expectFailure(.badRequest, "INVALID_CODE")
            let status = try await client.send(.get, "/api/auth/totp/status", bearer: token)
            #expect(NSDictionary(dictionary: status.data) == ["enabled": false, "recoveryCodesRemaining": 0])
        }
    }

    @Test func disableWithAWrongCodeChangesNothingAndWithARightOneTurnsItOff() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let token = try #require(try await client.signIn().string("token"))
            let (secret, recovery) = try await Self.enrol(client, server: server, token: token)
            for code in ["000000", "ZZZZ2222"] {
                try await client.post("/api/auth/totp/disable", ["code": code], bearer: token)
                    .expectFailure(.badRequest, "INVALID_CODE")
            }
            try await client.post("/api/auth/totp/disable", ["code": "abc"], bearer: token)
                .expectFailure(.badRequest, "VALIDATION_ERROR")
            #expect(NSDictionary(dictionary: try await client.send(.get, "/api/auth/totp/status", bearer: token).data)
                == ["enabled": true, "recoveryCodesRemaining": 10])
            _ = secret
            let off = try await client.post("/api/auth/totp/disable", ["code": recovery[3]], bearer: token)
            #expect(NSDictionary(dictionary: off.data) == ["enabled": false])
            try await client.post("/api/auth/totp/disable", ["code": recovery[4]], bearer: token)
                .expectFailure(.badRequest, "TOTP_NOT_ENABLED")
            let login = try await client.post("/api/auth/login", ["email": admin, "password": DemoFixtures.adminPassword])
            #expect(login.data["methods"] as? [String] == ["email"])
            // Recovery codes are gone with it.
            try await Self.verify(client, code: recovery[5]).expectFailure(.unauthorized, "INVALID_CODE")
        }
    }

    @Test func quarantinedAndSignedOutUsersCannotReachTheEndpoints() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let token = try #require(try await client.signIn("owner@suspended.test", "suspended password").string("token"))
            for (method, path) in [(HTTPRequest.Method.post, "setup"), (.post, "verify-setup"), (.post, "disable"), (.get, "status")] {
                try await client.send(method, "/api/auth/totp/\(path)", json: method == .post ? #"{"code":"123456"}"# : nil, bearer: token)
                    .expectFailure(.forbidden, "ACCOUNT_SUSPENDED")
                try await client.send(method, "/api/auth/totp/\(path)").expectFailure(.unauthorized, "UNAUTHORIZED")
            }
            let rows = try await server.withDatabase { try await $0.count("totp_credentials") }
            #expect(rows == 0)
        }
    }
}

extension TOTPTests {
    @Test func guessingDisableCodesRunsIntoTheFailureBudget() async throws {
        let server = try await TestServer { $0.loginFailureLimit = 3 }
        try await server.run { client in
            let token = try #require(try await client.signIn().string("token"))
            let (secret, recovery) = try await Self.enrol(client, server: server, token: token)
            for _ in 1...3 {
                try await client.post("/api/auth/totp/disable", ["code": "ZZZZ2222"], bearer: token)
                    .expectFailure(.badRequest, "INVALID_CODE")
            }
            // Even a right code waits now: the budget is spent.
            let limited = try await client.post("/api/auth/totp/disable", ["code": recovery[0]], bearer: token)
            limited.expectFailure(.tooManyRequests, "RATE_LIMITED")
            #expect(limited.headers[.retryAfter] != nil)
            #expect(try await client.send(.get, "/api/auth/totp/status", bearer: token).data["enabled"] as? Bool == true)
            server.clock.advance(by: 15 * 60 + 1)
            // The old access token expired too; with the app on, its code signs in (not the mailbox).
            let fresh = try #require(try await Self.verify(client, code: Self.code(secret, server.clock.now)).string("token"))
            #expect(try await client.post("/api/auth/totp/disable", ["code": recovery[0]], bearer: fresh).status == .ok)
        }
    }
}
