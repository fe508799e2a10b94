import Hummingbird
import RepairMinderModels

/// Mounts routes of the table (`RepairMinderModels.Routes`) on the router: the path and method
/// come from the route, and so do the guards it asks for — the per-IP sign-in limit, the
/// credential — and the body is decoded into the route's request type. Handlers only ever see
/// a validated body and an authenticated caller.
struct RouteMounter {
    let router: Router<AppRequestContext>
    let decoder: RequestDecoder
    /// nil when the per-IP limit is off.
    let ipLimiter: IPRateLimiter?
    let staffIdentity: StaffIdentity
    let customerIdentity: CustomerIdentity
    /// nil when REKI's routes are off (`--reki false`).
    var rekiIdentity: REKIIdentity?
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
        let decoder = self.decoder, limiter = route.countedByAuthLimit ? ipLimiter : nil
        let credential = route.credential, isSignIn = route.countedByAuthLimit, pattern = route.path.description
        let staffIdentity = self.staffIdentity, customerIdentity = self.customerIdentity, metrics = self.metrics
        let rekiIdentity = self.rekiIdentity, fixedFields = route.fixedFields
        let respond: @Sendable (Request, AppRequestContext) async throws -> Response = { request, context in
            if let limiter, let wait = try await limiter.admit(ClientAddress.limitKey(context.clientIP ?? "unknown")) {
                throw APIError.rateLimited(retryAfter: wait)
            }
            var context = context
            switch credential {
            case .none: break
            case .staff:
                // The quarantine check may already have resolved the caller for this request.
                if context.staff == nil { context.staff = try await staffIdentity.resolve(BearerToken.from(request)) }
            case .customer:
                context.customer = try await customerIdentity.resolve(BearerToken.from(request))
            case .reki:
                guard let rekiIdentity else { throw APIError.notFound }
                context.rekiUser = try await rekiIdentity.resolve(BearerToken.from(request))
            }
            let body = try await decoder.decode(Body.self, from: request, fixedFields: fixedFields)
            return try await handler(RouteCall(body: body, request: request, context: context))
        }
        router.on(RouterPath(pattern), method: route.method.hummingbird) { request, context in
            guard let metrics else { return try await respond(request, context) }
            do {
                return try await respond(request, context)
            } catch let error as APIError {
                if error.code == .rateLimited {
                    metrics.rateLimited(route: pattern)
                } else if isSignIn {
                    metrics.signInFailed(route: pattern, code: error.code.rawValue)
                }
                throw error
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
