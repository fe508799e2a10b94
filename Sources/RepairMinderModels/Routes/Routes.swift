/// The route table: every endpoint of docs/API.md, grouped by feature. The server mounts the
/// served ones, the SDK sends any of them, and the OpenAPI document is generated from it.
public enum Routes {
    /// The features, in the document's order. A feature's routes are its declarations
    /// (`RouteFeature.routes`); this list is the one place a new feature is added.
    public static let features: [any RouteFeature] = [
        staffAuth, passkeys, customerAuth, accounts, accountLifecycle, team, securityPolicy, push, `public`, dashboard, devices, orders,
        clients, platformAdmin, apps, tickets, customerPortal, reki,
    ]

    /// Every route, served and client-only.
    public static let all: [AnyRoute] = features.flatMap(\.routes)

    /// The prefix of every route of the Repair Minder API (REKI's `/auth/*` aside).
    public static let apiPrefix = "/api/"

    /// The name of the feature `route` belongs to.
    public static func feature(of route: AnyRoute) -> String {
        featureNames[route.description] ?? "Other"
    }

    /// Every wire type the table reaches: each route's request and response types and the
    /// types their schemas reference, in turn, each once (by schema name), in table order.
    /// The schema tests check each of them, so a new type is checked by being used.
    public static let wireTypes: [any WireType.Type] = {
        var seen = Set<String>()
        var found: [any WireType.Type] = []
        var pending: [any WireType.Type] = all.flatMap { [$0.requestType, $0.responseType].compactMap { $0 } }
        while !pending.isEmpty {
            let type = pending.removeFirst()
            guard seen.insert(type.schemaName).inserted else { continue }
            found.append(type)
            pending += type.schema.references
        }
        return found
    }()

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

    /// Each route's feature name, by `AnyRoute.description`.
    private static let featureNames: [String: String] = Dictionary(
        features.flatMap { feature in feature.routes.map { ($0.description, feature.name) } }, uniquingKeysWith: { first, _ in first })

    /// The first route of each path without parameters, by that path.
    private static let literalPaths: [String: AnyRoute] = Dictionary(
        all.filter { $0.path.parameterNames.isEmpty }.map { ($0.path.description, $0) }, uniquingKeysWith: { first, _ in first })
}
