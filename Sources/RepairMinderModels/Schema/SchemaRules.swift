/// Field schemas shared by several response types. A request's fields take theirs from their
/// `StringRule` (`Validation/FieldRules.swift`), so the server checks what is documented.
extension JSONSchema {
    /// Login step 1's `challengeToken`, sent back with steps 2 and 3 (docs/API.md §2.3).
    static var challengeToken: JSONSchema { FieldRules.challengeToken.schema }

    /// A signed access token.
    static var jwt: JSONSchema { .string(StringRules(minLength: 1, description: "JWT (HS256)")) }

    /// An absolute URL.
    static var url: JSONSchema { .string(StringRules(format: "uri")) }
}

/// Values the examples share, so that ids agree between objects (a user's `company_id` is its
/// company's `id`).
enum WireExample {
    static let userId = "3f6c2a9e-1b7d-4c58-9e2a-6d1f0b8c4a27"
    static let companyId = "8a1d4e6b-2c3f-4a9b-b7e5-0f9c3d2a1e64"
    static let otherCompanyId = "c47e9b2d-5a1f-4e8c-9d36-7b2a0e4f1c85"
    static let clientId = "e29b7c4a-6d3e-4f1a-8b5c-2a9d0f7e3b16"
    static let invitationId = "0193a4c2-7d1e-7b3a-9f20-4c8e1d2a6b57"
    static let invitationToken = "9f2c4e1a7b3d5f8e0c6a2b4d9e1f3a5c7b8d0e2f4a6c8e1b3d5f7a9c0e2b4d6f"
    static let deviceTokenId = "5d8e3f1a-7c2b-4e9d-a6f4-1b0c9e2d7a53"
    static let staffEmail = "admin@acme.test"
    static let customerEmail = "jane@customer.test"
    static let code = "482913"
    static let timestamp = "2026-11-20T10:00:00Z"
    static let accessToken =
        "eyJhbGciOiJIUzI1NiIsImtpZCI6ImsxIiwidHlwIjoiSldUIn0"
        + ".eyJzdWIiOiIzZjZjMmE5ZS0xYjdkLTRjNTgtOWUyYS02ZDFmMGI4YzRhMjciLCJleHAiOjE3OTU2ODQ0MDB9"
        + ".Zq3t8cX1yJ0n4r7VbQm2pW9eL6sK5dA1hG0fT3uY8iE"
    static let refreshToken = "q9Zr4LwT2xVb7NcY1mKs8HdP3fJg6RtE0aUo5iWe-Q_"
    static let challengeToken = "Xk2vN8pQ4rT6wY0aC3eG5iL7nR9sU1xZ_bD-fH2jM4o"
    static let deviceToken = "a3f1c9e07b2d4f6881c5e9d3b7a2f0e4c8d1b6a9e3f7c2d5b0a4e8f1c6d9b3a7"
    static let appId = "0193b2d4-5e6f-7a81-9b2c-3d4e5f6a7b8c"
    static let oauthClientId = "rmapp_Vb7NcY1mKs8HdP3fJg6RtE"
    static let oauthClientSecret = "rmsec_4LwT2xVb7NcY1mKs8HdP3fJg6RtE0aUo5iWe-Q_q9Zr"
    static let logoURL = "https://api.acme.test/api/branding/\(companyId)/logo"
}
