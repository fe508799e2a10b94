import Foundation
import RepairMinderModels

/// The OpenAPI 3.1 document of the served routes, generated from the route table
/// (`RepairMinderModels.Routes`) and the wire types' schemas: what `GET /api/openapi.json` and
/// `repairminder openapi` print.
public enum OpenAPIDocument {
    /// The document as JSON bytes (sorted keys, so the output is stable); without REKI's
    /// routes when the server does not serve them (`--reki false`); with `settings`, the
    /// maxima that are settings as that server has them (`settingMaxima`).
    public static func json(serverURL: String, includingREKI: Bool = true, settings: ServerSettings? = nil) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return try encoder.encode(document(serverURL: serverURL, includingREKI: includingREKI, settings: settings))
    }

    /// A field whose largest value is one of the server's settings: its schema, property and
    /// that value.
    struct SettingMaximum {
        let schema: String
        let property: String
        let maximum: Int
    }

    /// The fields whose maximum `settings` decide: a shop's session lifetimes, at most the
    /// server's own (`SecurityPolicyController` refuses more).
    static func settingMaxima(_ settings: ServerSettings) -> [SettingMaximum] {
        [
            SettingMaximum(schema: SessionLifetimeUpdate.schemaName, property: "web", maximum: ShopPolicy.serverDays(isMobile: false, settings: settings)),
            SettingMaximum(schema: SessionLifetimeUpdate.schemaName, property: "mobile", maximum: ShopPolicy.serverDays(isMobile: true, settings: settings)),
        ]
    }

    /// The document as a JSON value.
    public static func document(serverURL: String, includingREKI: Bool = true, settings: ServerSettings? = nil) -> JSONValue {
        var schemas = SchemaRendering()
        var paths: [String: JSONValue] = [:]
        for route in Routes.served where includingREKI || !Routes.REKI.contains(path: route.path.description) {
            let operation = operation(for: route, schemas: &schemas)
            var item = paths[route.path.description]?.objectMembers ?? [:]
            item[route.method.rawValue.lowercased()] = operation
            paths[route.path.description] = .object(item)
        }
        var components = schemas.components
        for limit in settings.map(settingMaxima) ?? [] {
            components[limit.schema] = Self.stating(limit, in: components[limit.schema])
        }
        components["ErrorEnvelope"] = errorEnvelopeSchema(codes: ErrorCode.all)
        components["BareSuccess"] = [
            "type": "object", "required": ["success"], "properties": ["success": ["type": "boolean", "enum": [true]]],
            "description": #"`{"success": true}`: an acknowledgement without data."#,
        ]
        return [
            "openapi": "3.1.0",
            "info": [
                "title": "Repair Minder API",
                "version": .string(repairMinderVersion),
                "description": """
                    Authentication and networking for Repair Minder: staff and customer sign-in, sessions, \
                    quarantine, push device tokens and app configuration. Every JSON answer under `/api/` is an \
                    envelope: `{"success": true, "data": ...}` or `{"success": false, "error": "...", "code": "..."}`. \
                    REKI's routes under `/auth/` answer plain JSON, and fail with \
                    `{"statusCode": ..., "message": "...", "timestamp": "..."}`. The contract in prose is docs/API.md.
                    """,
            ],
            "servers": [["url": .string(serverURL)]],
            "paths": .object(paths),
            "components": [
                "schemas": .object(components),
                "securitySchemes": [
                    "staffBearer": [
                        "type": "http", "scheme": "bearer", "bearerFormat": "JWT",
                        "description": .string(
                            "A staff access token from \(Routes.staffAuth.verifyTwoFactorCode.path), "
                                + "\(Routes.staffAuth.verifyMagicLink.path) or \(Routes.staffAuth.refresh.path)"),
                    ],
                    "customerBearer": [
                        "type": "http", "scheme": "bearer", "bearerFormat": "JWT",
                        "description": .string("A customer token from \(Routes.customerAuth.verifyCode.path)"),
                    ],
                    "rekiBearer": [
                        "type": "http", "scheme": "bearer", "bearerFormat": "JWT",
                        "description": .string(
                            "A REKI access token from \(Routes.reki.register.path), \(Routes.reki.login.path) or \(Routes.reki.refresh.path)"),
                    ],
                ],
            ],
        ]
    }

    private static func operation(for route: AnyRoute, schemas: inout SchemaRendering) -> JSONValue {
        var operation: [String: JSONValue] = [
            "operationId": .string(operationId(route)),
            "summary": .string(route.summary),
            "tags": [.string(Routes.feature(of: route))],
        ]
        var parameters: [JSONValue] = route.path.parameterNames.map { name in
            ["name": .string(name), "in": "path", "required": true, "schema": ["type": "string", "minLength": 1]]
        }
        parameters += route.query.map { query in
            [
                "name": .string(query.name), "in": "query", "required": false, "description": .string(query.summary),
                "schema": query.integers.map { ["type": "integer", "minimum": .number(Double($0.lowerBound)), "maximum": .number(Double($0.upperBound))] }
                    ?? query.allowed.map { ["type": "string", "enum": .array($0.map(JSONValue.string))] } ?? ["type": "string"],
            ]
        }
        if !parameters.isEmpty { operation["parameters"] = .array(parameters) }
        if let rule = route.inputRuleBeyondSchema { operation["x-input-rule-beyond-schema"] = .string(rule) }
        if let permission = route.permission {
            // Which roles may call it: the permission and, for people, the roles that have it.
            operation["x-permission"] = .string(permission.rawValue)
            operation["description"] = .string(
                "Needs `\(permission.rawValue)`: " + UserRole.allCases.filter { $0.may(permission) }.map(\.rawValue).joined(separator: ", ")
                    + (permission.isPlatformOnly ? ", of the platform's own company" : ""))
        }
        if let raw = route.requestType as? any RawRequestBody.Type {
            // Not JSON: the bytes of the route's media type (the clients' CSV import).
            operation["requestBody"] = [
                "required": true,
                "content": .object([raw.mediaType: ["schema": schemas.reference(raw), "example": rawExample(raw)]]),
            ]
        } else if let requestType = route.requestType {
            var schema = schemas.reference(requestType)
            if !route.fixedFields.isEmpty {
                // The body's type, with the values this route takes.
                let fixed = route.fixedFields.map { ($0.name, JSONValue.object(["enum": [.string($0.value)]])) }
                schema = ["allOf": [schema, ["properties": .object(Dictionary(uniqueKeysWithValues: fixed))]]]
            }
            var media: [String: JSONValue] = ["schema": schema]
            if case .object(var example)? = SchemaRendering.example(of: requestType) {
                for field in route.fixedFields { example[field.name] = .string(field.value) }
                media["example"] = .object(example)
            }
            operation["requestBody"] = ["required": true, "content": ["application/json": .object(media)]]
        }
        switch route.credential {
        case .none: break
        case .staff: operation["security"] = [["staffBearer": []]]
        case .customer: operation["security"] = [["customerBearer": []]]
        case .reki: operation["security"] = [["rekiBearer": []]]
        }
        var responses = failureResponses(for: route, schemas: &schemas)
        responses[String(route.successStatus)] = successResponse(for: route, schemas: &schemas)
        if route.path == Routes.public.config.path {
            responses["304"] = ["description": "Not modified: the `If-None-Match` ETag is current", "headers": cacheHeaders]
        }
        operation["responses"] = .object(responses)
        return .object(operation)
    }

    private static func successResponse(for route: AnyRoute, schemas: inout SchemaRendering) -> JSONValue {
        let content: JSONValue
        switch route.format {
        case .envelope where route.responseType == EmptyPayload.self:
            content = ["application/json": ["schema": ["$ref": "#/components/schemas/BareSuccess"]]]
        case .envelope:
            content = [
                "application/json": [
                    "schema": [
                        "type": "object", "required": ["success", "data"],
                        "properties": ["success": ["type": "boolean", "enum": [true]], "data": schemas.reference(route.responseType)],
                    ]
                ]
            ]
        case .paginatedEnvelope:
            content = [
                "application/json": [
                    "schema": [
                        "type": "object", "required": ["success", "data", "pagination"],
                        "properties": [
                            "success": ["type": "boolean", "enum": [true]], "data": schemas.reference(route.responseType),
                            "pagination": schemas.reference(Pagination.self),
                        ],
                    ]
                ]
            ]
        case .plain:
            content = ["application/json": ["schema": schemas.reference(route.responseType)]]
        case .binary(let types):
            content = .object(
                Dictionary(uniqueKeysWithValues: types.map { ($0, ["schema": ["type": "string", "format": "binary"]]) }))
        }
        var response: [String: JSONValue] = ["description": .string(route.summary), "content": content]
        if route.path == Routes.public.config.path { response["headers"] = cacheHeaders }
        return .object(response)
    }

    /// Every failure the route can answer, by status: bad input for routes with a body, the
    /// credential's refusals, quarantine, a restricted session, the sign-in limit, and the route's own.
    private static func failureResponses(for route: AnyRoute, schemas: inout SchemaRendering) -> [String: JSONValue] {
        var failures = route.failures
        if route.requestType is any RawRequestBody.Type {
            failures += [.validationError, .payloadTooLarge, .unsupportedMediaType]
        } else if route.requestType != nil {
            failures += [.invalidJSON, .validationError, .payloadTooLarge]
        }
        // A query value the route checks (a number out of its range, a choice it does not offer).
        if route.query.contains(where: { $0.integers != nil || $0.allowed != nil }) { failures.append(.validationError) }
        if route.credential != .none { failures += [.unauthorized, .tokenExpired] }
        // A blocked route, or an allowed one asked for another company than the caller's.
        if route.credential == .staff, route.quarantine != .allowed || route.scope != .any {
            failures += [.accountPendingApproval, .accountSuspended]
        }
        // A restricted session (docs/API.md §13.3) reaches only the routes enrolment needs.
        if route.credential == .staff, route.enrolment == .blocked { failures.append(.factorEnrolmentRequired) }
        if route.permission != nil { failures.append(.forbidden) }
        if !route.budgets.isEmpty { failures.append(.rateLimited) }
        failures.append(.internalError)
        let byStatus = Dictionary(grouping: failures, by: \.status)
        // REKI's failures carry no code: one shape for all of them (seed 002).
        let rekiError: JSONValue? = Routes.REKI.contains(path: route.path.description) ? .some(schemas.reference(REKIErrorBody.self)) : .none
        return Dictionary(
            uniqueKeysWithValues: byStatus.map { status, failures in
                let codes = Array(Set(failures.map(\.code))).sorted { $0.rawValue < $1.rawValue }
                var response: [String: JSONValue] = [
                    "description": .string(codes.map(\.rawValue).joined(separator: ", ")),
                    "content": ["application/json": ["schema": rekiError ?? errorEnvelopeSchema(codes: codes, data: status == 503)]],
                ]
                if status == 429 {
                    response["headers"] = [
                        "Retry-After": [
                            "description": "Seconds to wait before trying again", "required": true,
                            "schema": ["type": "integer", "minimum": 1],
                        ]
                    ]
                }
                return (String(status), .object(response))
            })
    }

    /// `{"success": false, "error": "...", "code": one of codes}`; the 503 of health also
    /// carries its data.
    private static func errorEnvelopeSchema(codes: [ErrorCode], data: Bool = false) -> JSONValue {
        var properties: [String: JSONValue] = [
            "success": ["type": "boolean", "enum": [false]],
            "error": ["type": "string", "description": "A message for people"],
            "code": ["type": "string", "enum": .array(codes.map { .string($0.rawValue) })],
        ]
        if data { properties["data"] = ["$ref": "#/components/schemas/HealthResponse"] }
        if codes.contains(.clientExists) {
            properties["clientId"] = ["type": "string", "description": "The existing client with the address (CLIENT_EXISTS)"]
        }
        return ["type": "object", "required": ["success", "error", "code"], "properties": .object(properties)]
    }

    /// A raw body's example, as its text.
    private static func rawExample<Raw: RawRequestBody>(_ type: Raw.Type) -> JSONValue {
        .string(String(decoding: Raw.example.bytes, as: UTF8.self))
    }

    private static let cacheHeaders: JSONValue = [
        "ETag": ["description": "The configuration's version", "schema": ["type": "string"]],
        "Cache-Control": ["description": "public, max-age=86400", "schema": ["type": "string"]],
    ]

    /// `post /api/auth/2fa/verify` → `postApiAuth2faVerify`.
    private static func operationId(_ route: AnyRoute) -> String {
        let words = route.path.description.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
        return route.method.rawValue.lowercased() + words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// `schema` (a rendered object) with `limit.property`'s `maximum` (its own, or its
    /// non-null choice's) set to `limit.maximum`.
    private static func stating(_ limit: SettingMaximum, in schema: JSONValue?) -> JSONValue? {
        guard case .object(var object)? = schema, case .object(var properties)? = object["properties"],
            case .object(var property)? = properties[limit.property]
        else { return schema }
        if case .array(var choices)? = property["anyOf"], case .object(var first)? = choices.first {
            first["maximum"] = .number(Double(limit.maximum))
            choices[0] = .object(first)
            property["anyOf"] = .array(choices)
        } else {
            property["maximum"] = .number(Double(limit.maximum))
        }
        properties[limit.property] = .object(property)
        object["properties"] = .object(properties)
        return .object(object)
    }
}

extension JSONValue {
    /// The members of an object, nil otherwise.
    var objectMembers: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }
}
