import Foundation
import HummingbirdBcrypt
import RepairMinderModels
import Testing

@testable import RepairMinderServer

/// Passwords are hashed whole (docs/API.md §9): NFKC, an HMAC-SHA256 digest, then bcrypt, so
/// neither bcrypt's 72 bytes nor a NUL cuts them short; hashes of the old plain-bcrypt kind
/// still verify and are replaced at the next sign-in.
@Suite struct PasswordHashingTests {
    static let admin = DemoFixtures.adminEmail

    static func storedHash(_ server: TestServer, _ email: String = admin) async throws -> String? {
        try await server.withDatabase { db in try await AccountStore(database: db).user(email: email)?.passwordHash }
    }

    static func store(_ hash: String, _ server: TestServer, _ email: String = admin) async throws {
        try await server.withDatabase { db in
            try await db.withConnection { sql in
                try await sql.raw("UPDATE users SET password_hash = \(bind: hash) WHERE email = \(bind: email)").run()
            }
        }
    }

    /// Sets the admin's password through the emailed reset code; the reply's status.
    static func reset(_ client: TestClient, to password: String) async throws -> Reply {
        #expect(try await client.post("/api/auth/password/forgot", ["email": admin]).status == .ok)
        let code = try await client.latestCode(to: admin)
        return try await client.post("/api/auth/password/reset", ["email": admin, "code": code, "password": password])
    }

    static func login(_ client: TestClient, _ password: String) async throws -> Reply {
        try await client.post("/api/auth/login", ["email": admin, "password": password])
    }

    /// 64 characters of CJK (192 bytes) or emoji (256 bytes) are accepted, and a password that
    /// differs only past bcrypt's 72 bytes is a wrong one.
    @Test(arguments: [String(repeating: "漢字", count: 32), String(repeating: "🔧", count: 64)])
    func longPasswordsInAnyScriptAreVerifiedWhole(password: String) async throws {
        let server = try await TestServer()
        try await server.run { client in
            #expect(password.unicodeScalars.count == 64 && password.utf8.count > 72)
            #expect(try await Self.reset(client, to: password).status == .ok)
            #expect(try await Self.storedHash(server)?.hasPrefix(PasswordDigest.prefix) == true)
            let lastChanged = String(password.dropLast()) + "x"
            try await Self.login(client, lastChanged).expectFailure(.unauthorized, "INVALID_CREDENTIALS")
            #expect(try await Self.login(client, password).status == .ok)
        }
    }

    /// A composed and a decomposed "é", or "ﬁ" and "fi", are one password (NFKC).
    @Test func compatibilityFormsAreOnePassword() async throws {
        let server = try await TestServer()
        try await server.run { client in
            #expect(try await Self.reset(client, to: "Caf\u{E9} \u{FB01}x-it 2024").status == .ok)
            #expect(try await Self.login(client, "Cafe\u{301} fix-it 2024").status == .ok)
            try await Self.login(client, "Cafe fix-it 2024").expectFailure(.unauthorized, "INVALID_CREDENTIALS")
        }
    }

    /// The attack of the issue: eight NULs passed the policy and bcrypt hashed the empty
    /// password, so any run of NULs signed in. Now refused when set, and an old hash of that
    /// kind no longer matches a NUL.
    @Test func aNULNeitherSetsNorMatchesAPassword() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let before = try await Self.storedHash(server)
            try await Self.reset(client, to: String(repeating: "\u{0}", count: 8))
                .expectFailure(.badRequest, "WEAK_PASSWORD", "Password must not contain the NUL character")
            #expect(try await Self.storedHash(server) == before)
            // What the old hashing stored for eight NULs: bcrypt of the empty C string.
            try await Self.store(Bcrypt.hash(String(repeating: "\u{0}", count: 8), cost: 4), server)
            try await Self.login(client, "\u{0}").expectFailure(.unauthorized, "INVALID_CREDENTIALS")
            try await Self.login(client, String(repeating: "\u{0}", count: 8)).expectFailure(.unauthorized, "INVALID_CREDENTIALS")
        }
    }

    /// A plain-bcrypt hash of before still signs in, and that sign-in replaces it.
    @Test func anOldHashVerifiesAndIsUpgradedAtSignIn() async throws {
        let server = try await TestServer()
        try await server.run { client in
            try await Self.store(Bcrypt.hash(DemoFixtures.adminPassword, cost: 4), server)
            try await Self.login(client, "wrong password").expectFailure(.unauthorized, "INVALID_CREDENTIALS")
            #expect(try await Self.storedHash(server)?.hasPrefix("$2") == true)
            #expect(try await Self.login(client, DemoFixtures.adminPassword).status == .ok)
            let upgraded = try #require(try await Self.storedHash(server))
            #expect(upgraded.hasPrefix(PasswordDigest.prefix))
            #expect(try await Self.login(client, DemoFixtures.adminPassword).status == .ok)
            #expect(try await Self.storedHash(server) == upgraded)
        }
    }

    /// REKI's users likewise.
    @Test func anOldREKIHashIsUpgradedAtSignIn() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            let email = "reki-user@example.test", password = "violet kettle 1987"
            #expect(try await client.post("/auth/register", ["email": email, "password": password]).status == .created)
            let stored = { () async throws -> String? in
                try await server.withDatabase { db in try await REKIUserStore(database: db).user(email: email)?.passwordHash }
            }
            #expect(try await stored()?.hasPrefix(PasswordDigest.prefix) == true)
            try await server.withDatabase { db in
                try await db.withConnection { sql in
                    try await sql.raw("UPDATE reki_users SET password_hash = \(bind: Bcrypt.hash(password, cost: 4))").run()
                }
            }
            #expect(try await client.post("/auth/login", ["email": email, "password": password]).status == .ok)
            #expect(try await stored()?.hasPrefix(PasswordDigest.prefix) == true)
            #expect(try await client.post("/auth/login", ["email": email, "password": password]).status == .ok)
        }
    }

    /// An old hash saw at most 72 bytes: a longer password with the same start is not it.
    @Test func anOldHashDoesNotMatchALongerPasswordWithItsStart() {
        let start = String(repeating: "a", count: 72)
        let old = Bcrypt.hash(start, cost: 4)
        #expect(PasswordDigest.verify(start, against: old) == .match(outdated: true))
        #expect(PasswordDigest.verify(start + "tail", against: old) == .mismatch)
        let new = PasswordDigest.hash(start, cost: 4)
        #expect(PasswordDigest.verify(start, against: new) == .match(outdated: false))
        #expect(PasswordDigest.verify(start + "tail", against: new) == .mismatch)
    }
}
