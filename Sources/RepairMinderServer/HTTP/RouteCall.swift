import Hummingbird
import RepairMinderModels

/// One call of a route: its decoded body, the request and its context (who is calling).
struct RouteCall<Body: Sendable>: Sendable {
    let body: Body
    let request: Request
    let context: AppRequestContext
    /// The budgets the route declares; nil when it declares none.
    let budgets: BudgetLedger?

    /// Spends the route's budget of `kind` whose key only the handler knows
    /// (`RouteBudget.Key.foundByHandler`: a login challenge's address or user), now that it
    /// knows it; the mounter settles it from the answer. Throws 429 once it is used up.
    func spend(_ kind: RouteBudget.Kind, key: String) async throws {
        guard let budgets, let budget = budgets.declared.first(where: { $0.kind == kind && $0.key == .foundByHandler }) else {
            preconditionFailure("the route does not declare a \(kind) budget keyed by its handler")
        }
        try await budgets.spend(budget, key: key)
    }

    /// The signed-in staff member; set for every route whose credential is `.staff`.
    var staff: AuthenticatedStaff {
        get throws {
            guard let staff = context.staff else { throw APIError.unauthorized }
            return staff
        }
    }

    /// The signed-in customer; set for every route whose credential is `.customer`.
    var customer: AuthenticatedCustomer {
        get throws {
            guard let customer = context.customer else { throw APIError.unauthorized }
            return customer
        }
    }

    /// The signed-in REKI user; set for every route whose credential is `.reki`.
    var rekiUser: AuthenticatedREKIUser {
        get throws {
            guard let user = context.rekiUser else { throw APIError.unauthorized }
            return user
        }
    }

    /// Whether the caller is a mobile app (docs/API.md §1), by its User-Agent.
    var isMobile: Bool { ClientKind.isMobile(request) }

    /// The calling device as a new session records it. Its User-Agent is kept for display (the
    /// sessions list, the audit trail) with any control or bidi character escaped: a header
    /// cannot be refused like a field, and it must not show as something it is not.
    var device: ClientDevice {
        ClientDevice(
            isMobile: isMobile, userAgent: request.headers[.userAgent].map { TextCharacters.escaped($0) }, ipAddress: context.clientIP)
    }

    /// The whole-number query `parameter`; nil when absent, 400 `VALIDATION_ERROR` naming it
    /// when it is outside the range its declaration documents (`page=0`, `limit=abc`).
    func query(_ parameter: QueryParameter) throws -> Int? {
        guard let raw = request.uri.queryParameters.get(parameter.name), let range = parameter.integers else { return nil }
        guard let value = Int(raw), range.contains(value) else {
            throw APIError.validation("\(parameter.name) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// The free-text query `parameter` (`QueryParameter.q`), whitespace around dropped; nil when absent.
    func text(_ parameter: QueryParameter) -> String? {
        request.uri.queryParameters.get(parameter.name).map { FieldRules.trimmingWhitespace(String($0)) }
    }

    /// The query `parameter` of choices (`QueryParameter.allowed`); nil when absent, 400
    /// `VALIDATION_ERROR` naming the choices when it is none of them.
    func choice(_ parameter: QueryParameter) throws -> String? {
        guard let raw = request.uri.queryParameters.get(parameter.name).map({ String($0) }) else { return nil }
        let allowed = parameter.allowed ?? []
        guard allowed.contains(raw) else {
            throw APIError.validation("\(parameter.name) must be one of \(allowed.joined(separator: ", "))")
        }
        return raw
    }

    /// The value of the path parameter `name` of the route's template.
    func parameter(_ name: String) throws -> String {
        guard let value = context.parameters.get(name) else { throw APIError.notFound }
        return value
    }
}
