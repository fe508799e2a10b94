/// `POST /api/auth/password/forgot` body (docs/API.md §9.2).
public struct ForgotPasswordRequest: Codable, Sendable, Equatable {
    public var email: String
    public init(email: String) { self.email = email }
}

/// `POST /api/auth/password/reset` body (docs/API.md §9.2): the emailed code and the new password.
public struct ResetPasswordRequest: Codable, Sendable, Equatable {
    public var email: String
    public var code: String
    public var password: String
    public init(email: String, code: String, password: String) {
        self.email = email
        self.code = code
        self.password = password
    }
}

/// `PUT /api/users/me/password` body (docs/API.md §9.3). `currentPassword` is required when the
/// user has a password, ignored when they have none.
public struct ChangePasswordRequest: Codable, Sendable, Equatable {
    public var currentPassword: String?
    public var newPassword: String
    public init(currentPassword: String?, newPassword: String) {
        self.currentPassword = currentPassword
        self.newPassword = newPassword
    }
}
