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

extension AppConfig: WireObject {
    /// One entry of a configuration list (`ConfigOption`); the extras appear only on some lists.
    private static var option: JSONSchema {
        .object([
            .init("key", .nonEmptyText),
            .init("label", .text),
            .init("customerLabel", .text, required: false),
            .init("color", .text, required: false),
            .init("isTerminal", .boolean, required: false),
            .init("sortOrder", .integer(), required: false),
            .init("description", .text, required: false),
        ])
    }

    private static var options: JSONSchema { .array(option) }

    public static let fields: [ResponseField<Self>] = [
        .init("version", \.version, .text),
        .init("generatedAt", \.generatedAt, .timestamp),
        .init(
            "deviceStatuses", \.deviceStatuses,
            .object(
                [.init("repair", options, required: false), .init("buyback", options, required: false)],
                description: "Device statuses per workflow, keyed by the values of `workflows`")),
        .init("orderStatuses", \.orderStatuses, options),
        .init("workflows", \.workflows, .array(.text)),
        .init("paymentMethods", \.paymentMethods, options),
        .init("intakeMethods", \.intakeMethods, options),
        .init("carriers", \.carriers, options),
        .init("priorities", \.priorities, options),
        .init("conditionGrades", \.conditionGrades, options),
        .init("accessoryTypes", \.accessoryTypes, options),
        .init("passcodeTypes", \.passcodeTypes, options),
        .init("findMyStatuses", \.findMyStatuses, options),
        .init("imageTypes", \.imageTypes, options),
        .init("authorisationTypes", \.authorisationTypes, options),
        .init("ticketStatuses", \.ticketStatuses, options),
    ]
    public static var schema: JSONSchema { .object(fields, description: "Statuses, methods and labels that clients show") }

    /// The configuration this module ships (`Resources/config.json`).
    public static var example: AppConfig { bundledExample }

    private static let bundledExample: AppConfig = {
        do {
            return try bundled()
        } catch {
            // The file is part of this module: failing to read it is a build defect, not bad input.
            fatalError("RepairMinderModels' bundled config.json does not decode as AppConfig: \(error)")
        }
    }()
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
