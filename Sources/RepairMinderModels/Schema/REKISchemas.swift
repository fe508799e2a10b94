/// REKI's contract (docs/API.md §10, seed 002).

extension REKIUser: WireType {
    public static var schema: JSONSchema {
        .object(
            [.init("id", .nonEmptyText), .init("email", .email), .init("createdAt", .timestamp)],
            description: "A REKI user")
    }
    public static var example: REKIUser {
        REKIUser(id: "7bdebd26-6626-4716-86d0-cce370e37b74", email: "test@example.com", createdAt: "2026-02-15T10:00:00.000Z")
    }
}

extension REKIAuthResponse: WireType {
    public static var schema: JSONSchema {
        .object(
            [.init("user", .ref(REKIUser.self)), .init("access_token", .jwt), .init("refresh_token", .nonEmptyText)],
            description: "A new REKI session: the user, a 15-minute access token and a refresh token")
    }
    public static var example: REKIAuthResponse {
        REKIAuthResponse(user: .example, accessToken: WireExample.accessToken, refreshToken: WireExample.refreshToken)
    }
}

extension REKITokenPair: WireType {
    public static var schema: JSONSchema {
        .object(
            [.init("access_token", .jwt), .init("refresh_token", .nonEmptyText)],
            description: "The rotated tokens: the refresh token sent is used up")
    }
    public static var example: REKITokenPair {
        REKITokenPair(accessToken: WireExample.accessToken, refreshToken: WireExample.refreshToken)
    }
}

extension REKIResetPasswordRequest: WireRequest {
    public static let fields: [RequestField<Self>] = [
        .string("token", \.token, FieldRules.resetToken),
        .string("newPassword", \.newPassword, FieldRules.newPassword),
    ]
    public static var example: REKIResetPasswordRequest {
        REKIResetPasswordRequest(
            token: "9f2c4e1a7b3d5f8e0c6a2b4d8f1e3a5c7b9d0e2f4a6c8b1d3e5f7a9c0b2d4e6f", newPassword: "violet kettle 1987 drum")
    }
}

extension REKIErrorBody: WireType {
    public static var schema: JSONSchema {
        .object(
            [
                .init("statusCode", .integer(minimum: 400, maximum: 599)),
                .init("message", .text),
                .init("timestamp", .timestamp),
            ],
            description: "Every REKI failure (seed 002's shape)")
    }
    public static var example: REKIErrorBody {
        REKIErrorBody(statusCode: 401, message: "Invalid credentials", timestamp: "2026-02-15T10:00:00.000Z")
    }
}
