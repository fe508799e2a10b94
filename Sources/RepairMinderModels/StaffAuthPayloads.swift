/// `POST /api/auth/login` body.
public struct LoginRequest: Codable, Sendable, Equatable {
    public var email: String
    public var password: String
    public init(email: String, password: String) {
        self.email = email
        self.password = password
    }
}

/// The camelCase user summary inside the login step-1 answer.
public struct LoginUserSummary: Codable, Sendable, Equatable {
    public var id: String
    public var email: String
    public var firstName: String?
    public var lastName: String?
    public var companyId: String
    public init(id: String, email: String, firstName: String?, lastName: String?, companyId: String) {
        self.id = id
        self.email = email
        self.firstName = firstName
        self.lastName = lastName
        self.companyId = companyId
    }
}

/// A second factor a user can complete login with.
public enum TwoFactorMethod: String, Codable, Sendable, CaseIterable {
    case email
    case totp
}

/// Login step 1's answer: the password was right, a second factor is required (docs/API.md §2.1).
public struct LoginChallengeResponse: Codable, Sendable, Equatable {
    public var requiresTwoFactor: Bool
    public var userId: String
    public var email: String
    public var user: LoginUserSummary
    public var twoFactorMethods: [TwoFactorMethod]?
    /// Binds steps 2 and 3 to this answer (docs/API.md §2.3); send it back with both.
    public var challengeToken: String?
    public init(
        userId: String, email: String, user: LoginUserSummary, twoFactorMethods: [TwoFactorMethod], challengeToken: String?
    ) {
        self.requiresTwoFactor = true
        self.userId = userId
        self.email = email
        self.user = user
        self.twoFactorMethods = twoFactorMethods
        self.challengeToken = challengeToken
    }
}

/// `POST /api/auth/2fa/request` body.
public struct TwoFactorCodeRequest: Codable, Sendable, Equatable {
    public var userId: String
    public var email: String
    /// Step 1's `challengeToken`; optional for seed clients, always sent by the SDK.
    public var challengeToken: String?
    public init(userId: String, email: String, challengeToken: String? = nil) {
        self.userId = userId
        self.email = email
        self.challengeToken = challengeToken
    }
}

/// `POST /api/auth/2fa/verify` body.
public struct TwoFactorVerifyRequest: Codable, Sendable, Equatable {
    public var userId: String
    public var code: String
    /// Step 1's `challengeToken`; optional for seed clients, always sent by the SDK.
    public var challengeToken: String?
    public init(userId: String, code: String, challengeToken: String? = nil) {
        self.userId = userId
        self.code = code
        self.challengeToken = challengeToken
    }
}

/// `POST /api/auth/magic-link/request` body.
public struct MagicLinkRequest: Codable, Sendable, Equatable {
    public var email: String
    public init(email: String) { self.email = email }
}

/// `POST /api/auth/magic-link/verify-code` body.
public struct MagicLinkVerifyRequest: Codable, Sendable, Equatable {
    public var email: String
    public var code: String
    public init(email: String, code: String) {
        self.email = email
        self.code = code
    }
}

/// `POST /api/auth/refresh` body.
public struct RefreshRequest: Codable, Sendable, Equatable {
    public var refreshToken: String
    public init(refreshToken: String) { self.refreshToken = refreshToken }
}

/// A completed staff sign-in: tokens plus who signed in (docs/API.md §2.3, §2.5).
public struct StaffTokenResponse: Codable, Sendable, Equatable {
    public var token: String
    public var refreshToken: String
    public var expiresIn: Int
    public var user: StaffUser
    public var company: Company
    public init(token: String, refreshToken: String, expiresIn: Int, user: StaffUser, company: Company) {
        self.token = token
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
        self.user = user
        self.company = company
    }
}

/// `POST /api/auth/refresh`'s answer (docs/API.md §2.7).
public struct RefreshResponse: Codable, Sendable, Equatable {
    public var token: String
    public var refreshToken: String
    public var expiresIn: Int
    public init(token: String, refreshToken: String, expiresIn: Int) {
        self.token = token
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
    }
}

/// `GET /api/auth/me`'s answer (docs/API.md §2.8).
public struct StaffMeResponse: Codable, Sendable, Equatable {
    public var user: StaffUser
    public var company: Company
    public var hasPassword: Bool
    public init(user: StaffUser, company: Company, hasPassword: Bool) {
        self.user = user
        self.company = company
        self.hasPassword = hasPassword
    }
}
