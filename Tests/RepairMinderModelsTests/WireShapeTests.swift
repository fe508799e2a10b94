import Foundation
import RepairMinderModels
import Testing

/// The wire types encode exactly docs/API.md's shapes and decode the tolerant variants.
@Suite struct WireShapeTests {
    static let user = StaffUser(
        id: "u1", email: "a@b.test", firstName: "Ada", lastName: nil, companyId: "c1", role: .seniorEngineer,
        phiAccessLevel: "full", dataClassification: "internal", isActive: true, magicLinkEnabled: false,
        companyStatus: "active", lastLogin: nil, createdAt: "2026-11-20T10:00:00Z", updatedAt: "2026-11-20T10:00:00Z")

    static func object(_ value: some Encodable) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(value)) as? [String: Any])
    }

    @Test func staffUserIsSnakeCaseWithIntegerBooleans() throws {
        let json = try Self.object(Self.user)
        #expect(Set(json.keys) == [
            "id", "email", "first_name", "last_name", "company_id", "role", "phi_access_level", "data_classification",
            "is_active", "magic_link_enabled", "company_status", "last_login", "created_at", "updated_at",
        ])
        #expect(json["is_active"] as? Int == 1)
        #expect(json["magic_link_enabled"] as? Int == 0)
        #expect(json["role"] as? String == "senior_engineer")
        #expect(json["last_name"] is NSNull)
    }

    @Test func staffUserDecodesBooleansEitherWay() throws {
        for (active, expected) in [("1", true), ("0", false), ("true", true), ("false", false)] {
            let json = #"{"id":"u","email":"e@x.test","company_id":"c","role":"office","is_active":\#(active)}"#
            let user = try JSONDecoder().decode(StaffUser.self, from: Data(json.utf8))
            #expect(user.isActive == expected)
        }
    }

    @Test func companyIsSnakeCaseWithNulls() throws {
        let company = Company(
            id: "c1", name: "Acme", status: .pendingApproval, currencyCode: "GBP", vatNumber: nil, logoUrl: nil,
            vatRateRepair: "20.00", vatRateDeviceSale: "20.00", vatRateAccessory: "20.00", vatRateDevicePurchase: "0.00")
        let json = try Self.object(company)
        #expect(json["status"] as? String == "pending_approval")
        #expect(json["logo_url"] is NSNull)
        #expect(json["vat_rate_device_purchase"] as? String == "0.00")
        #expect(json.count == 10)
    }

    @Test func authPayloadsAreCamelCase() throws {
        let login = try Self.object(
            LoginChallengeResponse(
                userId: "u", email: "e", user: .init(id: "u", email: "e", firstName: "F", lastName: "L", companyId: "c"),
                methods: [.email], challengeToken: "t"))
        #expect(login["requiresTwoFactor"] as? Bool == true)
        #expect((login["user"] as? [String: Any])?["companyId"] as? String == "c")
        let refresh = try Self.object(RefreshResponse(token: "t", refreshToken: "r", expiresIn: 900))
        #expect(Set(refresh.keys) == ["token", "refreshToken", "expiresIn"])
    }

    @Test func envelopesHaveTheirThreeForms() throws {
        #expect(NSDictionary(dictionary: try Self.object(ErrorEnvelope.bareSuccess)) == ["success": true])
        #expect(
            NSDictionary(dictionary: try Self.object(ErrorEnvelope.failure(message: "m", code: ErrorCode(rawValue: "C"))))
                == ["success": false, "error": "m", "code": "C"])
        let ok = try Self.object(Envelope.ok(MessageResponse(message: "hi")))
        #expect((ok["data"] as? [String: Any])?["message"] as? String == "hi")
        #expect(ok["error"] == nil)
    }
}

/// base64url as WebAuthn and JOSE write it (RFC 4648 §5), through ExtrasBase64.
@Suite struct Base64URLTests {
    @Test func encodesWithoutPaddingAndDecodesEitherWay() {
        #expect(Data([0xfb, 0xff]).base64URLEncoded() == "-_8")
        #expect(Data("foobar".utf8).base64URLEncoded() == "Zm9vYmFy")
        #expect(Data(base64URLEncoded: "-_8") == Data([0xfb, 0xff]))
        #expect(Data(base64URLEncoded: "-_8=") == Data([0xfb, 0xff]))
        #expect(Data(base64URLEncoded: "Zm9vYg") == Data("foob".utf8))
        #expect(Data(base64URLEncoded: "") == Data())
        // The standard alphabet's characters, a lone character and junk are not base64url.
        #expect(Data(base64URLEncoded: "+/8") == nil)
        #expect(Data(base64URLEncoded: "Zm9vY") == nil)
        #expect(Data(base64URLEncoded: "Zm9v YmFy") == nil)
        let random = Data((0..<1000).map { _ in UInt8.random(in: 0...255) })
        #expect(Data(base64URLEncoded: random.base64URLEncoded()) == random)
    }
}
