/// `GET /api/health`'s data (docs/API.md §6).
public struct HealthResponse: Codable, Sendable, Equatable {
    /// `ok`; `unavailable` when the database does not answer; `draining` once the instance began
    /// shutting down.
    public var status: String
    public var version: String
    /// `ok` or `unavailable`; nil (absent) on `/livez`, which does not ask the database.
    public var database: String?
    public init(status: String, version: String, database: String?) {
        self.status = status
        self.version = version
        self.database = database
    }
}

/// Endpoints anyone may call (docs/API.md §6) and the logo files of §3.2.

extension HealthResponse: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("status", \.status, .oneOf(["ok", "unavailable", "draining"])),
        .init("version", \.version, .string(.init(description: "Semantic version of the server"))),
        .init("database", \.database, .oneOf(["ok", "unavailable"]), required: false),
    ]
    public static var schema: JSONSchema { .object(fields) }
    public static var example: HealthResponse { HealthResponse(status: "ok", version: "1.0.0", database: "ok") }
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

extension AppleAppSiteAssociation: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("webcredentials", \.webcredentials, .object([.init("apps", .array(.nonEmptyText))])),
        .init(
            "applinks", \.applinks,
            .object([
                .init(
                    "details",
                    .array(.object([.init("appIDs", .array(.nonEmptyText)), .init("components", .array(.anything))])))
            ])),
    ]
    public static var schema: JSONSchema {
        .object(fields, description: "Apple's app-site association: the apps that may use this domain's passkeys and open its links")
    }
    public static var example: AppleAppSiteAssociation {
        AppleAppSiteAssociation(appIds: ["ABCDE12345.com.repairminder.app"], paths: ["/reset-password"])
    }
}
