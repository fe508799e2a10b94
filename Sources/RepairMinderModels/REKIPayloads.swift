/// The wire types of REKI's contract (docs/API.md §10, seed 002). Its answers are not enveloped,
/// and its token fields are snake_case because seed 002's client declares them so
/// (`access_token`); its requests reuse `LoginRequest`, `RefreshRequest`,
/// `ForgotPasswordRequest` and `MessageResponse`, whose shapes are the same.

/// A REKI user as every REKI answer shows it.
public struct REKIUser: Codable, Sendable, Equatable {
    public var id: String
    public var email: String
    /// ISO 8601, with milliseconds.
    public var createdAt: String
    public init(id: String, email: String, createdAt: String) {
        self.id = id
        self.email = email
        self.createdAt = createdAt
    }
}

extension REKIUser: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("id", \.id, .nonEmptyText), .init("email", \.email, .email), .init("createdAt", \.createdAt, .timestamp)
    ]
    public static var schema: JSONSchema { .object(fields, description: "A REKI user") }
    public static var example: REKIUser {
        REKIUser(id: "7bdebd26-6626-4716-86d0-cce370e37b74", email: "test@example.com", createdAt: "2026-02-15T10:00:00.000Z")
    }
}

/// `POST /auth/register` (201) and `POST /auth/login` (200): the user and a new session's tokens.
public struct REKIAuthResponse: Codable, Sendable, Equatable {
    public var user: REKIUser
    public var accessToken: String
    public var refreshToken: String
    public init(user: REKIUser, accessToken: String, refreshToken: String) {
        self.user = user
        self.accessToken = accessToken
        self.refreshToken = refreshToken
    }

    enum CodingKeys: String, CodingKey {
        case user, accessToken = "access_token", refreshToken = "refresh_token"
    }

    /// The two tokens without the user.
    public var tokens: REKITokenPair { REKITokenPair(accessToken: accessToken, refreshToken: refreshToken) }
}

extension REKIAuthResponse: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("user", \.user, .ref(REKIUser.self)), .init("access_token", \.accessToken, .jwt), .init("refresh_token", \.refreshToken, .nonEmptyText)
    ]
    public static var schema: JSONSchema {
        .object(fields, description: "A new REKI session: the user, a 15-minute access token and a refresh token")
    }
    public static var example: REKIAuthResponse {
        REKIAuthResponse(user: .example, accessToken: WireExample.accessToken, refreshToken: WireExample.refreshToken)
    }
}

/// `POST /auth/refresh`: the rotated pair.
public struct REKITokenPair: Codable, Sendable, Equatable {
    public var accessToken: String
    public var refreshToken: String
    public init(accessToken: String, refreshToken: String) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token", refreshToken = "refresh_token"
    }
}

extension REKITokenPair: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("access_token", \.accessToken, .jwt), .init("refresh_token", \.refreshToken, .nonEmptyText)
    ]
    public static var schema: JSONSchema { .object(fields, description: "The rotated tokens: the refresh token sent is used up") }
    public static var example: REKITokenPair {
        REKITokenPair(accessToken: WireExample.accessToken, refreshToken: WireExample.refreshToken)
    }
}

/// `POST /auth/reset-password` body: the token from the emailed link and the new password.
public struct REKIResetPasswordRequest: Codable, Sendable, Equatable {
    public var token: String
    public var newPassword: String
    public init(token: String, newPassword: String) {
        self.token = token
        self.newPassword = newPassword
    }
}

extension REKIResetPasswordRequest: WireRequest {
    public static var unknownFields: UnknownFields { .tolerated }
    public static let fields: [RequestField<Self>] = [
        .string("token", \.token, FieldRules.resetToken),
        .string("newPassword", \.newPassword, FieldRules.newPassword),
    ]
    public static var example: REKIResetPasswordRequest {
        REKIResetPasswordRequest(
            token: "9f2c4e1a7b3d5f8e0c6a2b4d8f1e3a5c7b9d0e2f4a6c8b1d3e5f7a9c0b2d4e6f", newPassword: "violet kettle 1987 drum")
    }
}

/// `DELETE /auth/me` body (docs/API.md §10): the account's password, asked again.
public struct REKIDeleteAccountRequest: Codable, Sendable, Equatable {
    public var password: String
    public init(password: String) { self.password = password }
}

extension REKIDeleteAccountRequest: WireRequest {
    public static var unknownFields: UnknownFields { .tolerated }
    public static let fields: [RequestField<Self>] = [.string("password", \.password, FieldRules.secret)]
    /// Not a demo password: trying the example must not delete the account schemathesis uses.
    public static var example: REKIDeleteAccountRequest { REKIDeleteAccountRequest(password: "not the password") }
}

/// Every REKI failure: `{"statusCode": 401, "message": "Invalid credentials", "timestamp": "..."}`.
public struct REKIErrorBody: Codable, Sendable, Equatable {
    public var statusCode: Int
    public var message: String
    /// ISO 8601 with milliseconds, UTC.
    public var timestamp: String
    public init(statusCode: Int, message: String, timestamp: String) {
        self.statusCode = statusCode
        self.message = message
        self.timestamp = timestamp
    }
}

extension REKIErrorBody: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("statusCode", \.statusCode, .integer(minimum: 400, maximum: 599)),
        .init("message", \.message, .text),
        .init("timestamp", \.timestamp, .timestamp),
    ]
    public static var schema: JSONSchema { .object(fields, description: "Every REKI failure (seed 002's shape)") }
    public static var example: REKIErrorBody {
        REKIErrorBody(statusCode: 401, message: "Invalid credentials", timestamp: "2026-02-15T10:00:00.000Z")
    }
}

/// The claims of a REKI access token (docs/API.md §10): seed 002's `{email, sub, iat, exp}`
/// and the session (`sid`) that logout ends.
public struct REKITokenClaims: Codable, Sendable, Equatable {
    public var email: String
    /// The REKI user's id.
    public var sub: String
    public var sid: String
    public var iat: Int
    public var exp: Int
    public init(email: String, userId: String, sessionId: String, issuedAt: Int, expiresAt: Int) {
        self.email = email
        sub = userId
        sid = sessionId
        iat = issuedAt
        exp = expiresAt
    }
}
