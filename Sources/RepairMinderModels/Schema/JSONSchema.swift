/// A JSON Schema (the OpenAPI 3.1 dialect) for one wire type, written next to the type so the
/// OpenAPI document is generated from the same place the type is defined.
public indirect enum JSONSchema: Sendable {
    case string(StringRules = StringRules())
    case integer(minimum: Int? = nil, maximum: Int? = nil)
    case number
    case boolean
    /// A list of `items`, at most `maxItems` long when given.
    case array(JSONSchema, maxItems: Int? = nil)
    /// Properties in the order they are documented; `required` names those always present.
    case object([Property], description: String? = nil)
    /// The value or `null`.
    case nullable(JSONSchema)
    /// Another wire type, documented once under its own name.
    case reference(any WireType.Type)
    /// Any JSON value.
    case anything
    /// One of several shapes (a response that takes two forms).
    case oneOf([JSONSchema])

    /// Formats and limits of a string.
    public struct StringRules: Sendable {
        public var format: String?
        public var pattern: String?
        public var minLength: Int?
        public var maxLength: Int?
        public var allowed: [String]?
        public var description: String?
        public init(
            format: String? = nil, pattern: String? = nil, minLength: Int? = nil, maxLength: Int? = nil,
            allowed: [String]? = nil, description: String? = nil
        ) {
            self.format = format
            self.pattern = pattern
            self.minLength = minLength
            self.maxLength = maxLength
            self.allowed = allowed
            self.description = description
        }
    }

    /// One member of an object.
    public struct Property: Sendable {
        public let name: String
        public let schema: JSONSchema
        public let isRequired: Bool
        public init(_ name: String, _ schema: JSONSchema, required: Bool = true) {
            self.name = name
            self.schema = schema
            isRequired = required
        }
    }
}

extension JSONSchema {
    /// A plain string.
    public static var text: JSONSchema { .string() }
    /// A non-empty string.
    public static var nonEmptyText: JSONSchema { .string(StringRules(minLength: 1)) }
    /// An email address (`FieldRules.email`).
    public static var email: JSONSchema { FieldRules.email.schema }
    /// A 6-digit code (`FieldRules.sixDigitCode`).
    public static var sixDigitCode: JSONSchema { FieldRules.sixDigitCode.schema }
    /// An ISO 8601 UTC timestamp.
    public static var timestamp: JSONSchema { .string(StringRules(format: "date-time")) }
    /// One of `values`.
    public static func oneOf(_ values: [String]) -> JSONSchema { .string(StringRules(allowed: values)) }
    /// A string enum's cases.
    public static func cases<Value: RawRepresentable & CaseIterable>(of type: Value.Type) -> JSONSchema
    where Value.RawValue == String {
        .oneOf(Value.allCases.map(\.rawValue))
    }
    /// The schema of a wire type, by reference.
    public static func ref(_ type: any WireType.Type) -> JSONSchema { .reference(type) }
    /// `1` or `0`: the backend's integer booleans.
    public static var integerBoolean: JSONSchema { .integer(minimum: 0, maximum: 1) }

    /// Whether this is `integerBoolean`, or `null` or it: a Swift `Bool` is sent as `1` or `0`.
    var isIntegerBoolean: Bool {
        switch self {
        case .integer(minimum: 0, maximum: 1): true
        case .nullable(let inner): inner.isIntegerBoolean
        default: false
        }
    }
}

/// A type that travels over the wire: it documents its JSON shape and gives an example of it.
public protocol WireType: Codable, Sendable {
    /// The name the OpenAPI document files the schema under.
    static var schemaName: String { get }
    /// The JSON shape of the encoded value.
    static var schema: JSONSchema { get }
    /// A representative value, shown in the document and checked against `schema` in tests.
    static var example: Self { get }
}

extension WireType {
    public static var schemaName: String { String(describing: Self.self) }
}

extension JSONSchema {
    /// The wire types this schema names by reference, directly (not theirs in turn).
    public var references: [any WireType.Type] {
        switch self {
        case .reference(let type): [type]
        case .nullable(let inner), .array(let inner, _): inner.references
        case .oneOf(let choices): choices.flatMap(\.references)
        case .object(let properties, _): properties.flatMap(\.schema.references)
        case .string, .integer, .number, .boolean, .anything: []
        }
    }
}
