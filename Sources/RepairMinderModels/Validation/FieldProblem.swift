/// A request field that breaks the contract. The server answers it as 400 `VALIDATION_ERROR`
/// with `message`, which names the field (docs/API.md §1).
public struct FieldProblem: Error, Sendable, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
}

/// A string enum of the wire whose unknown values are refused with a message that lists the
/// allowed ones (`platform must be one of "ios", "android"`).
public protocol WireEnum: RawRepresentable, CaseIterable, Codable, Sendable where RawValue == String {}

extension WireEnum {
    public init(from decoder: any Decoder) throws {
        let raw = try decoder.singleValueContainer().decode(String.self)
        guard let value = Self(rawValue: raw) else {
            let field = decoder.codingPath.last?.stringValue ?? "value"
            let allowed = Self.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            let problem = FieldProblem("\(field) must be one of \(allowed)")
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: problem.message, underlyingError: problem))
        }
        self = value
    }
}
