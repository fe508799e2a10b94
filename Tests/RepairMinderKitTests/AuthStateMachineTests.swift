import Foundation
import RepairMinderKit
import RepairMinderModels
import RepairMinderServer
import Testing

/// `StaffAuth` and `CustomerAuth` through every flow, against the real server.
@MainActor
@Suite struct AuthStateMachineTests {
    /// The server requires step 1's `challengeToken`: the SDK always sends it (docs/API.md §2.3).
    @Test func staffPasswordAndEmailedCode() async throws {
        let server = try await LiveServer { $0.requireChallengeToken = true }
        try await server.run { url in
            let store = InMemoryCredentialStore()
            let auth = await StaffAuth(api: server.client(url, store: store))
            try await auth.login(email: "  admin@acme.test ", password: DemoFixtures.adminPassword)
            guard case .awaitingSecondFactor(let challenge) = await auth.state else { Issue.record("no challenge"); return }
            #expect(challenge.methods == [.email])
            try await auth.requestEmailCode()
            try await auth.verifySecondFactor(code: try await server.latestCode(to: DemoFixtures.adminEmail))
            guard case .signedIn(let me) = await auth.state else { Issue.record("not signed in"); return }
            #expect(me.user.email == DemoFixtures.adminEmail)
            #expect(me.hasPassword)
            #expect(try store.role() == .staff)

            // A fresh StaffAuth on the same store restores the session.
            let restored = await StaffAuth(api: server.client(url, store: store))
            try await restored.restoreSession()
            #expect(await restored.state == .signedIn(me))

            await auth.logout()
            #expect(await auth.state == .signedOut)
            #expect(try store.staffCredentials() == nil)
        }
    }

    @Test func staffMagicLinkAndWrongCode() async throws {
        let server = try await LiveServer()
        try await server.run { url in
            let auth = await StaffAuth(api: server.client(url))
            try await auth.requestMagicLink(email: "nopassword@acme.test")
            #expect(await auth.state == .awaitingMagicCode(email: "nopassword@acme.test"))
            await #expect(throws: APIError.unauthorized(message: "Invalid or expired code", code: .invalidCode)) {
                try await auth.verifyMagicCode("000000" == (try await server.latestCode(to: "nopassword@acme.test")) ? "111111" : "000000")
            }
            try await auth.verifyMagicCode(try await server.latestCode(to: "nopassword@acme.test"))
            guard case .signedIn(let me) = await auth.state else { Issue.record("not signed in"); return }
            #expect(me.hasPassword == false)
        }
    }

    @Test func logoutWithTheServerDownStillClearsLocalState() async throws {
        let server = try await LiveServer()
        let store = InMemoryCredentialStore()
        let box = URLBox()
        try await server.run { url in
            box.url = url
            let auth = await StaffAuth(api: server.client(url, store: store))
            try await auth.login(email: DemoFixtures.adminEmail, password: DemoFixtures.adminPassword)
            try await auth.requestEmailCode()
            try await auth.verifySecondFactor(code: try await server.latestCode(to: DemoFixtures.adminEmail))
        }
        // The server has stopped.
        let url = try #require(box.url)
        let offline = StaffAuth(api: server.client(url, store: store))
        try await offline.restoreSession()
        // Offline, the app still knows who is signed in, and where (issue 41).
        let cached = try #require(try store.staffProfile())
        #expect(cached.user.email == DemoFixtures.adminEmail)
        #expect(offline.state == .offline(cached))
        #expect(try store.staffCredentials() != nil)
        await offline.logout()
        #expect(offline.state == .signedOut)
        // Signing out forgets them.
        #expect(try store.staffProfile() == nil)
        #expect(try store.staffCredentials() == nil)
    }

    @Test func customerSingleAndMultiCompanyAndCancel() async throws {
        let server = try await LiveServer()
        try await server.run { url in
            let auth = await CustomerAuth(api: server.client(url))
            try await auth.requestCode(email: "jane@example.test")
            try await auth.verify(code: try await server.latestCode(to: "jane@example.test"))
            guard case .signedIn(let jane) = await auth.state else { Issue.record("not signed in"); return }
            #expect(jane.company.name == "Acme Repairs")
            await auth.logout()

            try await auth.requestCode(email: "multi@example.test")
            let code = try await server.latestCode(to: "multi@example.test")
            try await auth.verify(code: code)
            guard case .selectingCompany(let selection) = await auth.state else { Issue.record("no selection"); return }
            #expect(selection.companies.map(\.name) == ["Acme Repairs", "Beta Tech"])
            await auth.cancel()
            #expect(await auth.state == .signedOut)

            // The code is still good after cancelling: choose Beta Tech this time.
            try await auth.requestCode(email: "multi@example.test")
            try await auth.verify(code: try await server.latestCode(to: "multi@example.test"))
            guard case .selectingCompany(let again) = await auth.state else { Issue.record("no selection"); return }
            let beta = try #require(again.companies.first { $0.name == "Beta Tech" })
            try await auth.selectCompany(id: beta.id)
            guard case .signedIn(let multi) = await auth.state else { Issue.record("not signed in"); return }
            #expect(multi.company.id == beta.id)
            #expect(try await auth.api.store.role() == .customer)
        }
    }
}

extension AuthStateMachineTests {
    /// A step out of order throws the one sign-in flow error, from the customer flow too (issue 24):
    /// nothing is sent.
    @Test func stepsOutOfOrderThrowTheSignInFlowError() async throws {
        let transport = ScriptedTransport { _ in (500, "not expected", [:]) }
        let api = APIClient(baseURL: URL(string: "https://rm.example")!, store: InMemoryCredentialStore(), transport: transport)
        let staff = StaffAuth(api: api), customer = CustomerAuth(api: api)
        await #expect(throws: SignInFlowError.noLoginInProgress) { try await staff.verifySecondFactor(code: "123456") }
        await #expect(throws: SignInFlowError.noLoginInProgress) { try await staff.verifyMagicCode("123456") }
        await #expect(throws: SignInFlowError.noLoginInProgress) { try await customer.verify(code: "123456") }
        await #expect(throws: SignInFlowError.noLoginInProgress) { try await customer.selectCompany(id: "c1") }
        await #expect(throws: SignInFlowError.noLoginInProgress) { try await CustomerCodeViewModel(auth: customer).sendAgain() }
        #expect(transport.requests.isEmpty)
    }
}

final class URLBox: @unchecked Sendable {
    var url: URL?
}

extension AuthStateMachineTests {
    @Test func staffPasswordWithAuthenticatorAndRecoveryCode() async throws {
        let server = try await LiveServer()
        try await server.run { url in
            let api = server.client(url)
            let auth = await StaffAuth(api: api)
            try await auth.login(email: DemoFixtures.adminEmail, password: DemoFixtures.adminPassword)
            try await auth.requestEmailCode()
            try await auth.verifySecondFactor(code: try await server.latestCode(to: DemoFixtures.adminEmail))
            // Enrol an authenticator through the SDK's wrapped calls (issue 41), a wrong code first.
            let setup = try await auth.startAuthenticatorApp()
            let secret = try #require(Base32Test.decode(setup.secret))
            let now = TOTPTestCode.code(secret: secret, time: server.clock.now)
            await #expect(throws: APIError.self) { try await auth.confirmAuthenticatorApp(code: now == "000000" ? "111111" : "000000") }
            #expect(try await auth.authenticatorAppStatus().enabled == false)
            let recoveryCodes = try await auth.confirmAuthenticatorApp(code: " \(now) ")
            #expect(recoveryCodes.count == 10)
            #expect(await auth.recoveryCodesToAcknowledge == recoveryCodes)
            await auth.acknowledgeRecoveryCodes()
            #expect(try await auth.recoveryCodesRemaining() == 10)
            await auth.logout()

            // Next login asks for the app (no email: docs/API.md §11.1), and a code from it signs in.
            try await auth.login(email: DemoFixtures.adminEmail, password: DemoFixtures.adminPassword)
            guard case .awaitingSecondFactor(let challenge) = await auth.state else { Issue.record("no challenge"); return }
            #expect(challenge.methods == [.totp, .recoveryCode])
            #expect(try await auth.requestEmailCode() == "Enter the code from your authenticator app")
            server.clock.advance(by: 30)
            try await auth.verifySecondFactor(code: TOTPTestCode.code(secret: secret, time: server.clock.now))
            guard case .signedIn = await auth.state else { Issue.record("not signed in"); return }
            await auth.logout()

            // And a recovery code works too.
            try await auth.login(email: DemoFixtures.adminEmail, password: DemoFixtures.adminPassword)
            try await auth.verifySecondFactor(code: recoveryCodes[0])
            guard case .signedIn = await auth.state else { Issue.record("not signed in"); return }
            #expect(try await auth.recoveryCodesRemaining() == 9)

            // Turning it off: a spent recovery code is refused, an unused one (typed loosely) works.
            await #expect(throws: APIError.self) { try await auth.disableAuthenticatorApp(code: recoveryCodes[0]) }
            let unused = recoveryCodes[1]
            try await auth.disableAuthenticatorApp(code: unused.prefix(4).lowercased() + "-" + unused.dropFirst(4).lowercased())
            #expect(try await auth.authenticatorAppStatus() == TOTPStatusResponse(enabled: false, recoveryCodesRemaining: 0))
            #expect(try await auth.recoveryCodesRemaining() == 0)
            await #expect(throws: APIError.self) { try await auth.disableAuthenticatorApp(code: unused) }
        }
    }
}

/// RFC 6238 as an authenticator app computes it, written independently of the server's.
enum TOTPTestCode {
    static func code(secret: [UInt8], time: Double) -> String {
        var counter = UInt64(time / 30).bigEndian
        let message = withUnsafeBytes(of: &counter) { Array($0) }
        let mac = HMACSHA1.mac(key: secret, message: message)
        let offset = Int(mac[19] & 0x0F)
        let value = (UInt32(mac[offset] & 0x7F) << 24 | UInt32(mac[offset + 1]) << 16 | UInt32(mac[offset + 2]) << 8 | UInt32(mac[offset + 3])) % 1_000_000
        let text = String(value)
        return String(repeating: "0", count: 6 - text.count) + text
    }
}

/// base32 decoding for the test (RFC 4648).
enum Base32Test {
    static func decode(_ string: String) -> [UInt8]? {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        var bits = 0, buffer = 0
        var output: [UInt8] = []
        for character in string {
            guard let index = alphabet.firstIndex(of: character) else { return nil }
            buffer = (buffer << 5 | index) & 0xFFFF
            bits += 5
            if bits >= 8 {
                output.append(UInt8(buffer >> (bits - 8) & 0xFF))
                bits -= 8
            }
        }
        return output
    }
}

/// A plain SHA-1 HMAC (RFC 2104 / FIPS 180-4), so the test does not reuse the server's crypto path.
enum HMACSHA1 {
    static func mac(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var key = key.count > 64 ? sha1(key) : key
        key += [UInt8](repeating: 0, count: 64 - key.count)
        return sha1(key.map { $0 ^ 0x5C } + sha1(key.map { $0 ^ 0x36 } + message))
    }

    static func sha1(_ input: [UInt8]) -> [UInt8] {
        var h: [UInt32] = [0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0]
        var message = input + [0x80]
        while message.count % 64 != 56 { message.append(0) }
        let length = UInt64(input.count) * 8
        for shift in stride(from: 56, through: 0, by: -8) { message.append(UInt8(truncatingIfNeeded: length >> UInt64(shift))) }
        func rotl(_ x: UInt32, _ n: UInt32) -> UInt32 { x << n | x >> (32 - n) }
        for chunk in stride(from: 0, to: message.count, by: 64) {
            var w = (0..<16).map { i in
                (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(message[chunk + i * 4 + $1]) }
            }
            for i in 16..<80 { w.append(rotl(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1)) }
            var (a, b, c, d, e) = (h[0], h[1], h[2], h[3], h[4])
            for i in 0..<80 {
                let (f, k): (UInt32, UInt32) =
                    i < 20 ? ((b & c) | (~b & d), 0x5A827999) : i < 40 ? (b ^ c ^ d, 0x6ED9EBA1)
                    : i < 60 ? ((b & c) | (b & d) | (c & d), 0x8F1BBCDC) : (b ^ c ^ d, 0xCA62C1D6)
                let temp = rotl(a, 5) &+ f &+ e &+ k &+ w[i]
                (e, d, c, b, a) = (d, c, rotl(b, 30), a, temp)
            }
            h = [h[0] &+ a, h[1] &+ b, h[2] &+ c, h[3] &+ d, h[4] &+ e]
        }
        return h.flatMap { v in (0..<4).map { UInt8(truncatingIfNeeded: v >> UInt32(24 - $0 * 8)) } }
    }
}
