import Foundation
import Hummingbird
import RepairMinderModels

/// The web console at `/console/` (docs/API.md §15.6): server-rendered pages for shop admins,
/// platform administrators and every staff member's own account, calling the API's controllers.
/// Mounted beside the route table, as the pages mail links to are.
struct ConsoleController: Sendable {
    let console: Console
    let signIn: ConsoleSignIn
    let team: ConsoleTeamPages
    let shops: ConsoleShopPages
    let platform: ConsolePlatformPages
    let account: ConsoleAccountPages
    let clients: ConsoleClientPages
    let policy: ConsolePolicyPages
    let apps: ConsoleAppPages

    func mount(on router: Router<AppRequestContext>) {
        let pages = ConsoleMounting(console: console, router: router)
        signIn.mount(on: pages)
        team.mount(on: pages)
        shops.mount(on: pages)
        platform.mount(on: pages)
        account.mount(on: pages)
        clients.mount(on: pages)
        policy.mount(on: pages)
        apps.mount(on: pages)
        let assets = console.templates.assets
        router.get(RouterPath(Console.root + "/assets/:file")) { _, context in
            guard let file = context.parameters.get("file"), let asset = assets[file] else { throw APIError.notFound }
            var headers: HTTPFields = [.contentType: asset.contentType, .cacheControl: "no-cache"]
            ConsoleTemplates.pageHeaders(into: &headers)
            headers[.cacheControl] = "no-cache"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: asset.body)))
        }
    }
}
