import Hummingbird
import RepairMinderModels

/// `GET /portal`, the link of a portal invitation (docs/API.md §14): an iOS universal link that
/// opens the app where it is installed; in a browser, a page that says how to sign in.
enum PortalPage {
    static let page = HTMLPage(
        status: .ok, site: "Repair Minder", heading: "Follow your repairs",
        paragraphs: [
            "Open the Repair Minder app and sign in with the email address your repair shop has for you.",
            "There is no password: we email you a code each time you sign in.",
        ])

    static func mount(on routes: RouteMounter) {
        routes.mounted.record(.get, RoutePath(ClientPortal.pagePath))
        routes.router.get(RouterPath(ClientPortal.pagePath)) { _, _ in page.response() }
    }
}
