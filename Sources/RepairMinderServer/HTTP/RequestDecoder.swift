import Foundation
import Hummingbird
import RepairMinderModels

/// Reads a route's request body into its Models type, answering docs/API.md §1's bad-input
/// rows: wrong content type or not a JSON object → 400 `INVALID_JSON`; more than `limit` bytes
/// → 413 `PAYLOAD_TOO_LARGE`; a field missing, of the wrong type or breaking its rule →
/// 400 `VALIDATION_ERROR` naming the field.
struct RequestDecoder: Sendable {
    let limit: Int
    /// One decoder for every request body (its options never change).
    private static let jsonDecoder = JSONDecoder()

    /// The body as `type`, checked against its declared rules (`WireRequest`) and the values
    /// the route fixes (`fixedFields`).
    func decode<Body: WireType>(
        _ type: Body.Type, from request: Request, fixedFields: [(name: String, value: String)] = []
    ) async throws -> Body {
        // Routes without a body ignore whatever was sent.
        if let none = EmptyPayload() as? Body { return none }
        if let raw = Body.self as? any RawRequestBody.Type {
            guard let decoded = try await Self.read(raw, from: request) as? Body else { throw APIError.internalError }
            return decoded
        }
        // A missing type is refused too: a web page can post a body without one (a `no-cors`
        // fetch of a Blob) from its visitors' browsers, but cannot send `application/json`
        // cross-site without a preflight this server never grants.
        guard let contentType = request.headers[.contentType], contentType.lowercased().hasPrefix("application/json") else {
            throw APIError.wrongContentType
        }
        let buffer: ByteBuffer
        do {
            var request = request
            buffer = try await request.collectBody(upTo: limit)
        } catch {
            throw APIError.payloadTooLarge
        }
        let decoded: Body
        var data = Data(buffer: buffer)
        if let described = Body.self as? any WireRequest.Type { data = try Self.reconciled(data, as: described) }
        do {
            decoded = try Self.jsonDecoder.decode(Body.self, from: data)
        } catch let error as DecodingError {
            throw Self.apiError(for: error)
        }
        if !fixedFields.isEmpty {
            // The body decoded as its type, so it is an object; only its string members are read.
            let strings = (try? Self.jsonDecoder.decode(StringMembers.self, from: data))?.values ?? [:]
            for field in fixedFields where strings[field.name] != field.value {
                throw APIError.validation("\(field.name) must be \"\(field.value)\" on this endpoint")
            }
        }
        return try Self.checked(decoded)
    }

    /// `body` checked against the rules its type declares, when it declares any (`WireRequest`):
    /// a JSON body's, or one a console page made from its form.
    static func checked<Body: Sendable>(_ body: Body) throws -> Body {
        guard let described = body as? any WireRequest else { return body }
        guard let validated = try Self.validate(described) as? Body else { throw APIError.internalError }
        return validated
    }

    /// A body of `type`'s media type, read up to its own limit rather than the JSON bodies':
    /// 415 for another type, 413 beyond the limit, 400 for bytes the type does not hold.
    private static func read<Raw: RawRequestBody>(_ type: Raw.Type, from request: Request) async throws -> Raw {
        let mediaType = request.headers[.contentType]?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard mediaType == Raw.mediaType else {
            throw APIError(.unsupportedMediaType, "Content-Type must be \(Raw.mediaType)")
        }
        let buffer: ByteBuffer
        do {
            var request = request
            buffer = try await request.collectBody(upTo: Raw.maxBytes)
        } catch {
            throw APIError.payloadTooLarge
        }
        do {
            return try Raw(bytes: Data(buffer: buffer))
        } catch let problem as FieldProblem {
            throw APIError.validation(problem.message)
        }
    }

    /// `data` with its members as `type` reads them (`WireRequest.reconciled`: 400 for a member
    /// a strict type does not know, another spelling of a field renamed for a tolerant one).
    /// Bytes that are not a JSON object are left for the decoder to name.
    private static func reconciled(_ data: Data, as type: any WireRequest.Type) throws -> Data {
        guard type.needsReconciling(data), let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            return data
        }
        let reconciled: [String: Any]
        do {
            reconciled = try type.reconciled(object)
        } catch {
            throw APIError.validation(error.message)
        }
        guard !NSDictionary(dictionary: reconciled).isEqual(to: object) else { return data }
        return (try? JSONSerialization.data(withJSONObject: reconciled)) ?? data
    }

    /// The body checked against the rules its type declares (`WireRequest.fields`).
    private static func validate<Value: WireRequest>(_ value: Value) throws -> Value {
        do {
            return try value.validated()
        } catch {
            throw APIError.validation(error.message)
        }
    }

    /// The answer for a body that does not decode as its type.
    static func apiError(for error: DecodingError) -> APIError {
        switch error {
        case .keyNotFound(let key, let context):
            return .validation("\(fieldName(context.codingPath + [key])) is required")
        case .valueNotFound(_, let context):
            return context.codingPath.isEmpty ? .notAnObject : .validation("\(fieldName(context.codingPath)) is required")
        case .typeMismatch(let expected, let context):
            guard !context.codingPath.isEmpty else { return .notAnObject }
            return .validation("\(fieldName(context.codingPath)) \(typeRule(expected))")
        case .dataCorrupted(let context):
            if let problem = context.underlyingError as? FieldProblem { return .validation(problem.message) }
            guard !context.codingPath.isEmpty else { return .invalidJSON }
            return .validation("\(fieldName(context.codingPath)) is invalid")
        @unknown default:
            return .invalidJSON
        }
    }

    /// The string-valued members of a JSON object; members of other types are passed over.
    private struct StringMembers: Decodable {
        let values: [String: String]

        private struct Name: CodingKey {
            let stringValue: String
            init(stringValue: String) { self.stringValue = stringValue }
            var intValue: Int? { nil }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            let members = try decoder.container(keyedBy: Name.self)
            values = Dictionary(
                members.allKeys.compactMap { name in (try? members.decode(String.self, forKey: name)).map { (name.stringValue, $0) } },
                uniquingKeysWith: { first, _ in first })
        }
    }

    private static func fieldName(_ path: [any CodingKey]) -> String {
        path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }

    private static func typeRule(_ expected: Any.Type) -> String {
        switch expected {
        case is String.Type: "must be a string"
        case is Bool.Type: "must be true or false"
        case is Int.Type, is Int64.Type, is Double.Type: "must be a number"
        case is [Any].Type: "must be a list"
        case is [String: Any].Type: "must be an object"
        default: "has the wrong type"
        }
    }
}
