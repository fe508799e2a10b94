import Foundation

/// Endpoints anyone may call (docs/API.md §6) and the logo files of §3.2.

extension HealthResponse: WireType {
    public static var schema: JSONSchema {
        .object([
            .init("status", .oneOf(["ok", "unavailable"])),
            .init("version", .string(.init(description: "Semantic version of the server"))),
            .init("database", .oneOf(["ok", "unavailable"])),
        ])
    }
    public static var example: HealthResponse { HealthResponse(status: "ok", version: "1.0.0", database: "ok") }
}

extension AppConfig: WireType {
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

    public static var schema: JSONSchema {
        let options = JSONSchema.array(option)
        return .object(
            [
                .init("version", .text),
                .init("generatedAt", .timestamp),
                .init(
                    "deviceStatuses",
                    .object(
                        [.init("repair", options, required: false), .init("buyback", options, required: false)],
                        description: "Device statuses per workflow, keyed by the values of `workflows`")),
                .init("orderStatuses", options),
                .init("workflows", .array(.text)),
                .init("paymentMethods", options),
                .init("intakeMethods", options),
                .init("carriers", options),
                .init("priorities", options),
                .init("conditionGrades", options),
                .init("accessoryTypes", options),
                .init("passcodeTypes", options),
                .init("findMyStatuses", options),
                .init("imageTypes", options),
                .init("authorisationTypes", options),
                .init("ticketStatuses", options),
            ],
            description: "Statuses, methods and labels that clients show")
    }

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

extension BinaryFile: WireType {
    /// The body is the file's bytes, not JSON; its media type is the route's.
    public static var schema: JSONSchema { .string(.init(format: "binary")) }
    public static var example: BinaryFile {
        // The 8-byte PNG signature and the start of an IHDR chunk.
        BinaryFile(
            data: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52]),
            contentType: "image/png")
    }
}

extension AppleAppSiteAssociation: WireType {
    public static var schema: JSONSchema {
        .object(
            [
                .init("webcredentials", .object([.init("apps", .array(.nonEmptyText))])),
                .init(
                    "applinks",
                    .object([
                        .init(
                            "details",
                            .array(
                                .object([.init("appIDs", .array(.nonEmptyText)), .init("components", .array(.anything))])))
                    ])),
            ], description: "Apple's app-site association: the apps that may use this domain's passkeys and open its links")
    }
    public static var example: AppleAppSiteAssociation {
        AppleAppSiteAssociation(appIds: ["ABCDE12345.com.repairminder.app"], paths: ["/reset-password"])
    }
}
