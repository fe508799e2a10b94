/// Decodes a boolean the backend may send as `true`/`false`, `0`/`1` or `"0"`/`"1"`.
extension KeyedDecodingContainer {
    func decodeFlexibleBool(forKey key: Key) throws -> Bool? {
        if try !contains(key) || decodeNil(forKey: key) { return nil }
        if let value = try? decode(Bool.self, forKey: key) { return value }
        if let value = try? decode(Int.self, forKey: key) { return value != 0 }
        if let value = try? decode(String.self, forKey: key) { return value == "1" || value.lowercased() == "true" }
        throw DecodingError.typeMismatch(
            Bool.self,
            .init(codingPath: codingPath + [key], debugDescription: "Expected a boolean, 0/1 or \"0\"/\"1\"")
        )
    }
}
