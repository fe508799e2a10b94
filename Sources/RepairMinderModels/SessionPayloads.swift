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
}

extension SessionInfo: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("id", \.id, .nonEmptyText),
        .init("current", \.current, .boolean),
        .init("isMobile", \.isMobile, .boolean),
        .init("userAgent", \.userAgent, .nullable(.text)),
        .init("ipAddress", \.ipAddress, .nullable(.text)),
        .init("createdAt", \.createdAt, .timestamp),
        .init("lastUsedAt", \.lastUsedAt, .nullable(.timestamp)),
    ]
    public static var schema: JSONSchema { .object(fields, description: "A live staff session (a signed-in device)") }
    public static var example: SessionInfo {
        SessionInfo(
            id: "7c1e9a3b-4d2f-4b8e-a6c5-0e9f3d2b1a74", current: true, isMobile: true,
            userAgent: "RepairMinder-iOS/1.0 (iPhone; iOS 18.0)", ipAddress: "203.0.113.7",
            createdAt: "2026-11-18T08:12:00Z", lastUsedAt: WireExample.timestamp)
    }
}

/// `POST /api/auth/logout-others`' answer: how many sessions were revoked.
public struct RevokedSessionsResponse: Codable, Sendable, Equatable {
    public var revoked: Int
    public init(revoked: Int) { self.revoked = revoked }
}

extension RevokedSessionsResponse: WireObject {
    public static let fields: [ResponseField<Self>] = [.init("revoked", \.revoked, .integer(minimum: 0))]
    public static var schema: JSONSchema { .object(fields) }
    public static var example: RevokedSessionsResponse { RevokedSessionsResponse(revoked: 3) }
}
