import Foundation
import RepairMinderModels

/// Turns `JSONSchema` values into OpenAPI 3.1 schema objects, filing every referenced wire type
/// once under `components.schemas`.
struct SchemaRendering {
    /// Rendered component schemas by name.
    private(set) var components: [String: JSONValue] = [:]

    /// A `$ref` to `type`'s component, rendering it (and what it references) the first time.
    mutating func reference(_ type: any WireType.Type) -> JSONValue {
        let name = type.schemaName
        if components[name] == nil {
            components[name] = [:]  // placeholder: a type that refers to itself stops here
            var rendered = render(type.schema)
            if let request = type as? any WireRequest.Type, request.unknownFields == .refused {
                rendered = Self.closed(rendered)
            }
            if case .object(var members) = rendered, let example = Self.example(of: type) {
                members["examples"] = [example]
                rendered = .object(members)
            }
            components[name] = rendered
        }
        return ["$ref": .string("#/components/schemas/\(name)")]
    }

    mutating func render(_ schema: JSONSchema) -> JSONValue {
        switch schema {
        case .string(let rules):
            var members: [String: JSONValue] = ["type": "string"]
            if let format = rules.format { members["format"] = .string(format) }
            if let pattern = rules.pattern { members["pattern"] = .string(pattern) }
            if let minLength = rules.minLength { members["minLength"] = .number(Double(minLength)) }
            if let maxLength = rules.maxLength { members["maxLength"] = .number(Double(maxLength)) }
            if let allowed = rules.allowed { members["enum"] = .array(allowed.map(JSONValue.string)) }
            if let description = rules.description { members["description"] = .string(description) }
            return .object(members)
        case .integer(let minimum, let maximum):
            var members: [String: JSONValue] = ["type": "integer"]
            if let minimum { members["minimum"] = .number(Double(minimum)) }
            if let maximum { members["maximum"] = .number(Double(maximum)) }
            return .object(members)
        case .number: return ["type": "number"]
        case .boolean: return ["type": "boolean"]
        case .array(let items, let maxItems):
            var members: [String: JSONValue] = ["type": "array", "items": render(items)]
            if let maxItems { members["maxItems"] = .number(Double(maxItems)) }
            return .object(members)
        case .object(let properties, let description):
            var members: [String: JSONValue] = ["type": "object"]
            members["properties"] = .object(
                Dictionary(properties.map { ($0.name, render($0.schema)) }, uniquingKeysWith: { first, _ in first }))
            let required = properties.filter(\.isRequired).map { JSONValue.string($0.name) }
            if !required.isEmpty { members["required"] = .array(required) }
            if let description { members["description"] = .string(description) }
            return .object(members)
        case .nullable(let wrapped): return ["anyOf": [render(wrapped), ["type": "null"]]]
        case .reference(let type): return reference(type)
        case .anything: return [:]
        case .oneOf(let choices): return ["oneOf": .array(choices.map { render($0) })]
        }
    }

    /// `schema` (an object, or a choice of objects) taking no member it does not list
    /// (`additionalProperties: false`): a body whose type refuses unknown fields.
    private static func closed(_ schema: JSONValue) -> JSONValue {
        guard case .object(var members) = schema else { return schema }
        if case .array(let choices) = members["oneOf"] {
            members["oneOf"] = .array(choices.map(closed))
        } else if members["type"] == "object" {
            members["additionalProperties"] = false
        }
        return .object(members)
    }

    /// The type's example as JSON, or nil for types that are not JSON (files).
    static func example(of type: any WireType.Type) -> JSONValue? {
        guard type != BinaryFile.self, let data = try? JSONEncoder().encode(type.example) else { return nil }
        return try? JSONDecoder().decode(JSONValue.self, from: data)
    }
}
