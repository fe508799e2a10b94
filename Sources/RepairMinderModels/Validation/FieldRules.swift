import Foundation

/// The field rules of docs/API.md §1, shared by the server's validating decoder and the SDK's forms.
public enum FieldRules {
    /// Trimmed; empty is missing.
    public static func text(_ value: String, _ name: String, maxLength: Int = 1024) throws(FieldProblem) -> String {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw FieldProblem("\(name) is required") }
        guard trimmed.utf8.count <= maxLength else { throw FieldProblem("\(name) is too long") }
        return trimmed
    }

    /// An optional `text`: nil stays nil.
    public static func optionalText(_ value: String?, _ name: String, maxLength: Int = 1024) throws(FieldProblem) -> String? {
        guard let value else { return nil }
        return try text(value, name, maxLength: maxLength)
    }

    /// Kept exactly as sent (passwords: spaces are part of them), non-empty.
    public static func secret(_ value: String, _ name: String, maxLength: Int = 1024) throws(FieldProblem) -> String {
        guard !value.isEmpty else { throw FieldProblem("\(name) is required") }
        guard value.utf8.count <= maxLength else { throw FieldProblem("\(name) is too long") }
        return value
    }

    /// A well-formed address, trimmed and lowercased (emails compare case-insensitively).
    public static func email(_ value: String, _ name: String = "email") throws(FieldProblem) -> String {
        let trimmed = try text(value, name)
        guard EmailAddress.isValid(trimmed) else { throw FieldProblem("\(name) must be a valid email address") }
        return trimmed.lowercased()
    }

    /// Exactly six decimal digits.
    public static func sixDigitCode(_ value: String, _ name: String = "code") throws(FieldProblem) -> String {
        let trimmed = try text(value, name)
        guard trimmed.count == 6, trimmed.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw FieldProblem("\(name) must be a 6-digit code")
        }
        return trimmed
    }

    /// Six digits (emailed or authenticator code) or an 8-character recovery code.
    public static func secondFactorCode(_ value: String, _ name: String = "code") throws(FieldProblem) -> String {
        let trimmed = try text(value, name)
        let isDigits = trimmed.count == 6 && trimmed.allSatisfy { $0.isASCII && $0.isNumber }
        guard isDigits || RecoveryCodeFormat.looksLikeOne(trimmed) else {
            throw FieldProblem("\(name) must be a 6-digit code or an 8-character recovery code")
        }
        return trimmed
    }

    /// An identifier: anything non-empty up to 128 characters, so that a wrong id is a "not
    /// found" answer rather than a validation error.
    public static func identifier(_ value: String, _ name: String) throws(FieldProblem) -> String {
        try text(value, name, maxLength: 128)
    }

    /// An optional `identifier`.
    public static func optionalIdentifier(_ value: String?, _ name: String) throws(FieldProblem) -> String? {
        guard let value else { return nil }
        return try identifier(value, name)
    }
}

/// A pragmatic email check: one `@`, something before it, a dotted domain after it, no spaces,
/// no control characters (NUL, BEL, ...) and no invisible format characters (bidi overrides,
/// zero-width spaces) that would make two different addresses look alike.
public enum EmailAddress {
    public static func isValid(_ value: String) -> Bool {
        guard value.utf8.count <= 254, !value.contains(where: { $0.isWhitespace }) else { return false }
        guard !value.unicodeScalars.contains(where: { [.control, .format].contains($0.properties.generalCategory) }) else {
            return false
        }
        let parts = value.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].count <= 64 else { return false }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && labels.allSatisfy { !$0.isEmpty }
    }
}

/// The shape of a recovery code: 8 letters and digits once spaces and dashes are dropped.
public enum RecoveryCodeFormat {
    public static let length = 8

    /// The canonical form of what a person typed: uppercase, spaces and dashes removed.
    public static func normalize(_ input: String) -> String {
        input.uppercased().filter { $0 != " " && $0 != "-" }
    }

    public static func looksLikeOne(_ input: String) -> Bool {
        let code = normalize(input)
        return code.count == length && code.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }
}
