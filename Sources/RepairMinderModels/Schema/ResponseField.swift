/// One key of a response object: its name, the property it carries and its schema. The key
/// path ties the documented key to the type's property, as `RequestField` does for bodies, so
/// the schema tests check every declared key, not only the ones an example happens to hold
/// (an optional left `nil` in every example is checked too).
public struct ResponseField<Object>: Sendable {
    /// The key as the document lists it.
    public let property: JSONSchema.Property
    /// Whether `object` holds a value for this key (false for an optional that is nil).
    public let holdsValue: @Sendable (Object) -> Bool
    /// Writes this key of an object as its schema says: the value (a boolean as `1` or `0` where
    /// the schema is `integerBoolean`), or for a nil, `null` when the key is required and
    /// nothing when it is not. Every `WireObject` is encoded by its fields' `write`.
    let write: @Sendable (Object, inout KeyedEncodingContainer<WireKey>) throws -> Void

    /// A key whose property always has a value.
    public init<Value: Encodable>(_ name: String, _ path: KeyPath<Object, Value> & Sendable, _ schema: JSONSchema, required: Bool = true) {
        property = JSONSchema.Property(name, schema, required: required)
        holdsValue = { _ in true }
        let key = WireKey(name), integerBoolean = schema.isIntegerBoolean
        write = { object, container in try container.encode(object[keyPath: path], forKey: key, integerBoolean: integerBoolean) }
    }

    /// A key whose property is optional: `null` when nil if `required`, else left out.
    public init<Value: Encodable>(_ name: String, _ path: KeyPath<Object, Value?> & Sendable, _ schema: JSONSchema, required: Bool = true) {
        property = JSONSchema.Property(name, schema, required: required)
        holdsValue = { $0[keyPath: path] != nil }
        let key = WireKey(name), integerBoolean = schema.isIntegerBoolean
        write = { object, container in
            if let value = object[keyPath: path] {
                try container.encode(value, forKey: key, integerBoolean: integerBoolean)
            } else if required {
                try container.encodeNil(forKey: key)
            }
        }
    }
}

/// A wire type encoded as one JSON object whose keys are declared with the properties they
/// carry (`fields`); its schema is the object of those keys.
public protocol WireObject: WireType {
    /// The object's keys, in the document's order: also the order and the form they are
    /// encoded in (`encode(to:)` below), so what is sent is what is documented.
    static var fields: [ResponseField<Self>] { get }
}

extension WireObject {
    /// The object as its `fields` declare it, key by key, in their order.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: WireKey.self)
        for field in Self.fields { try field.write(self, &container) }
    }
}

/// A key of a `WireObject`, as its field names it.
public struct WireKey: CodingKey, Sendable {
    public let stringValue: String
    public var intValue: Int? { nil }

    public init(_ name: String) { stringValue = name }
    public init?(stringValue: String) { self.stringValue = stringValue }
    public init?(intValue: Int) { nil }
}

extension KeyedEncodingContainer where Key == WireKey {
    /// `value`, or `1`/`0` for a boolean of an `integerBoolean` key.
    mutating func encode<Value: Encodable>(_ value: Value, forKey key: WireKey, integerBoolean: Bool) throws {
        if integerBoolean, let flag = value as? Bool {
            try encode(flag ? 1 : 0, forKey: key)
        } else {
            try encode(value, forKey: key)
        }
    }
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
        let (holds, write) = (holdsValue, write)
        return ResponseField<Outer>(
            property: property, holdsValue: { holds($0[keyPath: path]) }, write: { try write($0[keyPath: path], &$1) })
    }

    init(
        property: JSONSchema.Property, holdsValue: @escaping @Sendable (Object) -> Bool,
        write: @escaping @Sendable (Object, inout KeyedEncodingContainer<WireKey>) throws -> Void
    ) {
        self.property = property
        self.holdsValue = holdsValue
        self.write = write
    }
}
