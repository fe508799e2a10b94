/// A string enum of the wire: a role, a company status, a platform. `allCases` are the values
/// this version knows; any other string is `unknown(_:)`, kept as sent.
///
/// Decoding is strict unless the decoder opts in (`CodingUserInfoKey.acceptsUnknownWireValues`):
/// the server reads request bodies, its own rows and fixture files strictly, so an unknown
/// value is refused there (400 `VALIDATION_ERROR` naming the allowed values) and never reaches
/// its logic; the SDK's `ResponseDecoder` opts in, so a value added by a newer server is kept
/// instead of failing the whole answer (one new role must not lock every user of it out).
/// Encoding writes the raw value, known or not.
public protocol WireEnum: RawRepresentable, CaseIterable, Hashable, Codable, Sendable
where RawValue == String, AllCases == [Self] {
    /// A value this version does not know. Never one of `allCases`' raw values when made by
    /// decoding or by `init(rawValue:)`.
    static func unknown(_ rawValue: String) -> Self
}

extension WireEnum {
    /// The known value spelled `rawValue`, else `.unknown(rawValue)`.
    public init(rawValue: String) {
        self = Self(known: rawValue) ?? .unknown(rawValue)
    }

    /// The known value spelled `rawValue`, nil for any other string (for readers that must
    /// refuse what they do not know: the server's rows and fixture files).
    public init?(known rawValue: String) {
        guard let value = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = value
    }

    /// Whether this version knows the value (it is one of `allCases`).
    public var isKnown: Bool { Self(known: rawValue) != nil }

    public init(from decoder: any Decoder) throws {
        let raw = try decoder.singleValueContainer().decode(String.self)
        if let known = Self(known: raw) {
            self = known
        } else if decoder.userInfo[.acceptsUnknownWireValues] as? Bool == true {
            self = .unknown(raw)
        } else {
            let field = decoder.codingPath.last?.stringValue ?? "value"
            let allowed = Self.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            let problem = FieldProblem("\(field) must be one of \(allowed)")
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: problem.message, underlyingError: problem))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

extension CodingUserInfoKey {
    /// Set to `true` in a decoder's `userInfo` to decode a `WireEnum` value this version does
    /// not know as `.unknown(raw)` rather than refuse it (what clients want from answers).
    public static let acceptsUnknownWireValues = CodingUserInfoKey(rawValue: "RepairMinder.acceptsUnknownWireValues")!
}
