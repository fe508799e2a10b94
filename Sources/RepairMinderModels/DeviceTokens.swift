/// The platform a push device token belongs to. A registration must name a known one (400
/// otherwise); a listed token of a platform this version does not know is `unknown`.
public enum PushPlatform: WireEnum {
    case ios
    case android
    /// A platform this version does not know (a newer server's list); never accepted in a registration.
    case unknown(String)

    /// The values this version knows: the OpenAPI document lists these.
    public static let allCases: [PushPlatform] = [.ios, .android]

    /// The value as the wire spells it.
    public var rawValue: String {
        switch self {
        case .ios: "ios"
        case .android: "android"
        case .unknown(let raw): raw
        }
    }
}

/// Which app registered a device token: decides which notifications it gets.
public enum PushAppType: WireEnum {
    case staff
    case customer
    /// An app this version does not know (a newer server's list); never accepted in a registration.
    case unknown(String)

    /// The values this version knows: the OpenAPI document lists these.
    public static let allCases: [PushAppType] = [.staff, .customer]

    /// The value as the wire spells it.
    public var rawValue: String {
        switch self {
        case .staff: "staff"
        case .customer: "customer"
        case .unknown(let raw): raw
        }
    }
}

/// `POST /api/user/device-token` and `/api/customer/device-token` body (docs/API.md §5).
public struct DeviceTokenRegistration: Codable, Sendable, Equatable {
    public var deviceToken: String
    public var platform: PushPlatform
    public var appType: PushAppType
    public init(deviceToken: String, platform: PushPlatform, appType: PushAppType) {
        self.deviceToken = deviceToken
        self.platform = platform
        self.appType = appType
    }
}

extension DeviceTokenRegistration: WireRequest {
    public static var unknownFields: UnknownFields { .tolerated }
    public static let fields: [RequestField<Self>] = [
        .string("deviceToken", \.deviceToken, FieldRules.deviceToken),
        .decoded("platform", .cases(of: PushPlatform.self)),
        .decoded("appType", .cases(of: PushAppType.self)),
    ]
    public static var example: DeviceTokenRegistration {
        DeviceTokenRegistration(deviceToken: WireExample.deviceToken, platform: .ios, appType: .staff)
    }
}

/// A registered device token, as answered by registration and the list.
public struct RegisteredDeviceToken: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    public var deviceToken: String
    public var platform: PushPlatform
    public var appType: PushAppType
    public init(id: String, deviceToken: String, platform: PushPlatform, appType: PushAppType) {
        self.id = id
        self.deviceToken = deviceToken
        self.platform = platform
        self.appType = appType
    }
}

extension RegisteredDeviceToken: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("id", \.id, .nonEmptyText),
        .init("deviceToken", \.deviceToken, .nonEmptyText),
        .init("platform", \.platform, .cases(of: PushPlatform.self)),
        .init("appType", \.appType, .cases(of: PushAppType.self)),
    ]
    public static var schema: JSONSchema { .object(fields) }
    public static var example: RegisteredDeviceToken {
        RegisteredDeviceToken(
            id: WireExample.deviceTokenId, deviceToken: WireExample.deviceToken, platform: .ios, appType: .staff)
    }
}

/// `DELETE .../device-token` body.
public struct DeviceTokenRemoval: Codable, Sendable, Equatable {
    public var deviceToken: String
    public init(deviceToken: String) { self.deviceToken = deviceToken }
}

extension DeviceTokenRemoval: WireRequest {
    public static var unknownFields: UnknownFields { .tolerated }
    public static let fields: [RequestField<Self>] = [.string("deviceToken", \.deviceToken, FieldRules.deviceToken)]
    public static var example: DeviceTokenRemoval { DeviceTokenRemoval(deviceToken: WireExample.deviceToken) }
}

/// Which staff notifications a user wants (docs/API.md §5).
public struct PushPreferences: Codable, Sendable, Equatable {
    public var enabled: Bool
    public var orders: Bool
    public var devices: Bool
    public var enquiries: Bool
    public var payments: Bool
    public init(enabled: Bool = true, orders: Bool = true, devices: Bool = true, enquiries: Bool = true, payments: Bool = true) {
        self.enabled = enabled
        self.orders = orders
        self.devices = devices
        self.enquiries = enquiries
        self.payments = payments
    }
}

extension PushPreferences: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("enabled", \.enabled, .boolean),
        .init("orders", \.orders, .boolean),
        .init("devices", \.devices, .boolean),
        .init("enquiries", \.enquiries, .boolean),
        .init("payments", \.payments, .boolean),
    ]
    public static var schema: JSONSchema { .object(fields) }
    public static var example: PushPreferences { PushPreferences(enquiries: false) }
}

/// `PUT /api/user/push-preferences` body: the preferences to change; absent ones keep their value.
public struct PushPreferencesUpdate: Codable, Sendable, Equatable {
    public var enabled: Bool?
    public var orders: Bool?
    public var devices: Bool?
    public var enquiries: Bool?
    public var payments: Bool?
    public init(enabled: Bool? = nil, orders: Bool? = nil, devices: Bool? = nil, enquiries: Bool? = nil, payments: Bool? = nil) {
        self.enabled = enabled
        self.orders = orders
        self.devices = devices
        self.enquiries = enquiries
        self.payments = payments
    }

    private enum CodingKeys: String, CodingKey { case enabled, orders, devices, enquiries, payments }

    /// A present `null` is refused like any other non-boolean: leaving a preference as it is
    /// means leaving its key out.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func flag(_ key: CodingKeys) throws -> Bool? {
            guard container.contains(key) else { return nil }
            if try container.decodeNil(forKey: key) {
                throw DecodingError.typeMismatch(
                    Bool.self, .init(codingPath: container.codingPath + [key], debugDescription: "null is not a boolean"))
            }
            return try container.decode(Bool.self, forKey: key)
        }
        self.init(
            enabled: try flag(.enabled), orders: try flag(.orders), devices: try flag(.devices),
            enquiries: try flag(.enquiries), payments: try flag(.payments))
    }

    /// Every preference set to `preferences`' value.
    public init(_ preferences: PushPreferences) {
        self.init(
            enabled: preferences.enabled, orders: preferences.orders, devices: preferences.devices,
            enquiries: preferences.enquiries, payments: preferences.payments)
    }
}

extension PushPreferencesUpdate: WireRequest {
    public static var unknownFields: UnknownFields { .tolerated }
    /// Booleans only: a present `null` is refused by decoding like any other non-boolean.
    public static let fields: [RequestField<Self>] = ["enabled", "orders", "devices", "enquiries", "payments"].map {
        .decoded($0, .boolean, required: false)
    }
    public static var bodyDescription: String? { "The preferences to change; absent ones keep their value" }
    public static var example: PushPreferencesUpdate { PushPreferencesUpdate(enquiries: false) }
}
