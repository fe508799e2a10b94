import Foundation

/// The app configuration of `GET /api/config` (docs/API.md §6, seed 004): status lists, methods and
/// labels that clients show. The same file ships in this module's resources: the server serves
/// it and the SDK falls back to it offline.
public struct AppConfig: Codable, Sendable, Equatable {
    public var version: String
    public var generatedAt: String
    /// Device statuses per workflow (`repair`, `buyback`).
    public var deviceStatuses: [String: [ConfigOption]]
    public var orderStatuses: [ConfigOption]
    public var workflows: [String]
    public var paymentMethods: [ConfigOption]
    public var intakeMethods: [ConfigOption]
    public var carriers: [ConfigOption]
    public var priorities: [ConfigOption]
    public var conditionGrades: [ConfigOption]
    public var accessoryTypes: [ConfigOption]
    public var passcodeTypes: [ConfigOption]
    public var findMyStatuses: [ConfigOption]
    public var imageTypes: [ConfigOption]
    public var authorisationTypes: [ConfigOption]
    public var ticketStatuses: [ConfigOption]

    /// The bytes of the bundled `config.json`, exactly as shipped.
    public static func bundledJSON() throws -> Data {
        guard let url = Bundle.module.url(forResource: "config", withExtension: "json") else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try Data(contentsOf: url)
    }

    /// The bundled configuration, decoded.
    public static func bundled() throws -> AppConfig {
        try JSONDecoder().decode(AppConfig.self, from: bundledJSON())
    }
}

/// One entry of a configuration list: a machine `key` and a display `label`, plus the extras
/// some lists carry.
public struct ConfigOption: Codable, Sendable, Equatable {
    public var key: String
    public var label: String
    public var customerLabel: String?
    public var color: String?
    public var isTerminal: Bool?
    public var sortOrder: Int?
    public var description: String?
}
