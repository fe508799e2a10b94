/// Which credential a route needs (docs/API.md §1).
public enum RouteCredential: String, Sendable, Hashable, CaseIterable {
    /// Anyone may call it.
    case none
    /// A staff access token.
    case staff
    /// A customer token.
    case customer
    /// A REKI access token (docs/API.md §10).
    case reki
}

/// How a staff route behaves while the caller's company is quarantined (docs/API.md §4).
public enum QuarantineRule: Sendable, Hashable {
    /// Answers 403 with the quarantine code.
    case blocked
    /// Answers as usual, within the route's `RouteScope` (a quarantined caller asking for
    /// another company's data gets the quarantine 403, like any blocked route).
    case allowed
}

/// How a staff route behaves for a restricted session: one whose shop requires a second factor
/// the user has not enrolled after the grace period (docs/API.md §13.3).
public enum EnrolmentRule: Sendable, Hashable {
    /// Answers 403 `FACTOR_ENROLMENT_REQUIRED`.
    case blocked
    /// Answers as usual: what a user needs to enrol (and `me`, `logout`).
    case allowed
}

/// Whose data a staff route reaches: the one statement of "own company only", which the route
/// mounter enforces (403 `FORBIDDEN`) and quarantine consults (`QuarantineRule.allowed`).
public enum RouteScope: Sendable, Hashable {
    /// Whatever the route's own logic allows.
    case any
    /// Only the caller's company, named by this path parameter.
    case ownCompany(parameter: String)

    /// Whether a member of `companyId` may reach the route at `path` (its path parameters
    /// matched against `route`'s template).
    public func permits(_ route: AnyRoute, path: String, companyId: String) -> Bool {
        switch self {
        case .any: true
        case .ownCompany(let parameter): route.path.match(path.split(separator: "/"))?[parameter] == companyId
        }
    }
}

/// What a successful answer's body is.
public enum ResponseFormat: Sendable, Hashable {
    /// docs/API.md §1's envelope: `{"success": true, "data": ...}`, or `{"success": true}` when the
    /// response type is `EmptyPayload`.
    case envelope
    /// The envelope of a list: the items as `data` and the counts as `pagination`
    /// (`{"success": true, "data": [...], "pagination": {...}}`).
    case paginatedEnvelope
    /// The response type's JSON as it is, without an envelope: the OpenAPI document, and every
    /// REKI answer (docs/API.md §10, whose failures take seed 002's shape).
    case plain
    /// Bytes of one of these media types (images, PDFs).
    case binary([String])
}

/// Where a route is implemented.
public enum RouteAvailability: Sendable, Hashable {
    /// This server answers it.
    case served
    /// Only in the SDK's catalogue (seed 004): the real backend has it, this server does not.
    case clientOnly
}

/// A query parameter a route reads: the document's description of it and the server's check
/// of it (`RouteCall.query`) both come from here.
public struct QueryParameter: Sendable, Hashable {
    public let name: String
    public let summary: String
    /// The whole numbers it takes; nil for text.
    public let integers: ClosedRange<Int>?
    /// The only values it takes, for a choice; nil for free text.
    public let allowed: [String]?
    public init(_ name: String, _ summary: String, integers: ClosedRange<Int>? = nil, allowed: [String]? = nil) {
        self.name = name
        self.summary = summary
        self.integers = integers
        self.allowed = allowed
    }

    public var isInteger: Bool { integers != nil }

    public static let page = QueryParameter("page", "Page number, from 1", integers: 1...1_000_000)
    public static let limit = QueryParameter("limit", "Items per page (a route may answer fewer)", integers: 1...1_000_000)
    // The filters of seed 004's list endpoints.
    public static let status = QueryParameter("status", "Only items in this status")
    public static let search = QueryParameter("search", "Only items matching this text")
    public static let scope = QueryParameter("scope", "Whose figures: the caller's or the company's")
    public static let period = QueryParameter("period", "The period the figures cover")
    /// The team list's filter (docs/API.md §12).
    public static let memberStatus = QueryParameter(
        "status", "Which members: all (the default), active, deactivated or archived",
        allowed: ["all", "active", "deactivated", "archived"])
    /// How many matches a type-ahead search answers (docs/API.md §14).
    public static let searchLimit = QueryParameter("limit", "At most this many (up to 10; 10 by default)", integers: 1...10)
    /// The clients list's order (docs/API.md §14): newest first by default, or by name.
    public static let clientSort = QueryParameter(
        "sort", "The order: -created_at (newest first, the default) or name", allowed: ["-created_at", "name"])
    /// A CSV import that only reports what it would do (docs/API.md §14).
    public static let dryRun = QueryParameter("dryRun", "true: report what the import would do, write nothing", allowed: ["true", "false"])
    /// A CSV import that writes its good rows even when others are refused.
    public static let partial = QueryParameter(
        "partial", "true: write the rows that pass even when others are refused", allowed: ["true", "false"])
    /// The platform's shops list (docs/API.md §15): which shops.
    public static let companyStatus = QueryParameter(
        "status", "Which shops: all (the default), pending_approval, active or suspended",
        allowed: ["all", "pending_approval", "active", "suspended"])
    /// The platform's audit log's filters (docs/API.md §15.3).
    public static let companyId = QueryParameter("companyId", "Only the events of this shop")
    public static let staffOfCompany = QueryParameter("companyId", "Only the staff of this shop")
    public static let eventType = QueryParameter("type", "Only events of this type")
    public static let since = QueryParameter("since", "Only events at or after this instant (ISO 8601)")
    /// Free text a list is narrowed by.
    public static let q = QueryParameter("q", "Only items matching this text (case-insensitive)")
}

/// One endpoint of the contract: method, path, credential, request and response types, and
/// the policies that hang on it. The server mounts it, the SDK sends it, the OpenAPI document
/// describes it: one definition for all three (docs/API.md). Its properties are those of
/// `AnyRoute` (`route.path`, `route.credential`, ...); the types are what it adds.
@dynamicMemberLookup
public struct Route<Request: WireType, Response: WireType>: Sendable {
    /// The route without its types, for tables and documents.
    public let erased: AnyRoute

    /// - Parameters:
    ///   - permission: what a staff caller's role must allow: 403 `FORBIDDEN` otherwise.
    ///   - fixedFields: body fields this route takes one value of (`appType: "staff"` on the staff
    ///     device-token route): the document narrows the body's schema, the server refuses others.
    ///   - inputRuleBeyondSchema: a rule on the body that depends on stored state, so no schema can
    ///     say it (`currentPassword` is required when the user has a password); answered as 400
    ///     `VALIDATION_ERROR` and published as the operation's `x-input-rule-beyond-schema`.
    public init(
        _ method: HTTPMethod, _ path: RoutePath, _ credential: RouteCredential, _ summary: String,
        availability: RouteAvailability = .served, quarantine: QuarantineRule = .blocked, enrolment: EnrolmentRule = .blocked,
        scope: RouteScope = .any,
        permission: Permission? = nil, budgets: [RouteBudget] = [], format: ResponseFormat = .envelope, successStatus: Int = 200,
        query: [QueryParameter] = [], fixedFields: KeyValuePairs<String, String> = [:],
        inputRuleBeyondSchema: String? = nil, failures: [DocumentedFailure] = []
    ) {
        erased = AnyRoute(
            method: method, path: path, credential: credential, summary: summary, availability: availability,
            quarantine: quarantine, enrolment: enrolment, scope: scope, permission: permission, budgets: budgets, format: format,
            successStatus: successStatus, query: query, fixedFields: fixedFields.map { ($0.key, $0.value) },
            inputRuleBeyondSchema: inputRuleBeyondSchema, failures: failures,
            requestType: Request.self == EmptyPayload.self ? nil : Request.self, responseType: Response.self)
    }

    public subscript<Value>(dynamicMember property: KeyPath<AnyRoute, Value>) -> Value { erased[keyPath: property] }

    /// Whether the request carries a JSON body.
    public var hasBody: Bool { erased.requestType != nil }
}

/// A route with its types erased: what the route table lists.
public struct AnyRoute: Sendable, CustomStringConvertible {
    public let method: HTTPMethod
    public let path: RoutePath
    public let credential: RouteCredential
    public let summary: String
    public let availability: RouteAvailability
    /// How a staff route behaves in quarantine; meaningless for other credentials.
    public let quarantine: QuarantineRule
    /// How a staff route behaves for a restricted session (docs/API.md §13); meaningless for others.
    public let enrolment: EnrolmentRule
    /// Whose data a staff route reaches.
    public let scope: RouteScope
    /// What the caller's role must allow (docs/API.md §12), read from the role as stored, not
    /// the token's claim; nil when any staff member may call it.
    public let permission: Permission?
    /// The budgets of docs/API.md §7 a call spends.
    public let budgets: [RouteBudget]
    /// A sign-in endpoint: counted by the per-client-IP limit (docs/API.md §7).
    public var isSignIn: Bool { budgets.contains(.clientIP) }
    public let format: ResponseFormat
    /// 200, or 201 for creations.
    public let successStatus: Int
    public let query: [QueryParameter]
    /// Body fields with the one value this route takes, in the order declared.
    public let fixedFields: [(name: String, value: String)]
    /// A body rule no schema can state (it depends on stored state), for the document.
    public let inputRuleBeyondSchema: String?
    public let failures: [DocumentedFailure]
    /// nil when the route takes no body.
    public let requestType: (any WireType.Type)?
    public let responseType: any WireType.Type

    public var description: String { "\(method.rawValue) \(path)" }
}
