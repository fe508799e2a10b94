/// Push device tokens and preferences (docs/API.md §5).
extension Routes {
    public struct Push: RouteFeature {
        public static let name = "Push"
        public let registerDeviceToken = Route<DeviceTokenRegistration, RegisteredDeviceToken>(
            .post, "/api/user/device-token", .staff, "Register this device for staff notifications",
            fixedFields: ["appType": PushAppType.staff.rawValue])
        public let unregisterDeviceToken = Route<DeviceTokenRemoval, EmptyPayload>(
            .delete, "/api/user/device-token", .staff, "Stop notifications to this device")
        public let deviceTokens = Route<EmptyPayload, [RegisteredDeviceToken]>(
            .get, "/api/user/device-tokens", .staff, "The caller's registered devices")
        public let preferences = Route<EmptyPayload, PushPreferences>(
            .get, "/api/user/push-preferences", .staff, "Which notifications the caller wants")
        public let updatePreferences = Route<PushPreferencesUpdate, PushPreferences>(
            .put, "/api/user/push-preferences", .staff, "Change the preferences the body names")
        public let registerCustomerDeviceToken = Route<DeviceTokenRegistration, RegisteredDeviceToken>(
            .post, "/api/customer/device-token", .customer, "Register this device for customer notifications",
            fixedFields: ["appType": PushAppType.customer.rawValue])
        public let unregisterCustomerDeviceToken = Route<DeviceTokenRemoval, EmptyPayload>(
            .delete, "/api/customer/device-token", .customer, "Stop customer notifications to this device")
    }
    /// Push: the routes of this feature.
    public static let push = Push()
}
