import Foundation
import RepairMinderModels

/// Connected apps (docs/API.md §16.1): the OAuth 2 / OpenID Connect clients that sign people in
/// with Repair Minder. `.shop` reaches the signed-in admin's shop's apps (`apps:manage`);
/// `.platform` the platform's, which any shop's staff may use (`companies:manage`). Without the
/// permission every call is `APIError.server` with `FORBIDDEN`; another owner's app is
/// `NOT_FOUND`.
public struct ConnectedAppsClient: Sendable {
    /// Whose apps the client reaches.
    public enum Owner: Sendable {
        case shop, platform
    }

    public let api: APIClient
    public let owner: Owner

    public init(api: APIClient, owner: Owner = .shop) {
        self.api = api
        self.owner = owner
    }

    /// The apps, newest first. Secrets are never listed.
    public func apps() async throws -> [OAuthApp] {
        try await api.send(owner == .shop ? Routes.apps.shopApps : Routes.apps.platformApps)
    }

    public func app(_ id: String) async throws -> OAuthApp {
        try await api.send(owner == .shop ? Routes.apps.shopApp : Routes.apps.platformApp, path: [id])
    }

    /// Registers an app. A confidential app's `clientSecret` is in this answer and never again:
    /// hand it to the app now. At most 25 apps per owner (`APP_LIMIT`); a redirect URI that is
    /// not https:// (or loopback http:// for a native app) is `VALIDATION_ERROR`.
    public func register(_ app: OAuthAppRegistration) async throws -> OAuthApp {
        try await api.send(owner == .shop ? Routes.apps.registerShopApp : Routes.apps.registerPlatformApp, app)
    }

    /// Changes the fields `change` names; the others keep their value.
    public func update(_ id: String, _ change: OAuthAppUpdate) async throws -> OAuthApp {
        try await api.send(owner == .shop ? Routes.apps.updateShopApp : Routes.apps.updatePlatformApp, change, path: [id])
    }

    /// Deletes the app: it can sign nobody in from now on.
    public func delete(_ id: String) async throws {
        _ = try await api.send(owner == .shop ? Routes.apps.deleteShopApp : Routes.apps.deletePlatformApp, path: [id])
    }

    /// A new secret for a confidential app, in the answer's `clientSecret` (only there). The
    /// replaced one keeps working for `previousSecretValidSeconds` (a day when nil; 0 after a
    /// leak). A public app has none: `APP_HAS_NO_SECRET`.
    public func rotateSecret(_ id: String, previousSecretValidSeconds: Int? = nil) async throws -> OAuthApp {
        try await api.send(
            owner == .shop ? Routes.apps.rotateShopAppSecret : Routes.apps.rotatePlatformAppSecret,
            OAuthSecretRotation(previousSecretValidSeconds: previousSecretValidSeconds), path: [id])
    }

    /// The apps the signed-in person allowed to sign them in, newest first (any staff member,
    /// whatever `owner` is).
    public func authorized() async throws -> [AuthorizedApp] {
        try await api.send(Routes.apps.authorizedApps)
    }

    /// Takes back what the signed-in person allowed app `clientId`: its sessions end at once and
    /// it asks again next time. How many sessions ended; `NOT_FOUND` for an app never allowed.
    @discardableResult
    public func withdraw(_ clientId: String) async throws -> Int {
        try await api.send(Routes.apps.withdrawApp, path: [clientId]).revoked
    }
}
