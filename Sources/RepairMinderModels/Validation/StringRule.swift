import Foundation

/// The rule of one string field of a request, written once: the JSON Schema keywords that the
/// OpenAPI document publishes (`schema`) are the ones the server checks (`check`), on the value
/// as sent, so a value fits the document exactly when the server takes it. What the rule adds
/// to the keywords is only what a schema cannot say: the message of a failure and how an
/// accepted value is normalised (trimmed, lowercased) before a handler sees it.
public struct StringRule: Sendable {
    /// How an accepted value is handed on.
    public enum Normalisation: Sendable {
        /// Exactly as sent (passwords: spaces are part of them).
        case none
        /// Without the whitespace around it (`FieldRules.whitespace`).
        case trimmed
        /// Trimmed and lowercased (email addresses compare case-insensitively).
        case trimmedLowercased
        /// Trimmed and in Unicode's canonical composition, NFC (text a person reads).
        case trimmedComposed
    }

    /// What the text must contain besides its length.
    public enum Content: Sendable {
        /// Anything.
        case any
        /// A match of this pattern (ECMA-262, Python `re` and ICU read it alike: explicit classes only).
        case pattern(String, mismatch: String)
        /// One of these values, exactly as written (the schema's `enum`).
        case oneOf([String])
    }

    public let minLength: Int?
    public let maxLength: Int?
    public let content: Content
    public let normalisation: Normalisation
    public let description: String?

    public init(
        minLength: Int? = nil, maxLength: Int? = nil, content: Content = .any, normalisation: Normalisation = .none,
        description: String? = nil
    ) {
        self.minLength = minLength
        self.maxLength = maxLength
        self.content = content
        self.normalisation = normalisation
        self.description = description
        if case .pattern(let pattern, _) = content { CompiledPatterns.shared.prepare(pattern) }
    }

    /// The same rule with another description.
    public func described(_ description: String) -> StringRule {
        StringRule(minLength: minLength, maxLength: maxLength, content: content, normalisation: normalisation, description: description)
    }

    /// The JSON Schema of the field: what the server checks in `check`.
    public var schema: JSONSchema {
        var rules = JSONSchema.StringRules(minLength: minLength, maxLength: maxLength, description: description)
        switch content {
        case .any: break
        case .pattern(let pattern, _): rules.pattern = pattern
        case .oneOf(let values): rules.allowed = values
        }
        return .string(rules)
    }

    /// The value normalised, or the problem that names field `name`. Lengths count Unicode code
    /// points, as JSON Schema does.
    public func check(_ value: String, _ name: String) throws(FieldProblem) -> String {
        let trimmed = normalisation == .none ? value : FieldRules.trimmingWhitespace(value)
        // A blank value is missing, whatever else the rule says: the clearest message for it.
        if normalisation != .none, trimmed.isEmpty { throw FieldProblem("\(name) is required") }
        let length = value.unicodeScalars.count
        if let minLength, length < minLength { throw FieldProblem(minLength == 1 ? "\(name) is required" : "\(name) is too short") }
        if let maxLength, length > maxLength { throw FieldProblem("\(name) is too long") }
        switch content {
        case .any: break
        case .pattern(let pattern, let mismatch):
            guard CompiledPatterns.shared.matches(value, pattern) else { throw FieldProblem("\(name) \(mismatch)") }
        case .oneOf(let values):
            guard values.contains(trimmed) else { throw FieldProblem("\(name) must be one of \(values.joined(separator: ", "))") }
        }
        switch normalisation {
        case .none: return value
        case .trimmed: return trimmed
        case .trimmedLowercased: return trimmed.lowercased()
        case .trimmedComposed:
            // Composition can lengthen a few characters (U+0958 is two code points in NFC):
            // the stored value keeps to the limit too.
            let composed = trimmed.precomposedStringWithCanonicalMapping
            if let maxLength, composed.unicodeScalars.count > maxLength { throw FieldProblem("\(name) is too long") }
            return composed
        }
    }
}

/// The rule's patterns, compiled once each (NSRegularExpression is immutable and thread-safe).
final class CompiledPatterns: @unchecked Sendable {
    static let shared = CompiledPatterns()
    private let lock = NSLock()
    private var compiled: [String: NSRegularExpression] = [:]

    func prepare(_ pattern: String) { _ = expression(pattern) }

    /// Whether `pattern` matches somewhere in `text` (JSON Schema patterns are not anchored).
    func matches(_ text: String, _ pattern: String) -> Bool {
        guard let expression = expression(pattern) else { return false }
        return expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    private func expression(_ pattern: String) -> NSRegularExpression? {
        lock.lock()
        defer { lock.unlock() }
        if let known = compiled[pattern] { return known }
        // The patterns are this module's own constants: one that does not compile is a bug the
        // tests catch (every rule's pattern is checked against its examples).
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return nil }
        compiled[pattern] = expression
        return expression
    }
}
