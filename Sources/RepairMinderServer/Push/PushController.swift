import Foundation
import Hummingbird
import RepairMinderModels

/// Push device tokens and preferences (API.md §5): staff under `/api/user/*`, customers under
/// `/api/customer/device-token`.
struct PushController {
    let services: AuthServices

    private var tokens: DeviceTokenStore { DeviceTokenStore(database: services.database) }
    private var settings: ServerSettings { services.settings }

    func addRoutes(to router: Router<AppRequestContext>) {
        router.group("api/user")
            .add(middleware: StaffAuthenticator(services: services))
            .post("device-token") { request, context in
                try await register(request, owner: try staffOwner(context), appType: .staff)
            }
            .delete("device-token") { request, context in try await remove(request, owner: try staffOwner(context)) }
            .get("device-tokens") { _, context in Response.envelope(try await tokens.list(owner: try staffOwner(context))) }
            .get("push-preferences", use: preferences)
            .put("push-preferences", use: updatePreferences)
        router.group("api/customer")
            .add(middleware: CustomerAuthenticator(services: services))
            .post("device-token") { request, context in
                try await register(request, owner: try customerOwner(context), appType: .customer)
            }
            .delete("device-token") { request, context in try await remove(request, owner: try customerOwner(context)) }
    }

    private func staffOwner(_ context: AppRequestContext) throws -> DeviceTokenOwner {
        let staff = try context.requireStaff()
        return DeviceTokenOwner(kind: .staff, id: staff.user.id, sessionId: staff.claims.sid)
    }

    private func customerOwner(_ context: AppRequestContext) throws -> DeviceTokenOwner {
        let customer = try context.requireCustomer()
        return DeviceTokenOwner(kind: .customer, id: customer.client.id, sessionId: customer.claims.sessionId)
    }

    /// Registers the body's token; `appType` must be the one of this endpoint's app.
    private func register(_ request: Request, owner: DeviceTokenOwner, appType expected: PushAppType) async throws -> Response {
        let body = try await JSONBody(request: request, limit: settings.maxBodySize)
        let token = try Self.deviceToken(from: body)
        let platform = try body.oneOf("platform", PushPlatform.self)
        let appType = try body.oneOf("appType", PushAppType.self)
        guard appType == expected else { throw APIError.validation("appType must be \"\(expected.rawValue)\" on this endpoint") }
        let registered = try await tokens.register(
            token, platform: platform, appType: appType, owner: owner, now: services.clock.now())
        return .envelope(registered)
    }

    private func remove(_ request: Request, owner: DeviceTokenOwner) async throws -> Response {
        let body = try await JSONBody(request: request, limit: settings.maxBodySize)
        try await tokens.remove(try Self.deviceToken(from: body), owner: owner)
        return .bareSuccess
    }

    private static func deviceToken(from body: JSONBody) throws -> String {
        let token = try body.string("deviceToken")
        guard token.utf8.count <= 512 else { throw APIError.validation("deviceToken is too long") }
        return token
    }

    @Sendable func preferences(_ request: Request, context: AppRequestContext) async throws -> Response {
        let staff = try context.requireStaff()
        return .envelope(try await PushPreferencesStore(database: services.database).preferences(userId: staff.user.id))
    }

    /// Changes the preferences the body names; the others keep their values.
    @Sendable func updatePreferences(_ request: Request, context: AppRequestContext) async throws -> Response {
        let staff = try context.requireStaff()
        let body = try await JSONBody(request: request, limit: settings.maxBodySize)
        let store = PushPreferencesStore(database: services.database)
        var preferences = try await store.preferences(userId: staff.user.id)
        // Validate every field before changing anything.
        let enabled = try body.optionalBool("enabled"), orders = try body.optionalBool("orders")
        let devices = try body.optionalBool("devices"), enquiries = try body.optionalBool("enquiries")
        let payments = try body.optionalBool("payments")
        if let enabled { preferences.enabled = enabled }
        if let orders { preferences.orders = orders }
        if let devices { preferences.devices = devices }
        if let enquiries { preferences.enquiries = enquiries }
        if let payments { preferences.payments = payments }
        try await store.save(preferences, userId: staff.user.id, now: services.clock.now())
        return .envelope(preferences)
    }
}
