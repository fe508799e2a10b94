/// A request body described once, field by field: the JSON Schema the OpenAPI document
/// publishes (`schema`) and the check the server applies (`validated()`) both come from
/// `fields`, so the two cannot disagree (docs/API.md §1).
public protocol WireRequest: WireType {
    /// The fields, in the order the document lists them.
    static var fields: [RequestField<Self>] { get }
    /// What the body is, when the route's summary does not say it all.
    static var bodyDescription: String? { get }
    /// Optional fields of which exactly one must be given (a code or a passkey); empty for most.
    static var exactlyOneOf: [String] { get }
    /// What a member the type does not know is met with (`UnknownFields`; `.refused` unless said).
    static var unknownFields: UnknownFields { get }
}

extension WireRequest {
    public static var bodyDescription: String? { nil }
    public static var exactlyOneOf: [String] { [] }

    /// An object of `fields`; with `exactlyOneOf`, one such object per alternative, in which
    /// that field is required and the others absent, so a body fits exactly one of them when
    /// it gives exactly one of the fields.
    public static var schema: JSONSchema {
        let properties = fields.map(\.property)
        guard !exactlyOneOf.isEmpty else { return .object(properties, description: bodyDescription) }
        return .oneOf(
            exactlyOneOf.map { chosen in
                .object(
                    properties.compactMap { property in
                        guard exactlyOneOf.contains(property.name) else { return property }
                        guard property.name == chosen else { return nil }
                        // Given, and not `null` (which is not giving it).
                        if case .nullable(let given) = property.schema { return JSONSchema.Property(property.name, given) }
                        return JSONSchema.Property(property.name, property.schema)
                    }, description: bodyDescription)
            })
    }

    /// The body with its fields normalised (trimmed, emails lowercased), or the first field
    /// that breaks its rule. Types and required keys were checked by decoding.
    public func validated() throws(FieldProblem) -> Self {
        var body = self
        for field in Self.fields { try field.check(&body) }
        if !Self.exactlyOneOf.isEmpty {
            let given = Self.fields.filter { Self.exactlyOneOf.contains($0.property.name) && $0.isGiven(body) }
            if given.count != 1 {
                let names = Self.exactlyOneOf.joined(separator: " or ")
                throw FieldProblem(given.isEmpty ? "\(names) is required" : "Send \(names), not both")
            }
        }
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
    /// Whether the body gives the field (for `WireRequest.exactlyOneOf`).
    fileprivate var isGiven: @Sendable (Body) -> Bool = { _ in true }

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
            read: { $0[keyPath: path] }, isGiven: { $0[keyPath: path] != nil })
    }

    /// A list of strings that must be present, at most `maxItems` long, each checked by `rule`
    /// (a problem names the item: `redirectUris[1] is too long`).
    public static func list(_ name: String, _ path: WritableKeyPath<Body, [String]> & Sendable, _ rule: StringRule, maxItems: Int) -> Self {
        RequestField(
            property: .init(name, .array(rule.schema, maxItems: maxItems)),
            check: { body throws(FieldProblem) in body[keyPath: path] = try checkList(body[keyPath: path], name, rule, maxItems) })
    }

    /// A list of strings that may be left out or be `null`, checked as `list` when given.
    public static func optionalList(_ name: String, _ path: WritableKeyPath<Body, [String]?> & Sendable, _ rule: StringRule, maxItems: Int)
        -> Self
    {
        RequestField(
            property: .init(name, .nullable(.array(rule.schema, maxItems: maxItems)), required: false),
            check: { body throws(FieldProblem) in
                guard let items = body[keyPath: path] else { return }
                body[keyPath: path] = try checkList(items, name, rule, maxItems)
            },
            isGiven: { $0[keyPath: path] != nil })
    }

    private static func checkList(_ items: [String], _ name: String, _ rule: StringRule, _ maxItems: Int) throws(FieldProblem) -> [String] {
        guard items.count <= maxItems else { throw FieldProblem("\(name) takes at most \(maxItems) items") }
        var checked: [String] = []
        for (index, item) in items.enumerated() { checked.append(try rule.check(item, "\(name)[\(index)]")) }
        return checked
    }

    /// An object field with rules of its own, checked by them; a problem is named by its path
    /// (`credential.response.signature is required`).
    public static func object<Nested: WireRequest>(_ name: String, _ path: WritableKeyPath<Body, Nested> & Sendable) -> Self {
        RequestField(
            property: .init(name, .ref(Nested.self)),
            check: { body throws(FieldProblem) in body[keyPath: path] = try Self.nested(body[keyPath: path], name) })
    }

    /// An object field that may be left out or be `null`.
    public static func optionalObject<Nested: WireRequest>(_ name: String, _ path: WritableKeyPath<Body, Nested?> & Sendable) -> Self {
        RequestField(
            property: .init(name, .nullable(.ref(Nested.self)), required: false),
            check: { body throws(FieldProblem) in
                guard let value = body[keyPath: path] else { return }
                body[keyPath: path] = try Self.nested(value, name)
            },
            isGiven: { $0[keyPath: path] != nil })
    }

    private static func nested<Nested: WireRequest>(_ value: Nested, _ name: String) throws(FieldProblem) -> Nested {
        do {
            return try value.validated()
        } catch {
            throw FieldProblem("\(name).\(error.message)")
        }
    }

    /// A whole-number field that may be left out or be `null`, within `range`.
    public static func optionalInteger(_ name: String, _ path: WritableKeyPath<Body, Int?> & Sendable, in range: ClosedRange<Int>) -> Self {
        RequestField(
            property: .init(name, .nullable(.integer(minimum: range.lowerBound, maximum: range.upperBound)), required: false),
            check: { body throws(FieldProblem) in
                guard let value = body[keyPath: path], !range.contains(value) else { return }
                throw FieldProblem("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
            },
            isGiven: { $0[keyPath: path] != nil })
    }

    /// A field whose Swift type is its whole rule, checked while decoding: an enum
    /// (`WireEnum` names the allowed values), a boolean.
    public static func decoded(_ name: String, _ schema: JSONSchema, required: Bool = true) -> Self {
        RequestField(property: .init(name, schema, required: required), check: { _ throws(FieldProblem) in })
    }
}
