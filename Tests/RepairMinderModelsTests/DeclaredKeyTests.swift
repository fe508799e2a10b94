import Foundation
import RepairMinderModels
import Testing

/// Every key a response object declares is one its type really reads and writes, into the
/// property the declaration names, including the optional ones every example leaves out: an
/// object with every declared key given a value decodes into a value holding each of them,
/// and encodes them all back under the same keys, fitting the schema.
@Suite struct DeclaredKeyTests {
    static let objects: [any WireObject.Type] = SchemaTests.jsonTypes.compactMap { $0 as? any WireObject.Type }

    @Test func everyResponseObjectDeclaresItsKeysWithKeyPaths() {
        // The objects among the table's types that are not request bodies (those have their
        // own key-path fields, `WireRequest`).
        let responses = SchemaTests.jsonTypes.filter { type in
            guard case .object(let properties, _) = type.schema, !properties.isEmpty else { return false }
            return !(type is any WireRequest.Type)
        }
        for type in responses {
            #expect(type is any WireObject.Type, "\(type.schemaName) names its keys without key paths")
        }
    }

    @Test(arguments: DeclaredKeyTests.objects)
    func everyDeclaredKeyReachesItsProperty(_ type: any WireObject.Type) throws {
        try Self.check(type)
    }

    static func check<Object: WireObject>(_ type: Object.Type) throws {
        guard case .object(var members) = try SchemaTests.encodedExample(of: type) else {
            Issue.record("\(type.schemaName)'s example is not an object")
            return
        }
        for field in type.fields where members[field.property.name] == nil || members[field.property.name] == .null {
            members[field.property.name] = try sample(field.property.schema)
        }
        let full = JSONValue.object(members)
        let decoded = try JSONDecoder().decode(Object.self, from: JSONEncoder().encode(full))
        let encoded = try SchemaTests.encoded(decoded)
        guard case .object(let written) = encoded else {
            Issue.record("\(type.schemaName) does not encode as an object")
            return
        }
        for field in type.fields {
            let name = field.property.name
            #expect(field.holdsValue(decoded), "\(type.schemaName).\(name) was given a value its property did not take")
            #expect(written[name].map { $0 != .null } == true, "\(type.schemaName).\(name) was not written back")
        }
        let problems = SchemaChecker.problems(encoded, type.schema)
        #expect(problems.isEmpty, "\(type.schemaName) with every key: \(problems.joined(separator: "; "))")
    }

    /// A value that fits `schema`, for a key the examples leave out.
    static func sample(_ schema: JSONSchema) throws -> JSONValue {
        switch schema {
        case .string(let rules):
            if let allowed = rules.allowed?.first { return .string(allowed) }
            if rules.format == "date-time" { return "2026-11-20T10:00:00Z" }
            if rules.format == "uri" { return "https://api.acme.test/x" }
            let candidates = ["sample", "482913", "20.00", "ABCD2345", "otpauth://totp/x", "AAAA", "someone@example.test"]
            let text = candidates.first { text in
                rules.pattern.map { SchemaChecker.matches(text, $0) } ?? true
            }
            guard let text else { throw SampleFailure(reason: "no sample for the pattern \(rules.pattern ?? "")") }
            return .string(String(repeating: text, count: max(1, (rules.minLength ?? 0) / text.count + 1)))
        case .integer(let minimum, _): return .number(Double(minimum ?? 1))
        case .number: return .number(1.5)
        case .boolean: return true
        case .array(let items, _): return .array([try sample(items)])
        case .object(let properties, _):
            return .object(Dictionary(uniqueKeysWithValues: try properties.map { ($0.name, try sample($0.schema)) }))
        case .nullable(let inner): return try sample(inner)
        case .reference(let type): return try referencedExample(type)
        case .anything: return "anything"
        case .oneOf(let choices):
            guard let first = choices.first else { throw SampleFailure(reason: "an empty oneOf") }
            return try sample(first)
        }
    }

    static func referencedExample<T: WireType>(_ type: T.Type) throws -> JSONValue { try SchemaTests.encodedExample(of: type) }

    struct SampleFailure: Error { let reason: String }
}
