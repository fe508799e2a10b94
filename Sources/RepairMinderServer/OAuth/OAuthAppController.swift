import Foundation
import RepairMinderModels

/// The registry's routes (docs/API.md §16.1): the same handlers serve a shop's apps
/// (`/api/company/apps`, `apps:manage`) and the platform's (`/api/admin/apps`,
/// `companies:manage`), each reaching only its owner's apps.
struct OAuthAppController {
    let store: OAuthAppStore
    let grants: OAuthGrantStore
    let clock: ServerClock

    func mount(on routes: RouteMounter) {
        let apps = Routes.apps
        routes.on(apps.shopApps) { try await list(.shop(try $0.staff.company.id)) }
        routes.on(apps.shopApp) { try await show($0, owner: .shop(try $0.staff.company.id)) }
        routes.on(apps.registerShopApp) { try await register($0, owner: .shop(try $0.staff.company.id)) }
        routes.on(apps.updateShopApp) { try await update($0, owner: .shop(try $0.staff.company.id)) }
        routes.on(apps.deleteShopApp) { try await delete($0, owner: .shop(try $0.staff.company.id)) }
        routes.on(apps.rotateShopAppSecret) { try await rotate($0, owner: .shop(try $0.staff.company.id)) }
        routes.on(apps.platformApps) { _ in try await list(.platform) }
        routes.on(apps.platformApp) { try await show($0, owner: .platform) }
        routes.on(apps.registerPlatformApp) { try await register($0, owner: .platform) }
        routes.on(apps.updatePlatformApp) { try await update($0, owner: .platform) }
        routes.on(apps.deletePlatformApp) { try await delete($0, owner: .platform) }
        routes.on(apps.rotatePlatformAppSecret) { try await rotate($0, owner: .platform) }
        routes.on(apps.authorizedApps, use: authorized)
        routes.on(apps.withdrawApp, use: withdraw)
    }

    // MARK: The person's own (docs/API.md §16.3)

    @Sendable func authorized(_ call: RouteCall<EmptyPayload>) async throws -> [AuthorizedApp] {
        let staff = try call.staff
        return try await grants.consentedApps(userId: staff.user.id).map { granted in
            AuthorizedApp(
                clientId: granted.app.clientId, name: granted.app.name, owner: granted.owner, scopes: granted.scopes,
                grantedAt: Timestamp.iso8601(granted.grantedAt))
        }
    }

    @Sendable func withdraw(_ call: RouteCall<EmptyPayload>) async throws -> RevokedSessionsResponse {
        let staff = try call.staff
        guard let app = try await store.app(clientId: try call.parameter("clientId")),
            try await grants.consent(userId: staff.user.id, appId: app.id) != nil
        else { throw APIError.notFound }
        return RevokedSessionsResponse(
            revoked: try await grants.withdraw(userId: staff.user.id, appId: app.id, device: call.device, now: clock.now()))
    }

    func list(_ owner: OAuthAppOwner) async throws -> [OAuthApp] {
        let now = clock.now()
        return try await store.list(owner).map { $0.wire(now: now) }
    }

    func show(_ call: RouteCall<EmptyPayload>, owner: OAuthAppOwner) async throws -> OAuthApp {
        try await store.app(try call.parameter("id"), of: owner).wire(now: clock.now())
    }

    func register(_ call: RouteCall<OAuthAppRegistration>, owner: OAuthAppOwner) async throws -> OAuthApp {
        var body = call.body
        body.redirectUris = try Self.checked(body.redirectUris, "redirectUris", required: true)
        body.postLogoutRedirectUris = try body.postLogoutRedirectUris.map { try Self.checked($0, "postLogoutRedirectUris", required: false) }
        try Self.checkScopes(body.scopes)
        try Self.checkFirstParty(body.firstParty, owner: owner)
        let now = clock.now()
        let (app, secret) = try await store.register(body, for: owner, by: try call.staff, now: now)
        return app.wire(secret: secret, now: now)
    }

    func update(_ call: RouteCall<OAuthAppUpdate>, owner: OAuthAppOwner) async throws -> OAuthApp {
        var body = call.body
        body.redirectUris = try body.redirectUris.map { try Self.checked($0, "redirectUris", required: true) }
        body.postLogoutRedirectUris = try body.postLogoutRedirectUris.map { try Self.checked($0, "postLogoutRedirectUris", required: false) }
        if let scopes = body.scopes { try Self.checkScopes(scopes) }
        try Self.checkFirstParty(body.firstParty, owner: owner)
        let now = clock.now()
        return try await store.update(try call.parameter("id"), of: owner, with: body, by: try call.staff, now: now).wire(now: now)
    }

    func delete(_ call: RouteCall<EmptyPayload>, owner: OAuthAppOwner) async throws -> EmptyPayload {
        try await store.delete(try call.parameter("id"), of: owner, by: try call.staff, now: clock.now())
        return EmptyPayload()
    }

    func rotate(_ call: RouteCall<OAuthSecretRotation>, owner: OAuthAppOwner) async throws -> OAuthApp {
        let overlap = call.body.previousSecretValidSeconds ?? OAuthAppRules.defaultOverlapSeconds
        let now = clock.now()
        let (app, secret) = try await store.rotateSecret(
            try call.parameter("id"), of: owner, overlap: Double(overlap), by: try call.staff, now: now)
        return app.wire(secret: secret, now: now)
    }

    // MARK: Rules beyond the schema

    /// `uris` each registrable (`OAuthRedirectURI.problem`), each once, in the order sent;
    /// at least one when `required` (an app signing people in must be able to send them back).
    static func checked(_ uris: [String], _ name: String, required: Bool) throws -> [String] {
        if required, uris.isEmpty { throw APIError.validation("\(name) needs at least one URI") }
        for uri in uris {
            if let problem = OAuthRedirectURI.problem(uri) { throw APIError.validation("\(name): \(problem)") }
        }
        var seen = Set<String>()
        return uris.filter { seen.insert($0).inserted }
    }

    static func checkScopes(_ scopes: [String]) throws {
        if scopes.isEmpty { throw APIError.validation("scopes needs at least one scope (openid, to sign people in)") }
    }

    static func checkFirstParty(_ firstParty: Bool?, owner: OAuthAppOwner) throws {
        if firstParty == true, owner != .platform {
            throw APIError.validation("firstParty is for the platform's own apps only: a shop's apps always ask for consent")
        }
    }
}
