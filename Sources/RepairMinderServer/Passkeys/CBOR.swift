/// A CBOR value (RFC 8949): the subset WebAuthn sends (attestation objects, COSE keys,
/// authenticator extensions).
enum CBOR: Equatable, Sendable {
    case unsigned(UInt64)
    /// A negative integer: -1 - n.
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBOR])
    /// Pairs in the order sent (keys are unique).
    case map([(CBOR, CBOR)])
    case bool(Bool)
    case null

    static func == (lhs: CBOR, rhs: CBOR) -> Bool {
        switch (lhs, rhs) {
        case (.unsigned(let a), .unsigned(let b)), (.negative(let a), .negative(let b)): a == b
        case (.bytes(let a), .bytes(let b)): a == b
        case (.text(let a), .text(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.map(let a), .map(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.bool(let a), .bool(let b)): a == b
        case (.null, .null): true
        default: false
        }
    }

    /// The value as a signed integer, when it is one that fits.
    var integer: Int? {
        switch self {
        case .unsigned(let n): n <= UInt64(Int.max) ? Int(n) : nil
        case .negative(let n): n < UInt64(Int.max) ? -1 - Int(n) : nil
        default: nil
        }
    }

    /// The value of map key `key`.
    subscript(key: CBOR) -> CBOR? {
        guard case .map(let pairs) = self else { return nil }
        return pairs.first { $0.0 == key }?.1
    }
    subscript(key: String) -> CBOR? { self[.text(key)] }
    subscript(key: Int) -> CBOR? { self[key >= 0 ? .unsigned(UInt64(key)) : .negative(UInt64(-1 - key))] }

    var bytes: [UInt8]? { if case .bytes(let b) = self { b } else { nil } }
    var text: String? { if case .text(let t) = self { t } else { nil } }
}

/// Why bytes are not the CBOR this decoder takes.
struct CBORError: Error, Equatable, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A strict, bounded CBOR decoder: definite lengths only, no tags, no floats, no simple values
/// but `false`, `true` and `null`, integers and lengths in their shortest form, text that is
/// UTF-8, map keys unique, at most `maxDepth` levels and `maxItems` items in all. Every length
/// is checked against the bytes left before anything is read, so no input makes it allocate
/// more than the input's size or recurse without limit.
struct CBORDecoder {
    static let maxDepth = 16
    static let maxItems = 4096

    private let input: [UInt8]
    private(set) var position = 0
    private var items = 0

    init(_ input: [UInt8]) { self.input = input }

    /// The one value `input` holds, refusing bytes after it.
    static func decode(_ input: [UInt8]) throws(CBORError) -> CBOR {
        var decoder = CBORDecoder(input)
        let value = try decoder.next()
        guard decoder.position == input.count else { throw CBORError("\(input.count - decoder.position) bytes after the value") }
        return value
    }

    /// The value starting at the current position; the position moves past it (authenticator
    /// data holds a COSE key followed by more bytes).
    mutating func next() throws(CBORError) -> CBOR { try value(depth: 0) }

    private mutating func value(depth: Int) throws(CBORError) -> CBOR {
        guard depth < Self.maxDepth else { throw CBORError("nested deeper than \(Self.maxDepth)") }
        items += 1
        guard items <= Self.maxItems else { throw CBORError("more than \(Self.maxItems) items") }
        let initial = try byte()
        let major = initial >> 5, info = initial & 0x1f
        switch major {
        case 0: return .unsigned(try argument(info))
        case 1: return .negative(try argument(info))
        case 2: return .bytes(try take(try length(info)))
        case 3:
            guard let text = String(validating: try take(try length(info)), as: UTF8.self) else { throw CBORError("text is not UTF-8") }
            return .text(text)
        case 4:
            let count = try length(info)
            var elements: [CBOR] = []
            for _ in 0..<count { elements.append(try value(depth: depth + 1)) }
            return .array(elements)
        case 5:
            // Each pair takes at least two bytes: a count beyond that is a lie, refused before the loop.
            let count = try length(info, unitSize: 2)
            var pairs: [(CBOR, CBOR)] = []
            for _ in 0..<count {
                let key = try value(depth: depth + 1)
                guard !pairs.contains(where: { $0.0 == key }) else { throw CBORError("a map key appears twice") }
                pairs.append((key, try value(depth: depth + 1)))
            }
            return .map(pairs)
        case 6: throw CBORError("tags are not accepted")
        default:
            switch info {
            case 20: return .bool(false)
            case 21: return .bool(true)
            case 22: return .null
            default: throw CBORError("simple value or float \(info) is not accepted")
            }
        }
    }

    private mutating func byte() throws(CBORError) -> UInt8 {
        guard position < input.count else { throw CBORError("ends early") }
        defer { position += 1 }
        return input[position]
    }

    private mutating func take(_ count: Int) throws(CBORError) -> [UInt8] {
        guard count <= input.count - position else { throw CBORError("ends early") }
        defer { position += count }
        return Array(input[position..<position + count])
    }

    /// The integer argument of a head, in its shortest form.
    private mutating func argument(_ info: UInt8) throws(CBORError) -> UInt64 {
        let value: UInt64, smallest: UInt64
        switch info {
        case 0..<24: return UInt64(info)
        case 24: (value, smallest) = (try bigEndian(1), 24)
        case 25: (value, smallest) = (try bigEndian(2), 0x100)
        case 26: (value, smallest) = (try bigEndian(4), 0x1_0000)
        case 27: (value, smallest) = (try bigEndian(8), 0x1_0000_0000)
        case 31: throw CBORError("indefinite lengths are not accepted")
        default: throw CBORError("reserved additional information \(info)")
        }
        guard value >= smallest else { throw CBORError("an integer is not in its shortest form") }
        return value
    }

    /// A length, which must fit in what is left of the input at `unitSize` bytes per unit.
    private mutating func length(_ info: UInt8, unitSize: Int = 1) throws(CBORError) -> Int {
        let count = try argument(info)
        guard count <= UInt64(input.count - position) / UInt64(unitSize) else { throw CBORError("a length runs past the end") }
        return Int(count)
    }

    private mutating func bigEndian(_ size: Int) throws(CBORError) -> UInt64 {
        try take(size).reduce(0) { $0 << 8 | UInt64($1) }
    }
}
