import Crypto
import Foundation
import RepairMinderModels
import SQLKit
import TestSupport
import Testing

@testable import RepairMinderServer

/// Issue 36, items 2 and 3: a passkey's key must prove something, and a user's passkeys and
/// enrolments are bounded (docs/API.md §7, §11.2). On SQLite and PostgreSQL.
@Suite struct PasskeyKeyTests {
    static let site = PasskeyTests.site

    static func bytes(_ hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            out.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return out
    }

    /// The eight points of small order (the identity first), as libsodium's blocklist names them.
    static let smallOrderPoints = [
        "0100000000000000000000000000000000000000000000000000000000000000",
        "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
        "0000000000000000000000000000000000000000000000000000000000000000",
        "0000000000000000000000000000000000000000000000000000000000000080",
        "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
        "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
        "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
        "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
    ]

    @Test func theEd25519CheckKnowsTheGroup() {
        for point in Self.smallOrderPoints { #expect(Ed25519PointCheck.problem(Self.bytes(point)) == .smallOrder, "\(point)") }
        // RFC 8032 §7.1, TEST 1 and TEST 2: real keys.
        #expect(Ed25519PointCheck.problem(Self.bytes("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")) == nil)
        #expect(Ed25519PointCheck.problem(Self.bytes("3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c")) == nil)
        for _ in 0..<20 {
            #expect(Ed25519PointCheck.problem(Array(Curve25519SigningKey.random())) == nil)
        }
        // y = p (the identity's y + p), and the identity with x's sign bit set.
        #expect(Ed25519PointCheck.problem(Self.bytes("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f")) == .nonCanonical)
        #expect(Ed25519PointCheck.problem(Self.bytes("0100000000000000000000000000000000000000000000000000000000000080")) == .nonCanonical)
        // A real key plus a point of order 2 (made in Python, independently of this code).
        #expect(Ed25519PointCheck.problem(Self.bytes("d1fcb80e6541516199ad0c050aa50911594370be7b71d9f0609978285e728e20")) == .notPrimeOrder)
        #expect(Ed25519PointCheck.problem(Self.bytes("b99e8306dda748a61e029a8a3f415b024a146cf0d98a98e1cf999661f967bdaf")) == .notOnCurve)
        #expect(Ed25519PointCheck.problem([1, 2, 3]) == .wrongLength)
    }

    /// The attack of the issue: enrol the identity (or any small-order point) as an Ed25519
    /// key, then sign in with R = identity, S = 0. Before the fix: 201, then 200 with tokens.
    @Test func smallOrderKeysAreRefusedAtEnrolment() async throws {
        let server = try await PasskeyTests.server()
        try await server.run { client in
            let token = try #require(try await client.signIn().string("token"))
            for point in Self.smallOrderPoints + ["d1fcb80e6541516199ad0c050aa50911594370be7b71d9f0609978285e728e20"] {
                server.clock.advance(by: 30)  // within the 10 enrolments a minute
                let attacker = SoftwarePasskeyAuthenticator(origin: Self.site, algorithm: .forgedEdDSA(publicKey: Self.bytes(point)))
                let reply = try await PasskeyTests.enrol(client, token: token, attacker)
                reply.expectFailure(.badRequest, "PASSKEY_INVALID")
                #expect(reply.error?.hasPrefix("Passkey not accepted: the EdDSA key is not a point of the prime-order group") == true, "\(point)")
                // And the forged sign-in finds nothing to sign in to.
                try await PasskeyTests.signIn(client, attacker).expectFailure(.unauthorized, "PASSKEY_INVALID")
            }
            #expect(try await PasskeyTests.passkeyCount(server) == 0)
        }
    }

    /// A small-order key stored before this change (planted directly in the table) signs nobody
    /// in: verification refuses such a key too.
    @Test func aForgedSignInFailsForAKeyStoredBefore() async throws {
        let server = try await PasskeyTests.server()
        try await server.run { client in
            let signedIn = try await client.signIn()
            let token = try #require(signedIn.string("token"))
            let userId = try #require((signedIn.data["user"] as? [String: Any])?["id"] as? String)
            let identity = Self.bytes(Self.smallOrderPoints[0])
            let attacker = SoftwarePasskeyAuthenticator(origin: Self.site, algorithm: .forgedEdDSA(publicKey: identity))
            // The options make the user's handle; the enrolment itself is refused.
            #expect(try await PasskeyTests.enrol(client, token: token, attacker).status == .badRequest)
            let planted = try #require(attacker.credentials.last)
            try await server.withDatabase { database in
                try await database.withConnection { db in
                    try await db.raw(
                        """
                        INSERT INTO passkeys (id, user_id, credential_id, public_key, sign_count, backed_up, name, created_at)
                        VALUES ('planted', \(bind: userId), \(bind: Data(planted.id).base64URLEncoded()),
                            \(bind: Data(planted.coseKey).base64URLEncoded()), 0, 1, 'door', 0)
                        """
                    ).run()
                }
            }
            let sessionsBefore = try await server.withDatabase { try await $0.count("sessions") }
            try await PasskeyTests.signIn(client, attacker).expectFailure(.unauthorized, "PASSKEY_INVALID", "Passkey not recognised")
            #expect(try await server.withDatabase { try await $0.count("sessions") } == sessionsBefore)
        }
    }

    /// An EC2 key off the curve, an RSA key with exponent 3 or under 2048 bits: 400.
    @Test func keysThatAreNoKeysAreRefused() async throws {
        let server = try await PasskeyTests.server()
        try await server.run { client in
            let token = try #require(try await client.signIn().string("token"))
            let modulus2048 = [0xC1] + (1..<256).map { _ in UInt8.random(in: .min ... .max) }
            let cases: [([UInt8], String)] = [
                (
                    CBORWriter.map([
                        (CBORWriter.int(1), CBORWriter.int(2)), (CBORWriter.int(3), CBORWriter.int(-7)),
                        (CBORWriter.int(-1), CBORWriter.int(1)), (CBORWriter.int(-2), CBORWriter.bytes([UInt8](repeating: 1, count: 32))),
                        (CBORWriter.int(-3), CBORWriter.bytes([UInt8](repeating: 1, count: 32))),
                    ]), "the public key is not a valid key"
                ),
                (Self.rsaKey(n: modulus2048, e: [3]), "the RS256 key's exponent 3 is not an odd number of at least 65537"),
                (Self.rsaKey(n: modulus2048, e: [1, 0, 0]), "the RS256 key's exponent 65536 is not an odd number of at least 65537"),
                (Self.rsaKey(n: Array(modulus2048.prefix(128)), e: [1, 0, 1]), "the RS256 key is smaller than 2048 bits (1024)"),
                // 256 bytes, but 2041 bits: counted in bits.
                (Self.rsaKey(n: [0x01] + modulus2048.dropFirst(), e: [1, 0, 1]), "the RS256 key is smaller than 2048 bits (2041)"),
            ]
            for (key, message) in cases {
                server.clock.advance(by: 30)
                var tampering = SoftwarePasskeyAuthenticator.Tampering()
                tampering.coseKey = key
                let reply = try await PasskeyTests.enrol(client, token: token, SoftwarePasskeyAuthenticator(origin: Self.site), tampering: tampering)
                reply.expectFailure(.badRequest, "PASSKEY_INVALID", "Passkey not accepted: \(message)")
            }
            #expect(try await PasskeyTests.passkeyCount(server) == 0)
        }
    }

    static func rsaKey(n: [UInt8], e: [UInt8]) -> [UInt8] {
        CBORWriter.map([
            (CBORWriter.int(1), CBORWriter.int(3)), (CBORWriter.int(3), CBORWriter.int(-257)),
            (CBORWriter.int(-1), CBORWriter.bytes(n)), (CBORWriter.int(-2), CBORWriter.bytes(e)),
        ])
    }

    /// 20 passkeys a user; the 21st is 409 at the options and at the end; concurrent
    /// enrolments past the limit: exactly one more is kept.
    @Test func aUserHasAtMostTwentyPasskeysEvenUnderARace() async throws {
        let server = try await PasskeyTests.server()
        try await server.run { client in
            let token = try #require(try await client.signIn().string("token"))
            for index in 0..<19 {
                if index % 9 == 8 { server.clock.advance(by: 61) }
                #expect(try await PasskeyTests.enrol(client, token: token, SoftwarePasskeyAuthenticator(origin: Self.site)).status == .created)
            }
            server.clock.advance(by: 61)
            // Five enrolments opened at 19, finished at once: one is kept.
            var bodies: [String] = []
            for _ in 0..<5 {
                let options = try PasskeyTests.decode(
                    try await client.send(.post, "/api/auth/passkeys/register/options", json: "{}", bearer: token),
                    as: PasskeyRegistrationOptions.self)
                let credential = try await SoftwarePasskeyAuthenticator(origin: Self.site).createPasskey(options.publicKey)
                bodies.append(try PasskeyTests.json(PasskeyRegistrationRequest(challengeId: options.challengeId, name: nil, credential: credential)))
            }
            let statuses = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
                for body in bodies {
                    group.addTask {
                        let reply = try await client.send(.post, "/api/auth/passkeys/register/verify", json: body, bearer: token)
                        return (reply.status.code, reply.code)
                    }
                }
                return try await group.reduce(into: [(Int, String?)]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0.0 == 201 }.count == 1, "\(statuses)")
            #expect(statuses.filter { $0.0 == 409 && $0.1 == "PASSKEY_LIMIT" }.count == 4, "\(statuses)")
            #expect(try await PasskeyTests.passkeyCount(server) == 20)
            try await client.send(.post, "/api/auth/passkeys/register/options", json: "{}", bearer: token)
                .expectFailure(
                    .conflict, "PASSKEY_LIMIT", "You have 20 passkeys, the most an account can have. Remove one to add another.")
        }
    }

    /// `register/options` is counted (10 a minute per user) and a user's open enrolments are
    /// capped at 5 (the oldest dropped): calls cannot fill the challenge table.
    @Test func enrolmentOptionsAreCountedAndTheirChallengesCapped() async throws {
        let server = try await PasskeyTests.server()
        try await server.run { client in
            let token = try #require(try await client.signIn().string("token"))
            var first: PasskeyRegistrationOptions?
            for _ in 0..<10 {
                let reply = try await client.send(.post, "/api/auth/passkeys/register/options", json: "{}", bearer: token)
                #expect(reply.status == .ok)
                if first == nil { first = try PasskeyTests.decode(reply, as: PasskeyRegistrationOptions.self) }
            }
            let limited = try await client.send(.post, "/api/auth/passkeys/register/options", json: "{}", bearer: token)
            limited.expectFailure(.tooManyRequests, "RATE_LIMITED")
            #expect(limited.headers[.retryAfter] != nil)
            #expect(try await server.withDatabase { try await $0.count("passkey_challenges", where: "purpose = 'registration'") } == 5)
            // The oldest was dropped: finishing it is refused as unknown.
            let dropped = try #require(first)
            let credential = try await SoftwarePasskeyAuthenticator(origin: Self.site).createPasskey(dropped.publicKey)
            try await client.send(
                .post, "/api/auth/passkeys/register/verify",
                json: try PasskeyTests.json(PasskeyRegistrationRequest(challengeId: dropped.challengeId, name: nil, credential: credential)),
                bearer: token
            ).expectFailure(.badRequest, "PASSKEY_INVALID", "Passkey not accepted: the challenge is unknown, expired or already used")
            // Another user's budget is their own.
            let engineer = try #require(try await client.signIn(DemoFixtures.engineerEmail, DemoFixtures.engineerPassword).string("token"))
            #expect(try await client.send(.post, "/api/auth/passkeys/register/options", json: "{}", bearer: engineer).status == .ok)
        }
    }
}

/// A fresh Ed25519 public key's bytes, as swift-crypto makes one.
enum Curve25519SigningKey {
    static func random() -> Data { Curve25519.Signing.PrivateKey().publicKey.rawRepresentation }
}
