import Hummingbird
import RepairMinderModels

/// What the pages a mail links to share (REKI's reset page, the invitation page): mounted beside
/// the route table at one path, `GET` shows (only reads: mail scanners open links too), `POST`
/// takes a browser's form after the route's per-IP budget, and every failure is a page for a
/// person, never an envelope (a 500's details go only to the log).
struct LinkPageMounting {
    let path: RoutePath
    /// The budgets a `POST` spends: those of the JSON route the page stands for.
    let budgets: [RouteBudget]
    /// The page of a 4xx or 500 failure: its status and what to tell the person.
    let failurePage: @Sendable (HTTPResponse.Status, String) -> HTMLPage
    /// What the log calls a 500 of this page.
    let name: String

    /// A form the page could not read, as the page of its failure.
    struct Unreadable: Error {
        let status: HTTPResponse.Status
        let message: String
    }

    /// Mounts `show` and `submit` (a page, or a redirect: the invitation's passwordless join
    /// signs in to the console); a thrown `RefusedPage` is answered as it is.
    func mount(
        on routes: RouteMounter, show: @escaping @Sendable (Request, AppRequestContext) async throws -> HTMLPage,
        submit: @escaping @Sendable (Request, AppRequestContext, Int) async throws -> Response
    ) {
        // The form has no key but the caller's address: a budget keyed by anything else would
        // have to be read from the form, which nothing here does.
        precondition(budgets.allSatisfy { $0.key == .clientIP }, "\(path) spends only per-IP budgets")
        let (limits, bodyLimit, metrics, budgets) = (routes.guards.limits, routes.guards.decoder.limit, routes.metrics, budgets)
        routes.mounted.record(.get, path)
        routes.mounted.record(.post, path)
        routes.router.get(RouterPath(path.description)) { request, context in
            do {
                return try await show(request, context).response()
            } catch {
                return failure(error, context)
            }
        }
        routes.router.post(RouterPath(path.description)) { request, context in
            let ledger = BudgetLedger(declared: budgets, limits: limits, clientNetwork: ClientAddress.networkKey(context.clientIP))
            do {
                // As `RouteStages` does for the route: first, before any work is done for a flood.
                // Per-IP tries are never taken back, so there is nothing to settle afterwards.
                for budget in budgets { try await ledger.spend(budget, key: ClientAddress.limitKey(context.clientIP ?? "unknown")) }
                return try await submit(request, context, bodyLimit)
            } catch {
                if (error as? APIError)?.code == .rateLimited { metrics?.rateLimited(route: path.description) }
                return failure(error, context)
            }
        }
    }

    /// The form a browser posted (`application/x-www-form-urlencoded`) from `page` ("the reset
    /// page"), or `Unreadable`.
    static func form<Form: Decodable>(_ type: Form.Type, from request: Request, bodyLimit: Int, page: String) async throws -> Form {
        guard request.headers[.contentType]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true else {
            throw Unreadable(status: .unsupportedMediaType, message: "Send the form from \(page): open the link in the email again.")
        }
        let body: ByteBuffer
        do {
            var request = request
            body = try await request.collectBody(upTo: bodyLimit)
        } catch {
            throw Unreadable(status: .contentTooLarge, message: "The form was too large to read.")
        }
        guard let form = try? URLEncodedFormDecoder().decode(Form.self, from: String(buffer: body)) else {
            throw Unreadable(status: .badRequest, message: "The form could not be read. Open the link in the email again.")
        }
        return form
    }

    /// The page of a failure: a refusal's own page, an unreadable form's, a 4xx's message
    /// (with its headers: `Retry-After`), or a 500 whose details go only to the log.
    private func failure(_ error: any Error, _ context: AppRequestContext) -> Response {
        if let page = error as? RefusedPage { return page.page.response() }
        if let unreadable = error as? Unreadable { return failurePage(unreadable.status, unreadable.message).response() }
        if let error = error as? APIError, error.status.code < 500 {
            return failurePage(error.status, error.message).response(headers: error.headers)
        }
        if DatabaseUnavailable.matches(error) {
            let unavailable = APIError.serviceUnavailable
            context.logger.error("\(name): the database does not answer", metadata: ["error": "\(String(reflecting: error))"])
            return failurePage(unavailable.status, unavailable.message).response(headers: unavailable.headers)
        }
        context.logger.error("\(name) failed", metadata: ["error": "\(String(reflecting: error))"])
        return failurePage(.internalServerError, "Something went wrong on our side. Try again in a moment.").response()
    }
}

/// An answer given before anything is done (a link that cannot be used): its page.
struct RefusedPage: Error {
    let page: HTMLPage
}
