/// Push device tokens and preferences (docs/API.md §5).

extension DeviceTokenRegistration: WireRequest {
    public static let fields: [RequestField<Self>] = [
        .string("deviceToken", \.deviceToken, FieldRules.deviceToken),
        .decoded("platform", .cases(of: PushPlatform.self)),
        .decoded("appType", .cases(of: PushAppType.self)),
    ]
    public static var example: DeviceTokenRegistration {
        DeviceTokenRegistration(deviceToken: WireExample.deviceToken, platform: .ios, appType: .staff)
    }
}

extension RegisteredDeviceToken: WireType {
    public static var schema: JSONSchema {
        .object([
            .init("id", .nonEmptyText),
            .init("deviceToken", .nonEmptyText),
            .init("platform", .cases(of: PushPlatform.self)),
            .init("appType", .cases(of: PushAppType.self)),
        ])
    }
    public static var example: RegisteredDeviceToken {
        RegisteredDeviceToken(
            id: WireExample.deviceTokenId, deviceToken: WireExample.deviceToken, platform: .ios, appType: .staff)
    }
}

extension DeviceTokenRemoval: WireRequest {
    public static let fields: [RequestField<Self>] = [.string("deviceToken", \.deviceToken, FieldRules.deviceToken)]
    public static var example: DeviceTokenRemoval { DeviceTokenRemoval(deviceToken: WireExample.deviceToken) }
}

extension PushPreferences: WireType {
    public static var schema: JSONSchema {
        .object([
            .init("enabled", .boolean),
            .init("orders", .boolean),
            .init("devices", .boolean),
            .init("enquiries", .boolean),
            .init("payments", .boolean),
        ])
    }
    public static var example: PushPreferences { PushPreferences(enquiries: false) }
}

extension PushPreferencesUpdate: WireRequest {
    /// Booleans only: a present `null` is refused by decoding like any other non-boolean.
    public static let fields: [RequestField<Self>] = ["enabled", "orders", "devices", "enquiries", "payments"].map {
        .decoded($0, .boolean, required: false)
    }
    public static var bodyDescription: String? { "The preferences to change; absent ones keep their value" }
    public static var example: PushPreferencesUpdate { PushPreferencesUpdate(enquiries: false) }
}
