/// Push device tokens and preferences (docs/API.md §5).

extension DeviceTokenRegistration: WireType {
    public static var schema: JSONSchema {
        .object([
            .init("deviceToken", .nonEmptyText(maxLength: 512)),
            .init("platform", .cases(of: PushPlatform.self)),
            .init("appType", .cases(of: PushAppType.self)),
        ])
    }
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

extension DeviceTokenRemoval: WireType {
    public static var schema: JSONSchema { .object([.init("deviceToken", .nonEmptyText(maxLength: 512))]) }
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

extension PushPreferencesUpdate: WireType {
    public static var schema: JSONSchema {
        .object(
            [
                .init("enabled", .boolean, required: false),
                .init("orders", .boolean, required: false),
                .init("devices", .boolean, required: false),
                .init("enquiries", .boolean, required: false),
                .init("payments", .boolean, required: false),
            ],
            description: "The preferences to change; absent ones keep their value")
    }
    public static var example: PushPreferencesUpdate { PushPreferencesUpdate(enquiries: false) }
}
