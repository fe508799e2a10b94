import Foundation
import Hummingbird
import RepairMinderModels

/// Connected apps (docs/API.md §15.6, §16.1): a shop admin's apps at `/apps` ("Connected apps",
/// `apps:manage`), the platform's at `/admin/apps` ("Apps", `companies:manage`): the list, the
/// registration form, a new secret, deletion after a confirmation. Each action is the API route's
/// own handler; a secret is shown on the page that made it, once.
struct ConsoleAppPages: Sendable {
    let console: Console
    let controller: OAuthAppController

    /// The two consoles of apps: whose, where, and the routes they call.
    struct Kind: Sendable {
        let path: String
        let title: String
        let platform: Bool
        let list: Route<EmptyPayload, [OAuthApp]>
        let register: Route<OAuthAppRegistration, OAuthApp>
        let rotate: Route<OAuthSecretRotation, OAuthApp>
        let delete: Route<EmptyPayload, EmptyPayload>

        func owner(_ staff: AuthenticatedStaff) -> OAuthAppOwner { platform ? .platform : .shop(staff.company.id) }
    }

    static let shop = Kind(
        path: "/apps", title: "Connected apps", platform: false, list: Routes.apps.shopApps, register: Routes.apps.registerShopApp,
        rotate: Routes.apps.rotateShopAppSecret, delete: Routes.apps.deleteShopApp)
    static let platform = Kind(
        path: "/admin/apps", title: "Apps", platform: true, list: Routes.apps.platformApps, register: Routes.apps.registerPlatformApp,
        rotate: Routes.apps.rotatePlatformAppSecret, delete: Routes.apps.deletePlatformApp)

    func mount(on pages: ConsoleMounting) {
        for kind in [Self.shop, Self.platform] {
            pages.get(kind.path) { try await show(kind, $0) }
            pages.post(kind.path) { try await register(kind, $0, $1) }
            pages.post(kind.path + "/:id/secret") { page, _ in
                let app = try await console.call(kind.rotate, page, body: OAuthSecretRotation()) {
                    try await controller.rotate($0, owner: kind.owner(try $0.staff))
                }
                return try await show(kind, page, made: app)
            }
            pages.get(kind.path + "/:id/delete") { try await confirmDelete(kind, $0) }
            pages.post(kind.path + "/:id/delete") { page, _ in
                _ = try await console.call(kind.delete, page, body: EmptyPayload()) {
                    try await controller.delete($0, owner: kind.owner(try $0.staff))
                }
                return console.redirect(kind.path + "?notice=saved")
            }
        }
    }

    struct AppsPage {
        struct Row {
            let id: String
            let name: String
            let type: String
            let clientId: String
            let redirectUris: String
            let scopes: String
            let firstParty: Bool
            let confidential: Bool
        }
        struct Scope {
            let name: String
            let checked: Bool
        }
        let path: String
        let apps: [Row]
        let hasApps: Bool
        let platform: Bool
        /// The app just registered or given a new secret, with the secret, shown this once.
        let made: Made?
        let name: String
        let redirectUris: String
        let confidential: Bool
        let scopes: [Scope]
    }

    struct Made {
        let name: String
        let clientId: String
        let secret: String
    }

    private func show(
        _ kind: Kind, _ page: ConsolePageRequest, made: OAuthApp? = nil, form: ConsoleForm? = nil, problem: String? = nil,
        status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let apps = try await console.call(kind.list, page, body: EmptyPayload()) { try await controller.list(kind.owner(try $0.staff)) }
        let chosen = Set((form?.fields ?? [:]).keys.filter { $0.hasPrefix("scope:") }.map { String($0.dropFirst(6)) })
        let view = AppsPage(
            path: Console.root + kind.path,
            apps: apps.map {
                .init(
                    id: $0.id, name: $0.name, type: $0.type.rawValue, clientId: $0.clientId, redirectUris: $0.redirectUris.joined(separator: " "),
                    scopes: $0.scopes.joined(separator: " "), firstParty: $0.firstParty, confidential: $0.type == .confidential)
            },
            hasApps: !apps.isEmpty, platform: kind.platform,
            made: made.flatMap { app in app.clientSecret.map { Made(name: app.name, clientId: app.clientId, secret: $0) } },
            name: form?.text("name") ?? "", redirectUris: form?.text("redirectUris") ?? "",
            confidential: (form?.text("type") ?? "confidential") == "confidential",
            scopes: OAuthScope.all.map { .init(name: $0, checked: form == nil ? $0 == "openid" : chosen.contains($0)) })
        return console.templates.page(
            "apps", page.view(kind.title, current: Console.root + kind.path, page: view, problem: problem,
                              notice: page.request.uri.queryParameters.get("notice").flatMap { ConsoleNotice.text(String($0)) }),
            status: status)
    }

    private func register(_ kind: Kind, _ page: ConsolePageRequest, _ form: ConsoleForm) async throws -> Response {
        let uris = form.text("redirectUris").split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        let scopes = OAuthScope.all.filter { form["scope:" + $0] != nil }
        let registration = OAuthAppRegistration(
            name: form.text("name"), type: form.text("type") == "public" ? .public : .confidential, redirectUris: uris, scopes: scopes,
            firstParty: kind.platform && form["firstParty"] != nil ? true : nil)
        do {
            let app = try await console.call(kind.register, page, body: registration) {
                try await controller.register($0, owner: kind.owner(try $0.staff))
            }
            return try await show(kind, page, made: app, status: .created)
        } catch let error as APIError where error.status.code < 500 && error.code != .rateLimited {
            return try await show(kind, page, form: form, problem: error.message, status: error.status)
        }
    }

    private func confirmDelete(_ kind: Kind, _ page: ConsolePageRequest) async throws -> Response {
        let apps = try await console.call(kind.list, page, body: EmptyPayload()) { try await controller.list(kind.owner(try $0.staff)) }
        guard let app = apps.first(where: { $0.id == page.parameter("id") }) else { throw APIError.notFound }
        let confirmation = ConsoleListing.Confirmation(
            question: "Delete \(app.name)?",
            consequence: "It can no longer sign anyone in, and every session it was given ends now.",
            action: "\(Console.root)\(kind.path)/\(app.id)/delete", button: "Delete the app", back: Console.root + kind.path)
        return console.templates.page("confirm", page.view(confirmation.question, current: Console.root + kind.path, page: confirmation))
    }
}
