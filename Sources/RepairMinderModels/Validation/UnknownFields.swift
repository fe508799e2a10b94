import Foundation

/// What a request body's members that its type does not know are met with (docs/API.md §1).
/// A record is answered in snake_case on some routes (§14.1) and read in camelCase, so a client
/// that sends back what it read would otherwise lose those fields and be told it succeeded.
public enum UnknownFields: Sendable {
    /// 400 `VALIDATION_ERROR` naming the member, and the field meant when it is another
    /// spelling of one (`first_name` for `firstName`): the routes of §11 onwards, which no
    /// legacy client calls, and every route added from now on.
    case refused
    /// Ignored, as the apps that call the routes of §2–§10 expect; a known field sent in another
    /// spelling is read as that field rather than dropped. Also the WebAuthn credential JSON,
    /// to which browsers add members as the standard grows.
    case tolerated
}

extension WireRequest {
    /// `.refused` unless a type says otherwise.
    public static var unknownFields: UnknownFields { .refused }

    /// `object` (a body's JSON object, nested at `path`: `"credential."`) as this type reads it:
    /// a member in another spelling of a known field renamed to it (`.tolerated`), or the first
    /// member the type does not know refused (`.refused`); the same, in turn, inside each member
    /// that is an object of rules of its own.
    public static func reconciled(_ object: [String: Any], path: String = "") throws(FieldProblem) -> [String: Any] {
        let known = fields.map(\.property)
        let byLoosely = Dictionary(known.map { (Self.loosely($0.name), $0.name) }, uniquingKeysWith: { first, _ in first })
        var result = object
        for key in object.keys.sorted() where !known.contains(where: { $0.name == key }) {
            let meant = byLoosely[Self.loosely(key)]
            switch unknownFields {
            case .refused:
                let hint = meant.map { "; did you mean \(path)\($0)?" } ?? ""
                throw FieldProblem("\(path)\(key) is not a field of this request\(hint)")
            case .tolerated:
                guard let meant else { continue }
                // The field's own spelling wins when both are sent.
                if result[meant] == nil { result[meant] = result[key] }
                result[key] = nil
            }
        }
        for property in known {
            guard let nested = Self.nestedRequest(property.schema), let inner = result[property.name] as? [String: Any] else { continue }
            result[property.name] = try nested.reconciled(inner, path: "\(path)\(property.name).")
        }
        return result
    }

    /// Whether a JSON body of this type may need `reconciled`: always when it refuses unknown
    /// members or holds objects of rules of their own; otherwise only when `body` has another
    /// spelling of a field, so the common body is decoded once.
    public static func needsReconciling(_ body: Data) -> Bool {
        guard unknownFields == .tolerated, !fields.contains(where: { nestedRequest($0.property.schema) != nil }) else { return true }
        return fields.contains { field in
            let name = field.property.name
            return name.contains(where: \.isUppercase) && body.range(of: Data("\"\(Self.snakeCased(name))\"".utf8)) != nil
        }
    }

    /// The type of a member that is an object of rules of its own, if it is one.
    private static func nestedRequest(_ schema: JSONSchema) -> (any WireRequest.Type)? {
        switch schema {
        case .reference(let type): type as? any WireRequest.Type
        case .nullable(let inner): nestedRequest(inner)
        default: nil
        }
    }

    /// A name with its spelling set aside: `first_name`, `firstName` and `FirstName` alike.
    private static func loosely(_ name: String) -> String { name.lowercased().replacingOccurrences(of: "_", with: "") }

    private static func snakeCased(_ name: String) -> String {
        name.reduce(into: "") { result, character in
            if character.isUppercase { result += "_" + character.lowercased() } else { result.append(character) }
        }
    }
}
