/// Connected apps (docs/API.md §16.1): the OAuth 2 / OpenID Connect clients that sign people in
/// with Repair Minder. A shop's admins register the shop's own (`apps:manage`), which only its
/// staff can use; the platform's administrators register the platform's (`companies:manage`),
/// which any shop's staff can use. Another shop's app is 404.
extension Routes {
    public struct Apps: RouteFeature {
        public static let name = "Connected apps"
        static let uriRule = "Each redirect URI must be an absolute https:// URL with a host, or http:// to 127.0.0.1 or [::1]"
        static let shopRule = uriRule + "; a confidential or public app needs at least one; firstParty is for the platform's apps only"
        static let platformRule = uriRule + "; a confidential or public app needs at least one"

        public let shopApps = Route<EmptyPayload, [OAuthApp]>(
            .get, "/api/company/apps", .staff, "The shop's connected apps, newest first", permission: .appsManage)
        public let registerShopApp = Route<OAuthAppRegistration, OAuthApp>(
            .post, "/api/company/apps", .staff, "Register an app for the shop's staff (its secret is in this answer only)",
            permission: .appsManage, successStatus: 201, inputRuleBeyondSchema: shopRule, failures: [.appLimit])
        public let shopApp = Route<EmptyPayload, OAuthApp>(
            .get, "/api/company/apps/{id}", .staff, "One of the shop's apps", permission: .appsManage, failures: [.notFound])
        public let updateShopApp = Route<OAuthAppUpdate, OAuthApp>(
            .patch, "/api/company/apps/{id}", .staff, "Change a shop app's name, URIs or scopes", permission: .appsManage,
            inputRuleBeyondSchema: shopRule, failures: [.notFound])
        public let deleteShopApp = Route<EmptyPayload, EmptyPayload>(
            .delete, "/api/company/apps/{id}", .staff, "Delete a shop app: every token it was given ends",
            permission: .appsManage, failures: [.notFound])
        public let rotateShopAppSecret = Route<OAuthSecretRotation, OAuthApp>(
            .post, "/api/company/apps/{id}/secret", .staff, "Give a confidential shop app a new secret (in this answer only)",
            permission: .appsManage, failures: [.notFound, .appHasNoSecret])

        public let platformApps = Route<EmptyPayload, [OAuthApp]>(
            .get, "/api/admin/apps", .staff, "The platform's connected apps, newest first", permission: .companiesManage)
        public let registerPlatformApp = Route<OAuthAppRegistration, OAuthApp>(
            .post, "/api/admin/apps", .staff, "Register an app any shop's staff may use (its secret is in this answer only)",
            permission: .companiesManage, successStatus: 201, inputRuleBeyondSchema: platformRule, failures: [.appLimit])
        public let platformApp = Route<EmptyPayload, OAuthApp>(
            .get, "/api/admin/apps/{id}", .staff, "One of the platform's apps", permission: .companiesManage, failures: [.notFound])
        public let updatePlatformApp = Route<OAuthAppUpdate, OAuthApp>(
            .patch, "/api/admin/apps/{id}", .staff, "Change a platform app's name, URIs, scopes or first-party mark",
            permission: .companiesManage, inputRuleBeyondSchema: platformRule, failures: [.notFound])
        public let deletePlatformApp = Route<EmptyPayload, EmptyPayload>(
            .delete, "/api/admin/apps/{id}", .staff, "Delete a platform app: every token it was given ends",
            permission: .companiesManage, failures: [.notFound])
        public let rotatePlatformAppSecret = Route<OAuthSecretRotation, OAuthApp>(
            .post, "/api/admin/apps/{id}/secret", .staff, "Give a confidential platform app a new secret (in this answer only)",
            permission: .companiesManage, failures: [.notFound, .appHasNoSecret])

        public let authorizedApps = Route<EmptyPayload, [AuthorizedApp]>(
            .get, "/api/auth/apps", .staff, "The apps the caller allowed, newest first", quarantine: .allowed)
        public let withdrawApp = Route<EmptyPayload, RevokedSessionsResponse>(
            .delete, "/api/auth/apps/{clientId}", .staff, "Take back what the caller allowed an app: its sessions end at once",
            quarantine: .allowed, failures: [.notFound])
    }
    /// Connected apps: the routes of this feature.
    public static let apps = Apps()
}
