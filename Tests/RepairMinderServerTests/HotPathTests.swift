import Foundation
import RepairMinderModels
import Testing

@testable import RepairMinderServer

/// The pieces the authenticated request path was made faster with (issue 18) keep their
/// guarantees: the bearer header is read as before, a remembered token still expires, and the
/// memory of verified tokens is bounded.
@Suite struct HotPathTests {
    @Test(arguments: [
        ("Bearer abc.def.ghi", "abc.def.ghi"), ("bearer abc", "abc"), ("BEARER   abc \t", "abc"),
        ("Basic abc", nil), ("Bearer ", nil), ("Bearer    ", nil), ("Bearerabc", nil), ("Bearer\tabc", nil), ("Bearer\u{0}abc", nil), ("", nil),
        ("Bearer " + String(repeating: "a", count: 4097), nil),
    ] as [(String, String?)])
    func theBearerHeaderIsReadAsBefore(header: String, token: String?) {
        #expect(BearerToken.from(header: header) == token)
    }

    @Test func aRememberedTokenStillExpires() async throws {
        let signer = try await TokenSigner.forTests()
        let claims = AccessTokenClaims(
            userId: "u1", companyId: "c1", role: .admin, phiAccessLevel: nil, isMobile: false, dataClassification: nil,
            permissions: [], sessionId: "s1", issuedAt: 1_000, expiresAt: 1_900)
        let token = try await signer.sign(claims)
        #expect(try await signer.verify(token, as: AccessTokenClaims.self, now: 1_500) == claims)
        #expect(signer.verified.count == 1)
        // Remembered, and still refused once its time is up.
        await #expect(throws: TokenSigner.VerificationError.expired) {
            _ = try await signer.verify(token, as: AccessTokenClaims.self, now: 1_901)
        }
        // Remembered as a staff token only: as a customer token it is checked, and refused by its audience.
        await #expect(throws: TokenSigner.VerificationError.malformed) {
            _ = try await signer.verify(token, as: CustomerTokenClaims.self, now: 1_500)
        }
        // A token one character off is not the remembered one (a character inside the
        // signature: the last one also carries padding bits a decoder may drop).
        var altered = Array(token)
        altered[altered.count - 10] = altered[altered.count - 10] == "A" ? "B" : "A"
        await #expect(throws: TokenSigner.VerificationError.self) {
            _ = try await signer.verify(String(altered), as: AccessTokenClaims.self, now: 1_500)
        }
    }

    @Test func verifiedTokensAreBounded() {
        let memory = VerifiedTokens(capacity: 3)
        for index in 0..<10 { memory.remember("claims \(index)", of: "token \(index)") }
        #expect(memory.count <= 3)
        #expect(memory.claims(of: "token 9", as: String.self) == "claims 9")
        #expect(memory.claims(of: "token 0", as: String.self) == nil)
    }
}
