/// One live staff session, as `GET /api/auth/sessions` lists it (docs/API.md §9.4).
public struct SessionInfo: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    /// The session the request was made with.
    public var current: Bool
    public var isMobile: Bool
    public var userAgent: String?
    public var ipAddress: String?
    /// ISO 8601 UTC.
    public var createdAt: String
    /// ISO 8601 UTC; moves at most once a minute.
    public var lastUsedAt: String?
    public init(
        id: String, current: Bool, isMobile: Bool, userAgent: String?, ipAddress: String?, createdAt: String, lastUsedAt: String?
    ) {
        self.id = id
        self.current = current
        self.isMobile = isMobile
        self.userAgent = userAgent
        self.ipAddress = ipAddress
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }

    enum CodingKeys: String, CodingKey {
        case id, current, isMobile, userAgent, ipAddress, createdAt, lastUsedAt
    }

    public func encode(to encoder: any Encoder) throws {
        // Explicit so unknown values are sent as `null`, not left out (docs/API.md §9.4 lists every key).
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(current, forKey: .current)
        try c.encode(isMobile, forKey: .isMobile)
        try c.encode(userAgent, forKey: .userAgent)
        try c.encode(ipAddress, forKey: .ipAddress)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(lastUsedAt, forKey: .lastUsedAt)
    }
}

/// `POST /api/auth/logout-others`' answer: how many sessions were revoked.
public struct RevokedSessionsResponse: Codable, Sendable, Equatable {
    public var revoked: Int
    public init(revoked: Int) { self.revoked = revoked }
}
