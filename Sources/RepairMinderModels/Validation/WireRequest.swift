/// A request body described once, field by field: the JSON Schema the OpenAPI document
/// publishes (`schema`) and the check the server applies (`validated()`) both come from
/// `fields`, so the two cannot disagree (docs/API.md §1).
public protocol WireRequest: WireType {
    /// The fields, in the order the document lists them.
    static var fields: [RequestField<Self>] { get }
    /// What the body is, when the route's summary does not say it all.
    static var bodyDescription: String? { get }
}

extension WireRequest {
    public static var bodyDescription: String? { nil }

    public static var schema: JSONSchema { .object(fields.map(\.property), description: bodyDescription) }

    /// The body with its fields normalised (trimmed, emails lowercased), or the first field
    /// that breaks its rule. Types and required keys were checked by decoding.
    public func validated() throws(FieldProblem) -> Self {
        var body = self
        for field in Self.fields { try field.check(&body) }
        return body
    }

    /// The value of string field `name`, if the body has such a field and it is given (what a
    /// route's budget is keyed by: `RouteBudget.Key.bodyEmail`).
    public func text(of name: String) -> String? {
        Self.fields.first { $0.property.name == name }?.read?(self)
    }
}

/// One field of a `WireRequest`: its name, its schema, and how it is checked.
public struct RequestField<Body>: Sendable {
    /// The field as the document lists it.
    public let property: JSONSchema.Property
    fileprivate let check: @Sendable (inout Body) throws(FieldProblem) -> Void
    /// The field's text, for string fields.
    fileprivate var read: (@Sendable (Body) -> String?)? = nil

    /// A string field that must be present, checked by `rule`.
    public static func string(_ name: String, _ path: WritableKeyPath<Body, String> & Sendable, _ rule: StringRule) -> Self {
        RequestField(
            property: .init(name, rule.schema),
            check: { body throws(FieldProblem) in body[keyPath: path] = try rule.check(body[keyPath: path], name) },
            read: { $0[keyPath: path] })
    }

    /// A string field that may be left out or be `null` (both mean "not given"), checked by
    /// `rule` when it is a string.
    public static func optional(_ name: String, _ path: WritableKeyPath<Body, String?> & Sendable, _ rule: StringRule) -> Self {
        RequestField(
            property: .init(name, .nullable(rule.schema), required: false),
            check: { body throws(FieldProblem) in
                guard let value = body[keyPath: path] else { return }
                body[keyPath: path] = try rule.check(value, name)
            },
            read: { $0[keyPath: path] })
    }

    /// A field whose Swift type is its whole rule, checked while decoding: an enum
    /// (`WireEnum` names the allowed values), a boolean.
    public static func decoded(_ name: String, _ schema: JSONSchema, required: Bool = true) -> Self {
        RequestField(property: .init(name, schema, required: required), check: { _ throws(FieldProblem) in })
    }
}
