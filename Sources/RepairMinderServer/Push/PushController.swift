import Foundation
import RepairMinderModels

/// Push device tokens and preferences (docs/API.md §5): staff under `/api/user/*`, customers
/// under `/api/customer/device-token`.
struct PushController {
    let tokens: DeviceTokenStore
    let preferences: PushPreferencesStore
    let clock: ServerClock

    func mount(on routes: RouteMounter) {
        routes.on(Routes.push.registerDeviceToken) { call in
            try await register(call, owner: try Self.staffOwner(call))
        }
        routes.on(Routes.push.unregisterDeviceToken) { call in
            try await tokens.remove(call.body.deviceToken, owner: try Self.staffOwner(call))
            return EmptyPayload()
        }
        routes.on(Routes.push.deviceTokens) { call in try await tokens.list(owner: try Self.staffOwner(call)) }
        routes.on(Routes.push.preferences) { call in try await preferences.preferences(userId: try call.staff.user.id) }
        routes.on(Routes.push.updatePreferences, use: updatePreferences)
        routes.on(Routes.push.registerCustomerDeviceToken) { call in
            try await register(call, owner: try Self.customerOwner(call))
        }
        routes.on(Routes.push.unregisterCustomerDeviceToken) { call in
            try await tokens.remove(call.body.deviceToken, owner: try Self.customerOwner(call))
            return EmptyPayload()
        }
    }

    private static func staffOwner<Body>(_ call: RouteCall<Body>) throws -> DeviceTokenOwner {
        let staff = try call.staff
        return DeviceTokenOwner(kind: .staff, id: staff.user.id, sessionId: staff.claims.sid)
    }

    private static func customerOwner<Body>(_ call: RouteCall<Body>) throws -> DeviceTokenOwner {
        let customer = try call.customer
        return DeviceTokenOwner(kind: .customer, id: customer.client.id, sessionId: customer.claims.sessionId)
    }

    /// Registers the body's token; its `appType` is this endpoint's (the route fixes it).
    private func register(_ call: RouteCall<DeviceTokenRegistration>, owner: DeviceTokenOwner) async throws
        -> RegisteredDeviceToken
    {
        let body = call.body
        return try await tokens.register(
            body.deviceToken, platform: body.platform, appType: body.appType, owner: owner, now: clock.now())
    }

    /// Changes the preferences the body names; the others keep their values.
    @Sendable func updatePreferences(_ call: RouteCall<PushPreferencesUpdate>) async throws -> PushPreferences {
        try await preferences.apply(call.body, userId: try call.staff.user.id, now: clock.now())
    }
}
