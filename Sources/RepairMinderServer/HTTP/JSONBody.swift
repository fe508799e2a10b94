import Foundation
import Hummingbird

/// A request's JSON object body, with field readers that answer API.md §1's validation errors
/// (400 `VALIDATION_ERROR`, the message naming the field).
struct JSONBody: Sendable {
    private let fields: [String: JSONValue]

    /// Reads and parses the body: not JSON or not an object → 400 `INVALID_JSON`; more than
    /// `limit` bytes → 413 `PAYLOAD_TOO_LARGE`.
    init(request: Request, limit: Int) async throws {
        if let contentType = request.headers[.contentType],
            !contentType.lowercased().hasPrefix("application/json")
        {
            throw APIError(.badRequest, "INVALID_JSON", "Content-Type must be application/json")
        }
        let buffer: ByteBuffer
        do {
            var request = request
            buffer = try await request.collectBody(upTo: limit)
        } catch {
            throw APIError.payloadTooLarge
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(buffer: buffer), options: [.fragmentsAllowed]),
            let dictionary = object as? [String: Any]
        else {
            throw APIError.invalidJSON
        }
        fields = dictionary.mapValues(JSONValue.init)
    }

    /// A non-empty string (trimmed).
    func string(_ name: String) throws -> String {
        guard let value = fields[name], value != .null else { throw APIError.validation("\(name) is required") }
        guard case .string(let raw) = value else { throw APIError.validation("\(name) must be a string") }
        let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw APIError.validation("\(name) is required") }
        return trimmed
    }

    /// A string kept exactly as sent (passwords: spaces are part of them), non-empty.
    func untrimmedString(_ name: String, maxLength: Int = 1024) throws -> String {
        guard let value = fields[name], value != .null else { throw APIError.validation("\(name) is required") }
        guard case .string(let raw) = value else { throw APIError.validation("\(name) must be a string") }
        guard !raw.isEmpty else { throw APIError.validation("\(name) is required") }
        guard raw.utf8.count <= maxLength else { throw APIError.validation("\(name) is too long") }
        return raw
    }

    /// An optional string: nil when absent or null, else non-empty after trimming.
    func optionalString(_ name: String) throws -> String? {
        guard let value = fields[name], value != .null else { return nil }
        return try string(name)
    }

    /// An optional identifier (see `identifier`).
    func optionalIdentifier(_ name: String) throws -> String? {
        guard let value = fields[name], value != .null else { return nil }
        return try identifier(name)
    }

    /// An optional boolean: nil when absent; `true`/`false` only.
    func optionalBool(_ name: String) throws -> Bool? {
        guard let value = fields[name] else { return nil }
        guard case .bool(let bool) = value else { throw APIError.validation("\(name) must be true or false") }
        return bool
    }

    /// One of a fixed set of string values.
    func oneOf<Value: RawRepresentable & CaseIterable>(_ name: String, _ type: Value.Type) throws -> Value
    where Value.RawValue == String {
        let raw = try string(name)
        guard let value = Value(rawValue: raw) else {
            let allowed = Value.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw APIError.validation("\(name) must be one of \(allowed)")
        }
        return value
    }

    /// A well-formed email address, trimmed and lowercased (emails compare case-insensitively).
    func email(_ name: String = "email") throws -> String {
        let value = try string(name)
        guard EmailAddress.isValid(value) else { throw APIError.validation("\(name) must be a valid email address") }
        return value.lowercased()
    }

    /// A code of exactly `digits` decimal digits.
    func numericCode(_ name: String = "code", digits: Int = 6) throws -> String {
        let value = try string(name)
        guard value.count == digits, value.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw APIError.validation("\(name) must be a \(digits)-digit code")
        }
        return value
    }

    /// A second-factor code: 6 digits (emailed or authenticator) or an 8-character recovery code.
    func secondFactorCode(_ name: String = "code") throws -> String {
        let value = try string(name)
        let isDigits = value.count == 6 && value.allSatisfy { $0.isASCII && $0.isNumber }
        guard isDigits || RecoveryCodes.looksLikeOne(value) else {
            throw APIError.validation("\(name) must be a 6-digit code or an 8-character recovery code")
        }
        return value
    }

    /// An identifier string (a UUID in our data; anything non-empty up to 128 characters is accepted
    /// so that a wrong id is a "not found" answer rather than a validation error).
    func identifier(_ name: String) throws -> String {
        let value = try string(name)
        guard value.count <= 128 else { throw APIError.validation("\(name) is too long") }
        return value
    }
}

/// The JSON values a request field can hold, as far as validation needs to tell them apart.
enum JSONValue: Equatable, Sendable {
    case string(String)
    case bool(Bool)
    case null
    /// A number, array or object.
    case other

    init(_ any: Any) {
        switch any {
        case let string as String: self = .string(string)
        case is NSNull: self = .null
        // JSONSerialization gives booleans as NSNumbers of ObjC type "c" (char); numbers as others.
        case let number as NSNumber where String(cString: number.objCType) == "c": self = .bool(number.boolValue)
        default: self = .other
        }
    }
}

/// A pragmatic email check: one `@`, something before it, a dotted domain after it, no spaces.
enum EmailAddress {
    static func isValid(_ value: String) -> Bool {
        guard value.utf8.count <= 254, !value.contains(where: { $0.isWhitespace }) else { return false }
        let parts = value.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].count <= 64 else { return false }
        let domain = parts[1]
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && labels.allSatisfy { !$0.isEmpty }
    }
}
