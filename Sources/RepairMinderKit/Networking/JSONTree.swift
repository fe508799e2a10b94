import Foundation

/// A parsed JSON document, for `EitherCaseDecoder` to walk. Unlike `JSONValue` it keeps whole
/// numbers as integers, so an `Int64` id or timestamp survives exactly.
enum JSONTree: Decodable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONTree])
    case object([String: JSONTree])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Strings first: they are most of an answer's values, and each failed try costs an error.
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode([String: JSONTree].self) {
            self = .object(value)
        } else {
            self = .array(try container.decode([JSONTree].self))
        }
    }

    /// What the value is, for error messages.
    var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
