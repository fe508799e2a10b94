/// One key of a response object: its name, the property it carries and its schema. The key
/// path ties the documented key to the type's property, as `RequestField` does for bodies, so
/// the schema tests check every declared key, not only the ones an example happens to hold
/// (an optional left `nil` in every example is checked too).
public struct ResponseField<Object>: Sendable {
    /// The key as the document lists it.
    public let property: JSONSchema.Property
    /// Whether `object` holds a value for this key (false for an optional that is nil).
    public let holdsValue: @Sendable (Object) -> Bool

    /// A key whose property always has a value.
    public init<Value>(_ name: String, _ path: KeyPath<Object, Value> & Sendable, _ schema: JSONSchema, required: Bool = true) {
        property = JSONSchema.Property(name, schema, required: required)
        holdsValue = { _ in true }
    }

    /// A key whose property is optional: `null` or left out when nil, as `schema` says.
    public init<Value>(_ name: String, _ path: KeyPath<Object, Value?> & Sendable, _ schema: JSONSchema, required: Bool = true) {
        property = JSONSchema.Property(name, schema, required: required)
        holdsValue = { $0[keyPath: path] != nil }
    }
}

/// A wire type encoded as one JSON object whose keys are declared with the properties they
/// carry (`fields`); its schema is the object of those keys.
public protocol WireObject: WireType {
    /// The object's keys, in the document's order.
    static var fields: [ResponseField<Self>] { get }
}

extension JSONSchema {
    /// The object of `fields`' keys.
    public static func object<Object>(_ fields: [ResponseField<Object>], description: String? = nil) -> JSONSchema {
        .object(fields.map(\.property), description: description)
    }
}

extension ResponseField {
    /// This key as a key of an object that holds `Object` at `path` and encodes its keys
    /// inline (a member is a staff user plus more).
    public func within<Outer>(_ path: KeyPath<Outer, Object> & Sendable) -> ResponseField<Outer> {
        let holds = holdsValue
        return ResponseField<Outer>(property: property, holdsValue: { holds($0[keyPath: path]) })
    }

    init(property: JSONSchema.Property, holdsValue: @escaping @Sendable (Object) -> Bool) {
        self.property = property
        self.holdsValue = holdsValue
    }
}
