import Foundation
import Hummingbird
import RepairMinderModels

/// What every console page is built with (docs/API.md §15.6): the templates, the console's
/// sessions, and the API's own guards, through which each page calls the API's controllers
/// (`call`) as the signed-in person, never the API over HTTP.
struct Console: Sendable {
    let templates: ConsoleTemplates
    let sessions: ConsoleSessionStore
    /// Resolves a console session's person exactly as a bearer token's is resolved.
    let callers: StaffCallers
    let guards: RouteGuards
    let settings: ServerSettings
    let clock: ServerClock
    /// nil when metrics are off.
    var metrics: ServerMetrics? = nil

    static let root = "/console"

    /// The person whose console session the request's cookie holds; nil without a live one (no
    /// cookie, signed out, idle for 12 hours, past its lifetime, or the account can no longer
    /// sign in).
    func visitor(_ request: Request) async throws -> ConsoleVisitor? {
        guard let token = ConsoleCookies.value(ConsoleCookies.session, in: request) else { return nil }
        return try await visitor(token: token)
    }

    /// The person whose console session `token` holds (the console's cookie, or the sign-in
    /// cookie an app's authorization request carries, docs/API.md §16.3).
    func visitor(token: String) async throws -> ConsoleVisitor? {
        let now = clock.now()
        guard let session = try await sessions.live(token: token, now: now) else { return nil }
        // The shop's lifetime as it is now, not as it was at sign-in (docs/API.md §13.3): a
        // shortened one ends an older console session as it ends an API session's refresh.
        let policy = try await callers.policies.cached(companyId: session.companyId)
        guard now < session.createdAt + policy.sessionMaxLifetime(isMobile: false, settings: settings) else { return nil }
        let role = UserRole(rawValue: session.role)
        // The claims a token of this session would carry, so the caller is checked as a
        // bearer's is: the same cache, session touch, quarantine status and policy standing.
        let claims = AccessTokenClaims(
            userId: session.userId, companyId: session.companyId, role: role, phiAccessLevel: nil, isMobile: false,
            dataClassification: nil, permissions: role.permissions.map(\.rawValue), sessionId: session.id,
            issuedAt: Int(now), expiresAt: Int(now) + 60, amr: AuthenticationMethods.claim(stored: session.amr))
        do {
            guard let staff = try await callers.caller(for: claims, now: now) else { return nil }
            return ConsoleVisitor(staff: staff, token: token, signedInAt: session.createdAt)
        } catch let error as APIError where error.code == .tokenExpired {
            // The role changed between the two reads: the next request sees the new one.
            return nil
        }
    }

    /// Calls the API route `route`'s handler as `page`'s visitor with `body`: through the
    /// route's own stages (its per-IP limit, the caller's reach and permission, the body's
    /// rules, its budgets), so the console can do exactly what the API lets this person do.
    func call<Body: WireType, Answer>(
        _ route: Route<Body, Answer>, _ page: ConsolePageRequest, body: Body,
        _ handler: @Sendable (RouteCall<Body>) async throws -> Answer
    ) async throws -> Answer {
        try await call(route, page.request, page.context, body: body, handler)
    }

    /// `call` for a request without a visitor (sign-in's routes) or with one already in `context`.
    func call<Body: WireType, Answer>(
        _ route: Route<Body, Answer>, _ request: Request, _ context: AppRequestContext, body: Body,
        _ handler: @Sendable (RouteCall<Body>) async throws -> Answer
    ) async throws -> Answer {
        try await stages(route, request, context, body: body, handler)
    }

    /// `call` of a list route: its items and counts.
    func call<Item>(
        _ route: Route<EmptyPayload, [Item]>, _ page: ConsolePageRequest,
        _ handler: @Sendable (RouteCall<EmptyPayload>) async throws -> ([Item], Pagination)
    ) async throws -> ([Item], Pagination) {
        try await stages(route, page.request, page.context, body: EmptyPayload(), handler)
    }

    /// Every console call of a route: its stages, at the API path it stands for (the console
    /// path's parameters of the same names), and its refusals counted in the metrics as the
    /// API's are (a sign-in refused, a 429).
    func stages<Body: WireType, Answer, Result>(
        _ route: Route<Body, Answer>, _ request: Request, _ context: AppRequestContext, body: Body,
        _ handler: @Sendable (RouteCall<Body>) async throws -> Result
    ) async throws -> Result {
        let path = route.path.rendered(route.path.parameterNames.map { context.parameters.get($0) ?? "" }) ?? ""
        do {
            return try await RouteStages(route: route.erased, guards: guards).run(console: request, context, body: body, path: path, handler)
        } catch let error as APIError {
            metrics?.refused(error, route: route.path.description, isSignIn: route.isSignIn)
            throw error
        }
    }
}

/// Who is using the console: the signed-in staff member (as a bearer's caller) and the token
/// their cookie holds.
struct ConsoleVisitor: Sendable {
    let staff: AuthenticatedStaff
    let token: String
    /// When the session's sign-in happened (an ID token's `auth_time`).
    var signedInAt: Double = 0

    /// The CSRF token of this visitor's forms.
    var csrf: String { ConsoleCookies.csrfToken(for: token) }
}

/// One request of a signed-in console page.
struct ConsolePageRequest: Sendable {
    let request: Request
    /// With the visitor as the staff caller.
    let context: AppRequestContext
    let visitor: ConsoleVisitor

    var staff: AuthenticatedStaff { visitor.staff }

    /// The path parameter `name`.
    func parameter(_ name: String) -> String { context.parameters.get(name) ?? "" }

    /// The query parameter `name` as a GET form sends it (`application/x-www-form-urlencoded`:
    /// `+` is a space, `%2B` a plus), when present.
    func query(_ name: String) -> String? { ConsoleForm.decode(request.uri.query ?? "")?[name] }

    /// The view of a page titled `title`, with the visitor's navigation.
    func view(_ title: String, current: String, page: Any = (), problem: String? = nil, notice: String? = nil) -> ConsoleView {
        let user = staff.user
        let links = ConsoleSections.offered(to: staff).map { ("\(Console.root)\($0.path)", $0.label) }
        let nav = ConsoleNav(
            name: CustomerClient.displayName(firstName: user.firstName, lastName: user.lastName, email: user.email), email: user.email,
            shop: staff.company.name, links: links.map { link in ConsoleNav.Link(href: link.0, label: link.1, current: link.0 == current) })
        return ConsoleView(
            title: title, csrf: visitor.csrf, nav: nav, problem: problem, notice: notice ?? query("notice").flatMap(ConsoleNotice.text),
            page: page)
    }
}
