extension KeyedDecodingContainer {
    /// A whole number at `key`, or nil when it is absent or `null`. A JSON number with a
    /// fraction (`1.5`) is a problem named by its path: Foundation's decoder on Linux reports it
    /// without one, which would read as a body that is not JSON at all.
    public func decodeWholeNumberIfPresent(forKey key: Key) throws -> Int? {
        guard let number = try decodeIfPresent(Double.self, forKey: key) else { return nil }
        guard number.rounded() == number, let whole = Int(exactly: number) else {
            let path = (codingPath + [key]).map(\.stringValue).joined(separator: ".")
            throw DecodingError.dataCorrupted(
                .init(codingPath: codingPath + [key], debugDescription: "not a whole number",
                      underlyingError: FieldProblem("\(path) must be a whole number")))
        }
        return whole
    }
}
