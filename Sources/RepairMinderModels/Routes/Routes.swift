/// The route table: every endpoint of docs/API.md, grouped by feature. The server mounts the
/// served ones, the SDK sends any of them, and the OpenAPI document is generated from it.
public enum Routes {
    /// The routes by feature, named for people (OpenAPI tags).
    public static let features: [(name: String, routes: [AnyRoute])] = [
        ("Staff sign-in", StaffAuth.all), ("Passkeys", Passkeys.all), ("Customer sign-in", CustomerAuth.all), ("Account", Accounts.all),
        ("Account lifecycle", AccountLifecycle.all),
        ("Push", Push.all), ("Public", Public.all), ("Dashboard", Dashboard.all), ("Devices", Devices.all),
        ("Orders", Orders.all), ("Clients", Clients.all), ("Tickets", Tickets.all),
        ("Customer portal", CustomerPortal.all), ("REKI", REKI.all),
    ]

    /// Every route, served and client-only.
    public static let all: [AnyRoute] = features.flatMap(\.routes)

    /// The prefix of every route of the Repair Minder API (REKI's `/auth/*` aside).
    public static let apiPrefix = "/api/"

    /// The name of the feature `route` belongs to.
    public static func feature(of route: AnyRoute) -> String {
        features.first { feature in feature.routes.contains { $0.description == route.description } }?.name ?? "Other"
    }

    /// The routes this server answers.
    public static var served: [AnyRoute] { all.filter { $0.availability == .served } }

    /// The route `method` and `path` reach, if any. `path` is matched as a router would: empty
    /// segments ignored, so `//api//x` is `/api/x`.
    public static func route(_ method: HTTPMethod, path: String) -> AnyRoute? {
        routes(matching: path).first { $0.method == method }
    }

    /// Every route whose path template fits `path`, whatever its method; literal segments win
    /// over parameters (`/api/clients/search` before `/api/clients/{id}`).
    public static func routes(matching path: String) -> [AnyRoute] {
        let segments = path.split(separator: "/")
        return all.filter { $0.path.match(segments) != nil }
            .sorted { $0.path.parameterNames.count < $1.path.parameterNames.count }
    }

    /// `routes(matching: path).first`, without scanning the table when a route without
    /// parameters fits: the quarantine check asks for every request.
    public static func firstRoute(matching path: String) -> AnyRoute? {
        let segments = path.split(separator: "/")
        if let literal = literalPaths["/" + segments.joined(separator: "/")] { return literal }
        return all.filter { $0.path.match(segments) != nil }.min { $0.path.parameterNames.count < $1.path.parameterNames.count }
    }

    /// The first route of each path without parameters, by that path.
    private static let literalPaths: [String: AnyRoute] = Dictionary(
        all.filter { $0.path.parameterNames.isEmpty }.map { ($0.path.description, $0) }, uniquingKeysWith: { first, _ in first })
}
