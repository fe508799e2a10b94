import Hummingbird
import RepairMinderModels

/// What every call of a mounted route goes through, in order, each stage named for what it
/// decides: admit the client (the per-IP limit), resolve the caller (the route's credential),
/// check what the caller may reach (`RouteScope`), decode the body, spend the budgets keyed
/// by the request, respond (the handler), settle the budgets from the answer.
struct RouteStages: Sendable {
    let route: AnyRoute
    let guards: RouteGuards

    func run<Body: WireType>(
        _ request: Request, _ context: AppRequestContext, _ body: Body.Type,
        _ handler: @Sendable (RouteCall<Body>) async throws -> Response
    ) async throws -> Response {
        let ledger = try await admit(context)
        var context = context
        try await resolveCaller(request, &context)
        try checkReach(path: request.uri.path, context)
        let body = try await guards.decoder.decode(Body.self, from: request, fixedFields: route.fixedFields)
        return try await respond(ledger, body, request, context, handler)
    }

    /// A web console page's call of the route (docs/API.md §15.6): the same stages, but the
    /// caller is the console session's (already in `context`, nil for sign-in's routes) and the
    /// body is the one the page made from its form, checked by the route's rules here. `path`
    /// is the API path the call stands for, which the route's scope is checked against.
    func run<Body: WireType, Answer>(
        console request: Request, _ context: AppRequestContext, body: Body, path: String,
        _ handler: @Sendable (RouteCall<Body>) async throws -> Answer
    ) async throws -> Answer {
        let ledger = try await admit(context)
        if route.credential == .staff {
            guard let staff = context.staff else { throw APIError.unauthorized }
            // What `QuarantineMiddleware` does for a bearer: the console has none.
            try QuarantineMiddleware.check(staff, route: route, path: path)
        }
        try checkReach(path: path, context)
        return try await respond(ledger, try RequestDecoder.checked(body), request, context, handler)
    }

    /// Spends the budgets keyed by the request, calls the handler and settles them from its answer.
    private func respond<Body: Sendable, Answer>(
        _ ledger: BudgetLedger?, _ body: Body, _ request: Request, _ context: AppRequestContext,
        _ handler: @Sendable (RouteCall<Body>) async throws -> Answer
    ) async throws -> Answer {
        guard let ledger else { return try await handler(RouteCall(body: body, request: request, context: context, budgets: nil)) }
        let answer: Answer
        do {
            try await spendBudgets(ledger, body: body, caller: context.staff)
            answer = try await handler(RouteCall(body: body, request: request, context: context, budgets: ledger))
        } catch {
            // A try the database would not take back stays counted: the safe side.
            try? await ledger.settle(after: error)
            throw error
        }
        await settle(ledger, context)
        return answer
    }

    /// The per-IP limit, first: it needs nothing from the request, and holds back floods
    /// before any work is done for them. Returns the call's ledger; nil when the route
    /// declares no budget.
    private func admit(_ context: AppRequestContext) async throws -> BudgetLedger? {
        guard !route.budgets.isEmpty else { return nil }
        let ledger = BudgetLedger(declared: route.budgets, limits: guards.limits, clientNetwork: ClientAddress.networkKey(context.clientIP))
        if route.budgets.contains(.clientIP) {
            try await ledger.spend(.clientIP, key: ClientAddress.limitKey(context.clientIP ?? "unknown"))
        }
        return ledger
    }

    /// Who is calling, by the route's credential: 401 without a valid one.
    private func resolveCaller(_ request: Request, _ context: inout AppRequestContext) async throws {
        switch route.credential {
        case .none: break
        case .staff:
            // The quarantine check may already have resolved the caller for this request.
            if context.staff == nil { context.staff = try await guards.staffIdentity.resolve(BearerToken.from(request)) }
        case .customer:
            context.customer = try await guards.customerIdentity.resolve(BearerToken.from(request))
        case .reki:
            guard let rekiIdentity = guards.rekiIdentity else { throw APIError.notFound }
            context.rekiUser = try await rekiIdentity.resolve(BearerToken.from(request))
        }
    }

    /// Whether a staff caller may use the route, reach what the path names and do what the
    /// route does (`AuthenticatedStaff.checkReach`): 403 otherwise.
    private func checkReach(path: String, _ context: AppRequestContext) throws {
        try context.staff?.checkReach(of: route, path: path)
    }

    /// The budgets keyed by the request (its body's email, the caller), before the handler.
    private func spendBudgets(_ ledger: BudgetLedger, body: some Sendable, caller: AuthenticatedStaff?) async throws {
        for budget in route.budgets where budget.key != .clientIP && budget.key != .foundByHandler {
            try await ledger.spend(budget, key: RouteMounter.key(budget.key, body: body, caller: caller))
        }
    }

    /// Counts the tries from the answer. What succeeded (a code used up, a session started)
    /// is committed: a failure here is logged and the answer kept, the try left counted.
    private func settle(_ ledger: BudgetLedger, _ context: AppRequestContext) async {
        do {
            try await ledger.settle(after: nil)
        } catch {
            context.logger.warning("Rate-limit budget not settled", metadata: ["error": "\(String(reflecting: error))"])
        }
    }
}

/// What every route's calls are checked with: the body decoder, the limits budgets are
/// counted by, and the identities that resolve each kind of bearer.
struct RouteGuards: Sendable {
    let decoder: RequestDecoder
    let limits: AbuseLimits
    let staffIdentity: StaffIdentity
    let customerIdentity: CustomerIdentity
    /// nil when REKI's routes are off (`--reki false`).
    let rekiIdentity: REKIIdentity?
}
