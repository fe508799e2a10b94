import Foundation

/// A `Decoder` over a parsed document (`JSONTree`) that finds an object's member under the
/// spelling the model declares or, failing that, under the same words in another casing
/// (`company_id` for `companyId` and the reverse): the backend spells the same field both ways
/// (seed 004). A `keyDecodingStrategy` cannot do this: it rewrites every key of the document
/// before knowing which spelling the model wants, and it rewrites dictionary keys and
/// `JSONValue` members too. Here a key is only looked up differently, never renamed.
///
/// Values read as `JSONDecoder` reads them with its default strategies: dates as seconds since
/// 2001 (`Date`'s own coding), `Data` as base64, `URL` from a string.
struct EitherCaseDecoder: Decoder {
    let tree: JSONTree
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]

    init(_ tree: JSONTree, codingPath: [any CodingKey] = [], userInfo: [CodingUserInfoKey: Any]) {
        self.tree = tree
        self.codingPath = codingPath
        self.userInfo = userInfo
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = tree else { throw mismatch([String: Any].self) }
        return KeyedDecodingContainer(KeyedContainer<Key>(members: members, decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = tree else { throw mismatch([Any].self) }
        return UnkeyedContainer(elements: elements, decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleValueContainer(decoder: self) }

    /// The decoder of `value`, found under `key` of this one.
    func child(_ value: JSONTree, _ key: any CodingKey) -> EitherCaseDecoder {
        EitherCaseDecoder(value, codingPath: codingPath + [key], userInfo: userInfo)
    }

    /// This decoder's value as `T`; the Foundation types `JSONDecoder` reads from strings are
    /// read the same way here.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == URL.self {
            guard case .string(let text) = tree else { throw mismatch(String.self) }
            guard let url = URL(string: text) else { throw corrupted("Invalid URL string.") }
            return url as! T
        }
        if T.self == Data.self {
            guard case .string(let text) = tree else { throw mismatch(String.self) }
            guard let data = Data(base64Encoded: text) else { throw corrupted("Encountered Data is not valid Base64.") }
            return data as! T
        }
        if T.self == Decimal.self {
            switch tree {
            case .integer(let value): return Decimal(value) as! T
            case .number(let value): return Decimal(value) as! T
            default: throw mismatch(Decimal.self)
            }
        }
        return try T(from: self)
    }

    /// The error for a value that is not a `type`: `valueNotFound` for `null`, as `JSONDecoder` says.
    func mismatch(_ type: Any.Type) -> DecodingError {
        if case .null = tree {
            return .valueNotFound(type, .init(codingPath: codingPath, debugDescription: "Expected \(type) value but found null instead."))
        }
        return .typeMismatch(type, .init(codingPath: codingPath, debugDescription: "Expected to decode \(type) but found \(tree.kind) instead."))
    }

    func corrupted(_ description: String) -> DecodingError {
        .dataCorrupted(.init(codingPath: codingPath, debugDescription: description))
    }
}

/// An object's members, found by the model's spelling first, then by their words.
private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONTree]
    let decoder: EitherCaseDecoder
    /// Member names by `words(of:)`; of two names with the same words, the smaller is kept, so
    /// the choice does not depend on dictionary order.
    private let namesByWords: [String: String]

    init(members: [String: JSONTree], decoder: EitherCaseDecoder) {
        self.members = members
        self.decoder = decoder
        namesByWords = Dictionary(members.keys.map { (Self.words(of: $0), $0) }, uniquingKeysWith: { min($0, $1) })
    }

    /// A name without case and underscores: `company_id`, `companyId` and `companyID` are all `companyid`.
    private static func words(of name: String) -> String { String(name.lowercased().filter { $0 != "_" }) }

    private func member(_ key: Key) -> JSONTree? {
        if let exact = members[key.stringValue] { return exact }
        return namesByWords[Self.words(of: key.stringValue)].flatMap { members[$0] }
    }

    private func value(_ key: Key) throws -> JSONTree {
        guard let value = member(key) else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "No value associated with key \(key.stringValue)."))
        }
        return value
    }

    private func decoded<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        try decoder.child(try value(key), key).decode(T.self)
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    /// The members as they are spelled (a model's `CodingKeys` may not name one spelled otherwise).
    var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }
    func contains(_ key: Key) -> Bool { member(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        if case .null = try value(key) { return true }
        return false
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoded(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoded(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoded(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decoded(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoded(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decoded(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decoded(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decoded(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decoded(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decoded(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decoded(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decoded(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decoded(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decoded(type, key) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decoded(type, key) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try decoder.child(try value(key), key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder.child(try value(key), key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        let key = ElementKey(stringValue: "super")
        return decoder.child(members[key.stringValue] ?? .null, key)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder { decoder.child(member(key) ?? .null, key) }
}

/// An array's elements, in order.
private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONTree]
    let decoder: EitherCaseDecoder
    private(set) var currentIndex = 0

    init(elements: [JSONTree], decoder: EitherCaseDecoder) {
        self.elements = elements
        self.decoder = decoder
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    /// The decoder of the current element; the index moves on only when `read` succeeds.
    private mutating func next<T>(_ type: Any.Type, _ read: (EitherCaseDecoder) throws -> T) throws -> T {
        let key = ElementKey(intValue: currentIndex)
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: codingPath + [key], debugDescription: "Unkeyed container is at end."))
        }
        let value = try read(decoder.child(elements[currentIndex], key))
        currentIndex += 1
        return value
    }

    private mutating func decoded<T: Decodable>(_ type: T.Type) throws -> T { try next(type) { try $0.decode(T.self) } }

    /// True, and past it, when the current element is `null`; false, staying on it, otherwise.
    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                Any?.self,
                .init(codingPath: codingPath + [ElementKey(intValue: currentIndex)], debugDescription: "Unkeyed container is at end."))
        }
        guard case .null = elements[currentIndex] else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try decoded(type) }
    mutating func decode(_ type: String.Type) throws -> String { try decoded(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try decoded(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try decoded(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try decoded(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try decoded(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try decoded(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try decoded(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try decoded(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try decoded(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try decoded(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try decoded(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try decoded(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try decoded(type) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoded(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next(type) { try $0.container(keyedBy: type) }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next([Any].self) { try $0.unkeyedContainer() }
    }

    mutating func superDecoder() throws -> any Decoder { try next((any Decoder).self) { $0 } }
}

/// A single value: a string, a number, a boolean or `null`.
private struct SingleValueContainer: SingleValueDecodingContainer {
    let decoder: EitherCaseDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool {
        if case .null = decoder.tree { return true }
        return false
    }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let value) = decoder.tree else { throw decoder.mismatch(type) }
        return value
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .string(let value) = decoder.tree else { throw decoder.mismatch(type) }
        return value
    }

    func decode(_ type: Double.Type) throws -> Double {
        switch decoder.tree {
        case .number(let value): return value
        case .integer(let value): return Double(value)
        default: throw decoder.mismatch(type)
        }
    }

    func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }

    /// A whole number that fits `T` exactly; `1.5` or `300` for a `UInt8` is refused.
    private func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        let fitting: T?
        switch decoder.tree {
        case .integer(let value): fitting = T(exactly: value)
        case .number(let value): fitting = T(exactly: value)
        default: throw decoder.mismatch(type)
        }
        guard let fitting else { throw decoder.corrupted("Parsed JSON number does not fit in \(type).") }
        return fitting
    }

    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decode(T.self) }
}

/// An array index or a made-up name in a coding path.
private struct ElementKey: CodingKey {
    let stringValue: String
    let intValue: Int?
    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }
    init(intValue: Int) {
        stringValue = "Index \(intValue)"
        self.intValue = intValue
    }
}
