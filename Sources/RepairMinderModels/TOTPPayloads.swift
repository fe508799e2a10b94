/// `POST /api/auth/totp/setup`'s answer (docs/API.md §2.10): the pending secret, for manual entry,
/// and the `otpauth://` URL an authenticator app scans.
public struct TOTPSetupResponse: Codable, Sendable, Equatable {
    public var secret: String
    public var otpauthUrl: String
    public init(secret: String, otpauthUrl: String) {
        self.secret = secret
        self.otpauthUrl = otpauthUrl
    }
}

extension TOTPSetupResponse: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("secret", \.secret, .string(.init(pattern: "^[A-Z2-7]+=*$", description: "Base32, for manual entry"))),
        .init("otpauthUrl", \.otpauthUrl, .string(.init(format: "uri", pattern: "^otpauth://totp/"))),
    ]
    public static var schema: JSONSchema { .object(fields) }
    public static var example: TOTPSetupResponse {
        let secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
        return TOTPSetupResponse(
            secret: secret,
            otpauthUrl: "otpauth://totp/Repair%20Minder:admin@acme.test?secret=\(secret)"
                + "&issuer=Repair%20Minder&algorithm=SHA1&digits=6&period=30")
    }
}

/// The body of `verify-setup` and `disable`: a current TOTP code (or, to disable, a recovery code).
public struct TOTPCodeRequest: Codable, Sendable, Equatable {
    public var code: String
    public init(code: String) { self.code = code }
}

extension TOTPCodeRequest: WireRequest {
    public static var unknownFields: UnknownFields { .tolerated }
    public static let fields: [RequestField<Self>] = [.string("code", \.code, FieldRules.secondFactorCode)]
    public static var bodyDescription: String? {
        "verify-setup takes a current 6-digit code (anything else is a wrong code); disable also takes a recovery code"
    }
    public static var example: TOTPCodeRequest { TOTPCodeRequest(code: WireExample.code) }
}

/// `verify-setup`'s answer: the recovery codes, shown this once.
public struct TOTPEnabledResponse: Codable, Sendable, Equatable {
    public var enabled: Bool
    public var recoveryCodes: [String]
    public init(recoveryCodes: [String]) {
        enabled = true
        self.recoveryCodes = recoveryCodes
    }
}

extension TOTPEnabledResponse: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("enabled", \.enabled, .boolean),
        .init(
            "recoveryCodes", \.recoveryCodes,
            .array(.string(.init(pattern: "^[A-HJKMNP-Z2-9]{8}$", description: "Shown this once")))),
    ]
    public static var schema: JSONSchema { .object(fields) }
    public static var example: TOTPEnabledResponse {
        TOTPEnabledResponse(recoveryCodes: [
            "ABCD2345", "K7M9P3QX", "ZT4H8NWR", "F2J6Y9UV", "R3S8E5GB", "W9X2C4HM", "N6P7Q2TK", "V3Y8J5AD",
            "H4G7B2ZS", "U9E3R6WX",
        ])
    }
}

/// `disable`'s answer.
public struct TOTPDisabledResponse: Codable, Sendable, Equatable {
    public var enabled: Bool
    public init() { enabled = false }
}

extension TOTPDisabledResponse: WireObject {
    public static let fields: [ResponseField<Self>] = [.init("enabled", \.enabled, .boolean)]
    public static var schema: JSONSchema { .object(fields) }
    public static var example: TOTPDisabledResponse { TOTPDisabledResponse() }
}

/// `GET /api/auth/totp/status`'s answer.
public struct TOTPStatusResponse: Codable, Sendable, Equatable {
    public var enabled: Bool
    public var recoveryCodesRemaining: Int
    public init(enabled: Bool, recoveryCodesRemaining: Int) {
        self.enabled = enabled
        self.recoveryCodesRemaining = recoveryCodesRemaining
    }
}

extension TOTPStatusResponse: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("enabled", \.enabled, .boolean),
        .init("recoveryCodesRemaining", \.recoveryCodesRemaining, .integer(minimum: 0)),
    ]
    public static var schema: JSONSchema { .object(fields) }
    public static var example: TOTPStatusResponse { TOTPStatusResponse(enabled: true, recoveryCodesRemaining: 9) }
}
