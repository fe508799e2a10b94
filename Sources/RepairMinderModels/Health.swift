/// `GET /api/health`'s data (docs/API.md §6).
public struct HealthResponse: Codable, Sendable, Equatable {
    /// `ok`, or `unavailable` when the database does not answer.
    public var status: String
    public var version: String
    public var database: String
    public init(status: String, version: String, database: String) {
        self.status = status
        self.version = version
        self.database = database
    }
}
