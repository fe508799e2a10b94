/// The claims of a staff access token (docs/API.md §2.6, seed 000).
public struct AccessTokenClaims: Codable, Sendable, Equatable {
    public var userId: String
    public var companyId: String
    public var role: UserRole
    public var phiAccessLevel: String?
    public var isMobile: Bool
    public var dataClassification: String?
    public var permissions: [String]
    /// Subject: the user id.
    public var sub: String
    /// The server-side session (token family) this token belongs to.
    public var sid: String
    /// Issued at, seconds since 1970.
    public var iat: Int
    /// Expires at, seconds since 1970.
    public var exp: Int
    /// How the session's user signed in (RFC 8176 values, docs/API.md §13.2); nil for a session
    /// started before the server recorded it.
    public var amr: [String]?
    /// `"enrol"` for a restricted session (docs/API.md §13.3); nil for full access.
    public var scope: String?

    public init(
        userId: String, companyId: String, role: UserRole, phiAccessLevel: String?, isMobile: Bool,
        dataClassification: String?, permissions: [String], sessionId: String, issuedAt: Int, expiresAt: Int,
        amr: [String]? = nil, scope: String? = nil
    ) {
        self.userId = userId
        self.companyId = companyId
        self.role = role
        self.phiAccessLevel = phiAccessLevel
        self.isMobile = isMobile
        self.dataClassification = dataClassification
        self.permissions = permissions
        self.sub = userId
        self.sid = sessionId
        self.iat = issuedAt
        self.exp = expiresAt
        self.amr = amr
        self.scope = scope
    }

    /// Whether the token is a restricted session's, good only for enrolment (docs/API.md §13.3).
    public var isEnrolmentOnly: Bool { scope == TokenScope.enrolment }
}
