import Hummingbird
import RepairMinderModels

/// Mounts routes of the table (`RepairMinderModels.Routes`) on the router: the path and method
/// come from the route, and so do the guards it asks for — the credential, the company it may
/// reach (`RouteScope`), the budgets it spends (`RouteBudget`: spent before the handler when
/// the request names their key, settled from the answer) — and the body is decoded into the
/// route's request type (each call goes through `RouteStages`). Handlers only ever see a
/// validated body and an authorised caller.
struct RouteMounter {
    let router: Router<AppRequestContext>
    /// Told of every route mounted here (for `ErrorMiddleware`'s 405).
    let mounted: MountedRoutes
    /// What each call is checked with.
    let guards: RouteGuards
    /// nil when metrics are off.
    let metrics: ServerMetrics?

    /// Mounts `route` with a handler that answers its typed response, encoded in the route's
    /// format (the envelope, `{"success": true}` for `EmptyPayload`; or the plain JSON of REKI).
    func on<Body, Answer>(
        _ route: Route<Body, Answer>, use handler: @escaping @Sendable (RouteCall<Body>) async throws -> Answer
    ) {
        let status = HTTPResponse.Status(code: route.successStatus), plain = route.format == .plain
        on(route) { call in
            let answer = try await handler(call)
            if plain { return .json(answer, status: status) }
            if answer is EmptyPayload { return .bareSuccess }
            return .envelope(answer, status: status)
        }
    }

    /// Mounts a list `route` whose handler answers one page: its items and the counts.
    func on<Body, Item>(
        _ route: Route<Body, [Item]>, page handler: @escaping @Sendable (RouteCall<Body>) async throws -> ([Item], Pagination)
    ) {
        precondition(route.format == .paginatedEnvelope, "\(route.erased) is not a paginated route in the table")
        on(route) { call in
            let (items, pagination) = try await handler(call)
            return .json(Envelope(success: true, data: items, pagination: pagination))
        }
    }

    /// Mounts `route` with a handler that builds the whole response (files, caching headers, 503).
    func on<Body, Answer>(
        _ route: Route<Body, Answer>, respond handler: @escaping @Sendable (RouteCall<Body>) async throws -> Response
    ) {
        precondition(route.availability == .served, "\(route.erased) is client-only in the route table")
        Self.checkBudgets(of: route)
        let stages = RouteStages(route: route.erased, guards: guards)
        let pattern = route.path.description, isSignIn = route.isSignIn, metrics = self.metrics
        mounted.record(route.erased)
        router.on(RouterPath(pattern), method: route.method.hummingbird) { request, context in
            guard let metrics else { return try await stages.run(request, context, Body.self, handler) }
            do {
                return try await stages.run(request, context, Body.self, handler)
            } catch let error as APIError {
                metrics.refused(error, route: pattern, isSignIn: isSignIn)
                throw error
            }
        }
    }
}

extension RouteMounter {
    /// What a budget keyed by the request is keyed by in this call.
    static func key(_ key: RouteBudget.Key, body: some Sendable, caller: AuthenticatedStaff?) throws -> String {
        let value: String? = switch key {
        case .bodyEmail: (body as? any WireRequest)?.text(of: "email")
        case .callerEmail: caller?.user.email
        case .callerId: caller?.user.id
        case .callerCompany: caller?.company.id
        case .clientIP, .foundByHandler: nil
        }
        // `checkBudgets` made sure at mount time that the key exists.
        guard let value else { throw APIError.internalError }
        return value
    }

    /// A route's budgets must be keyed by something its calls have: a body with an `email`, a
    /// staff caller. Checked once, when the route is mounted.
    static func checkBudgets<Body, Answer>(of route: Route<Body, Answer>) {
        for budget in route.budgets {
            switch budget.key {
            case .bodyEmail:
                let fields = (Body.self as? any WireRequest.Type).map { $0.schema }
                guard case .object(let properties, _)? = fields, properties.contains(where: { $0.name == "email" }) else {
                    preconditionFailure("\(route.erased): a budget keyed by the body's email, but the body has none")
                }
            case .callerEmail, .callerId, .callerCompany:
                precondition(route.credential == .staff, "\(route.erased): a budget keyed by a staff caller it does not have")
            case .clientIP:
                precondition(budget.kind == .clientIP, "\(route.erased): only the per-IP limit is keyed by the client's address")
            case .foundByHandler:
                break
            }
        }
    }
}

extension HTTPMethod {
    /// The same method as HTTPTypes spells it.
    var hummingbird: HTTPRequest.Method {
        switch self {
        case .get: .get
        case .post: .post
        case .put: .put
        case .patch: .patch
        case .delete: .delete
        }
    }
}
