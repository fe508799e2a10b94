import Foundation

/// Why a fixtures file cannot be read, in the file's own terms: a line and column for broken
/// JSON, a key's path (`users[1].isActve`) for a key or value that does not fit.
public struct FixtureFileError: Error, CustomStringConvertible {
    public let description: String
}

extension FixtureFile {
    /// Reads a fixtures file strictly: broken JSON is refused with its line and column, any key
    /// this format does not have (at any level) with its path, and a value of the wrong type
    /// or a missing required key with its path. `JSONDecoder` alone would ignore unknown keys,
    /// quietly giving a misspelt optional field its default.
    public static func read(_ data: Data) throws -> FixtureFile {
        do {
            try JSONSyntax.check(data)
        } catch {
            throw FixtureFileError(description: "not valid JSON: \(error)")
        }
        let tree = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        if let unknown = Self.unknownKey(in: tree) {
            throw FixtureFileError(description: "\(unknown.path): unknown key \"\(unknown.key)\"; the keys are \(unknown.known.joined(separator: ", "))")
        }
        do {
            return try JSONDecoder().decode(FixtureFile.self, from: data)
        } catch let error as DecodingError {
            throw FixtureFileError(description: Self.describe(error))
        }
    }

    /// The keys each level of the file may have: the `CodingKeys` the decoder uses.
    private static let schema: [String: [String]] = [
        "": CodingKeys.allCases.map(\.rawValue),
        "companies": Company.CodingKeys.allCases.map(\.rawValue),
        "users": User.CodingKeys.allCases.map(\.rawValue),
        "clients": Client.CodingKeys.allCases.map(\.rawValue),
    ]

    /// The first key of `tree` outside the format, in file order where JSON keeps one (sorted,
    /// since `JSONSerialization` does not), with where it is. Values of the wrong shape are
    /// left to the decoder, which names them.
    private static func unknownKey(in tree: Any) -> (path: String, key: String, known: [String])? {
        guard let top = tree as? [String: Any], let known = schema[""] else { return nil }
        if let key = top.keys.sorted().first(where: { !known.contains($0) }) { return ("the file", key, known) }
        for list in ["companies", "users", "clients"] {
            guard let items = top[list] as? [Any], let allowed = schema[list] else { continue }
            for (index, item) in items.enumerated() {
                guard let object = item as? [String: Any] else { continue }
                if let key = object.keys.sorted().first(where: { !allowed.contains($0) }) {
                    return ("\(list)[\(index)]", key, allowed)
                }
            }
        }
        return nil
    }

    /// A decoding error as a person reads it: where, and what was expected.
    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)): expected \(kind(of: type))"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)): expected \(kind(of: type)), found null"
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath)): the required key \"\(key.stringValue)\" is missing"
        case .dataCorrupted(let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    /// `users[1].email`, or "the file" for the top level.
    private static func path(_ keys: [any CodingKey]) -> String {
        guard !keys.isEmpty else { return "the file" }
        var text = ""
        for key in keys {
            if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
        }
        return text
    }

    private static func kind(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type, is Double.Type: "a number"
        case is [Any].Type: "a list [...]"
        default: "an object {...}"
        }
    }
}
