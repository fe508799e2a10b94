import Foundation

/// Encodes a value to JSON in one pass, writing bytes as its `encode(to:)` calls arrive.
///
/// Foundation's `JSONEncoder` first builds a tree of every value, then writes the tree; on
/// `GET /api/auth/me` that was the largest single cost of the request (14%). Measured alone
/// (issue 37: the same release build with and without it, `Benchmarks/http.sh --rounds 3
/// --seconds 8`, back to back twice, 2026-11-26, 2 cores): `/me` 14,513 and 13,445 requests/s
/// with it against 11,358 and 10,391 without (+28%, 0.70 of health against 0.60); refresh
/// 4,405 and 3,939 against 4,526 and 4,185 (no difference beyond the runs' spread: its cost is
/// the database write). Kept: it wins well over the 5% it must. The output is what
/// `JSONEncoder` with `.withoutEscapingSlashes` writes: members in encoding order, optionals
/// left out by `encodeIfPresent` and `null` where encoded, whole doubles without `.0`, `Data`
/// as base64, `URL` as its absolute string (`StreamingJSONEncoderTests` compares the two on
/// every wire type of the route table).
///
/// What a stream cannot write (`superEncoder`, a container written to after a later sibling
/// was started) throws `Unsupported`, for the caller to fall back to `JSONEncoder`.
struct StreamingJSONEncoder {
    struct Unsupported: Error {}

    func encode(_ value: some Encodable) throws -> [UInt8] {
        let writer = JSONStreamWriter()
        try writer.writeValue(value)
        writer.close(downTo: 0)
        if writer.isUnsupported { throw Unsupported() }
        return writer.bytes
    }
}

/// The `Encoder` behind `StreamingJSONEncoder`: the bytes so far and the containers still open.
///
/// A container is closed when the value that opened it has finished encoding, or when a
/// container below it is written to again (a sibling member or element starts).
final class JSONStreamWriter: Encoder {
    private(set) var bytes: [UInt8] = []
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    private(set) var isUnsupported = false

    private struct OpenContainer {
        let id: Int
        let isKeyed: Bool
        var isEmpty = true
    }

    private var open: [OpenContainer] = []
    private var nextID = 0
    /// How many containers were open when the value being encoded started: the ones it opens
    /// sit above.
    private var valueBase = 0

    init() {
        bytes.reserveCapacity(1024)
    }

    // MARK: Encoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        // A second request from the same value (a subclass and its superclass) gets the same object.
        if open.count > valueBase, open[valueBase].isKeyed {
            close(downTo: valueBase + 1)
            return KeyedEncodingContainer(KeyedWriter<Key>(writer: self, id: open[valueBase].id))
        }
        return KeyedEncodingContainer(KeyedWriter<Key>(writer: self, id: openContainer(keyed: true)))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedWriter(writer: self, id: openContainer(keyed: false))
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueWriter(writer: self)
    }

    // MARK: Structure

    fileprivate func openContainer(keyed: Bool) -> Int {
        nextID += 1
        bytes.append(keyed ? UInt8(ascii: "{") : UInt8(ascii: "["))
        open.append(OpenContainer(id: nextID, isKeyed: keyed))
        return nextID
    }

    /// Closes open containers until `count` remain.
    func close(downTo count: Int) {
        while open.count > count {
            bytes.append(open.removeLast().isKeyed ? UInt8(ascii: "}") : UInt8(ascii: "]"))
        }
    }

    /// Makes container `id` the innermost again and starts its next slot (a comma after the
    /// first); false if it was closed already.
    fileprivate func startSlot(in id: Int) -> Bool {
        guard let index = open.lastIndex(where: { $0.id == id }) else {
            isUnsupported = true
            return false
        }
        close(downTo: index + 1)
        if open[index].isEmpty {
            open[index].isEmpty = false
        } else {
            bytes.append(UInt8(ascii: ","))
        }
        return true
    }

    fileprivate func startMember(_ key: some CodingKey, in id: Int) -> Bool {
        guard startSlot(in: id) else { return false }
        writeString(key.stringValue)
        bytes.append(UInt8(ascii: ":"))
        return true
    }

    fileprivate func markUnsupported() {
        isUnsupported = true
    }

    // MARK: Values

    func writeValue<T: Encodable>(_ value: T) throws {
        switch value {
        case let string as String: writeString(string)
        case let number as Int: writeInteger(number)
        case let flag as Bool: writeBool(flag)
        case let number as Double: try writeFloat(number)
        case let data as Data: writeString(data.base64EncodedString())
        case let url as URL: writeString(url.absoluteString)
        case let number as Decimal: bytes.append(contentsOf: number.description.utf8)
        default:
            let outerBase = valueBase
            valueBase = open.count
            defer { valueBase = outerBase }
            let start = bytes.count
            try value.encode(to: self)
            // A value that encodes nothing is an empty object, as JSONEncoder writes it.
            if bytes.count == start { bytes.append(contentsOf: "{}".utf8) }
            close(downTo: valueBase)
        }
    }

    func writeNull() {
        bytes.append(contentsOf: "null".utf8)
    }

    func writeBool(_ value: Bool) {
        bytes.append(contentsOf: value ? "true".utf8 : "false".utf8)
    }

    func writeInteger<Integer: FixedWidthInteger>(_ value: Integer) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        let start = bytes.count
        repeat {
            let (quotient, digit) = magnitude.quotientAndRemainder(dividingBy: 10)
            bytes.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: digit))
            magnitude = quotient
        } while magnitude > 0
        bytes[start...].reverse()
    }

    /// As JSONEncoder: the shortest representation, without a trailing `.0`; not a number or
    /// infinite is an error.
    func writeFloat<Number: BinaryFloatingPoint & LosslessStringConvertible>(_ value: Number) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "\(value) is not valid JSON"))
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    func writeString(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            var plainFrom = 0
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[plainFrom..<index]))
                plainFrom = index + 1
                appendEscaped(byte)
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[plainFrom...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private func appendEscaped(_ byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case UInt8(ascii: "\n"): bytes.append(UInt8(ascii: "n"))
        case UInt8(ascii: "\r"): bytes.append(UInt8(ascii: "r"))
        case UInt8(ascii: "\t"): bytes.append(UInt8(ascii: "t"))
        default:
            bytes.append(contentsOf: "u00".utf8)
            bytes.append(Self.hexDigits[Int(byte >> 4)])
            bytes.append(Self.hexDigits[Int(byte & 0x0F)])
        }
    }
}

/// A JSON object's members, written as they come.
private struct KeyedWriter<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let writer: JSONStreamWriter
    let id: Int
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws {
        if writer.startMember(key, in: id) { writer.writeNull() }
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws {
        if writer.startMember(key, in: id) { writer.writeBool(value) }
    }

    mutating func encode(_ value: String, forKey key: Key) throws {
        if writer.startMember(key, in: id) { writer.writeString(value) }
    }

    mutating func encode(_ value: Double, forKey key: Key) throws {
        if writer.startMember(key, in: id) { try writer.writeFloat(value) }
    }

    mutating func encode(_ value: Float, forKey key: Key) throws {
        if writer.startMember(key, in: id) { try writer.writeFloat(value) }
    }

    mutating func encode(_ value: Int, forKey key: Key) throws {
        if writer.startMember(key, in: id) { writer.writeInteger(value) }
    }

    mutating func encode(_ value: Int64, forKey key: Key) throws {
        if writer.startMember(key, in: id) { writer.writeInteger(value) }
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        if writer.startMember(key, in: id) { try writer.writeValue(value) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        _ = writer.startMember(key, in: id)
        return KeyedEncodingContainer(KeyedWriter<NestedKey>(writer: writer, id: writer.openContainer(keyed: true)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        _ = writer.startMember(key, in: id)
        return UnkeyedWriter(writer: writer, id: writer.openContainer(keyed: false))
    }

    mutating func superEncoder() -> any Encoder {
        writer.markUnsupported()
        return writer
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        writer.markUnsupported()
        return writer
    }
}

/// A JSON array's elements, written as they come.
private struct UnkeyedWriter: UnkeyedEncodingContainer {
    let writer: JSONStreamWriter
    let id: Int
    private(set) var count = 0
    var codingPath: [any CodingKey] { [] }

    init(writer: JSONStreamWriter, id: Int) {
        self.writer = writer
        self.id = id
    }

    mutating func encodeNil() throws {
        count += 1
        if writer.startSlot(in: id) { writer.writeNull() }
    }

    mutating func encode(_ value: String) throws {
        count += 1
        if writer.startSlot(in: id) { writer.writeString(value) }
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        count += 1
        if writer.startSlot(in: id) { try writer.writeValue(value) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        count += 1
        _ = writer.startSlot(in: id)
        return KeyedEncodingContainer(KeyedWriter<NestedKey>(writer: writer, id: writer.openContainer(keyed: true)))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        count += 1
        _ = writer.startSlot(in: id)
        return UnkeyedWriter(writer: writer, id: writer.openContainer(keyed: false))
    }

    mutating func superEncoder() -> any Encoder {
        writer.markUnsupported()
        return writer
    }
}

/// One value, written where the encoder stands (a member's value, an element, the top level).
private struct SingleValueWriter: SingleValueEncodingContainer {
    let writer: JSONStreamWriter
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() throws { writer.writeNull() }
    mutating func encode(_ value: Bool) throws { writer.writeBool(value) }
    mutating func encode(_ value: String) throws { writer.writeString(value) }
    mutating func encode(_ value: Double) throws { try writer.writeFloat(value) }
    mutating func encode(_ value: Float) throws { try writer.writeFloat(value) }
    mutating func encode(_ value: Int) throws { writer.writeInteger(value) }
    mutating func encode(_ value: Int8) throws { writer.writeInteger(value) }
    mutating func encode(_ value: Int16) throws { writer.writeInteger(value) }
    mutating func encode(_ value: Int32) throws { writer.writeInteger(value) }
    mutating func encode(_ value: Int64) throws { writer.writeInteger(value) }
    mutating func encode(_ value: UInt) throws { writer.writeInteger(value) }
    mutating func encode(_ value: UInt8) throws { writer.writeInteger(value) }
    mutating func encode(_ value: UInt16) throws { writer.writeInteger(value) }
    mutating func encode(_ value: UInt32) throws { writer.writeInteger(value) }
    mutating func encode(_ value: UInt64) throws { writer.writeInteger(value) }
    mutating func encode<T: Encodable>(_ value: T) throws { try writer.writeValue(value) }
}
