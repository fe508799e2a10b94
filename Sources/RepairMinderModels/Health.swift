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

/// `GET /.well-known/apple-app-site-association` (docs/API.md §6, §11.4): the iOS apps this
/// domain vouches for, for passkeys (`webcredentials`) and for opening reset links (`applinks`).
public struct AppleAppSiteAssociation: Codable, Sendable, Equatable {
    public struct Apps: Codable, Sendable, Equatable {
        public var apps: [String]
    }
    public struct AppLinks: Codable, Sendable, Equatable {
        public var details: [Detail]
    }
    public struct Detail: Codable, Sendable, Equatable {
        public var appIDs: [String]
        /// URL patterns the apps open (`"/"`: a path pattern).
        public var components: [[String: String]]
    }
    public var webcredentials: Apps
    public var applinks: AppLinks

    /// The file for `appIds` (`TEAMID.bundle.id`), whose apps open `paths`.
    public init(appIds: [String], paths: [String]) {
        webcredentials = Apps(apps: appIds)
        applinks = AppLinks(details: appIds.isEmpty ? [] : [Detail(appIDs: appIds, components: paths.map { ["/": $0] })])
    }
}
