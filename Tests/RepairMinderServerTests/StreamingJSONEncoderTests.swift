import Foundation
import Hummingbird
import RepairMinderModels
import Testing

@testable import RepairMinderServer

/// `StreamingJSONEncoder` writes what `JSONEncoder` (`.withoutEscapingSlashes`) writes.
@Suite struct StreamingJSONEncoderTests {
    private static func foundation(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    private static func streamed(_ value: some Encodable) throws -> String {
        String(decoding: try StreamingJSONEncoder().encode(value), as: UTF8.self)
    }

    /// The same JSON: equal when parsed (JSONEncoder's member order varies from run to run on
    /// Linux, the stream's is the encoding order); the tests below pin the spelling of numbers
    /// and strings.
    private static func expectSame(_ value: some Encodable, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (streamed, foundation) = (try streamed(value), try foundation(value))
        let parse = { (text: String) throws -> NSObject in
            try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed) as! NSObject
        }
        #expect(try parse(streamed) == parse(foundation), "\(streamed)\n\(foundation)", sourceLocation: sourceLocation)
        #expect(streamed.utf8.count == foundation.utf8.count, "\(streamed)\n\(foundation)", sourceLocation: sourceLocation)
    }

    private static func expectSameExample<T: WireType>(of type: T.Type) throws {
        try expectSame(T.example)
        try expectSame(Envelope.ok(T.example))
    }

    @Test func everyWireTypeOfTheRouteTableEncodesTheSame() throws {
        var checked = 0
        for route in Routes.all {
            // Files are sent as bytes, not JSON.
            for type in [route.requestType, route.responseType].compactMap({ $0 }) where type != BinaryFile.self {
                try Self.expectSameExample(of: type)
                checked += 1
            }
        }
        #expect(checked > 40)
        try Self.expectSame(ErrorEnvelope.bareSuccess)
        try Self.expectSame(ErrorEnvelope(success: false, error: "Invalid refresh token", code: .invalidRefreshToken))
    }

    private struct Scalars: Encodable {
        var text = "quote \" backslash \\ slash / newline \n tab \t bell \u{7} nul \u{0} é 😀"
        var empty = ""
        var whole = 20.0
        var fraction = 0.1
        var negative = -2.5
        var huge = 1e20
        var tiny = Double.leastNonzeroMagnitude  // 5e-324, which a literal would warn of
        var float: Float = 1.5
        var integers: [Int] = [0, 7, -7, Int.max, Int.min]
        var unsigned: [UInt64] = [0, UInt64.max]
        var small: [Int8] = [-128, 127]
        var flags = [true, false]
        var missing: String? = nil
        var present: String? = "here"
        var nulls: [Int?] = [1, nil, 3]
        var nested: [[String: [Int]]] = [["a": []], [:]]
        var bytes = Data([0, 1, 2, 250, 255])
        var link = URL(string: "https://example.test/a/b?c=d")!
        var amount = Decimal(string: "12.50")!
        var emptyObject = EmptyPayload()

        enum CodingKeys: String, CodingKey {
            case text, empty, whole, fraction, negative, huge, tiny, float, integers, unsigned, small, flags, missing, present
            case nulls, nested, bytes, link, amount, emptyObject = "empty_object"
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(text, forKey: .text)
            try c.encode(empty, forKey: .empty)
            try c.encode(whole, forKey: .whole)
            try c.encode(fraction, forKey: .fraction)
            try c.encode(negative, forKey: .negative)
            try c.encode(huge, forKey: .huge)
            try c.encode(tiny, forKey: .tiny)
            try c.encode(float, forKey: .float)
            try c.encode(integers, forKey: .integers)
            try c.encode(unsigned, forKey: .unsigned)
            try c.encode(small, forKey: .small)
            try c.encode(flags, forKey: .flags)
            try c.encodeIfPresent(missing, forKey: .missing)
            try c.encode(missing, forKey: .present)  // an explicit null
            try c.encode(nulls, forKey: .nulls)
            try c.encode(nested, forKey: .nested)
            try c.encode(bytes, forKey: .bytes)
            try c.encode(link, forKey: .link)
            try c.encode(amount, forKey: .amount)
            try c.encode(emptyObject, forKey: .emptyObject)
        }
    }

    @Test func scalarsStringsAndFoundationTypesEncodeTheSame() throws {
        try Self.expectSame(Scalars())
        let streamed = try Self.streamed(Scalars())
        #expect(streamed.hasPrefix(
            #"{"text":"quote \" backslash \\ slash / newline \n tab \t bell \u0007 nul \u0000 é 😀","empty":"","whole":20,"fraction":0.1,"negative":-2.5,"huge":1e+20,"tiny":5e-324,"float":1.5,"integers":[0,7,-7,9223372036854775807,-9223372036854775808],"unsigned":[0,18446744073709551615],"small":[-128,127],"flags":[true,false],"present":null,"nulls":[1,null,3],"#))
        #expect(streamed.hasSuffix(#""bytes":"AAEC+v8=","link":"https://example.test/a/b?c=d","amount":12.5,"empty_object":{}}"#))
        try Self.expectSame("top-level string")
        try Self.expectSame([1.0, 2.5])
        try Self.expectSame(JSONValue.object(["a": .array([.null, .bool(true), .number(3), .string("x")])]))
    }

    /// A value that writes a nested container, then goes back to its parent: the nested one is
    /// closed first.
    private struct Interleaved: Encodable {
        enum Keys: String, CodingKey { case inner, after, list }
        func encode(to encoder: any Encoder) throws {
            var outer = encoder.container(keyedBy: Keys.self)
            var inner = outer.nestedContainer(keyedBy: Keys.self, forKey: .inner)
            try inner.encode(1, forKey: .after)
            try outer.encode(2, forKey: .after)
            var list = outer.nestedUnkeyedContainer(forKey: .list)
            try list.encode("a")
            var deeper = list.nestedUnkeyedContainer()
            try deeper.encode(true)
            try list.encode("b")
        }
    }

    @Test func nestedContainersCloseWhenTheirParentGoesOn() throws {
        try Self.expectSame(Interleaved())
        #expect(try Self.streamed(Interleaved()) == #"{"inner":{"after":1},"after":2,"list":["a",[true],"b"]}"#)
    }

    private struct WritesLate: Encodable {
        enum Keys: String, CodingKey { case a, b }
        func encode(to encoder: any Encoder) throws {
            var outer = encoder.container(keyedBy: Keys.self)
            var inner = outer.nestedContainer(keyedBy: Keys.self, forKey: .a)
            try outer.encode(1, forKey: .b)
            try inner.encode(2, forKey: .a)  // too late for a stream
        }
    }

    private struct UsesSuper: Encodable {
        enum Keys: String, CodingKey { case a }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try 1.encode(to: c.superEncoder())
        }
    }

    @Test func whatAStreamCannotWriteFallsBackToJSONEncoder() throws {
        #expect(throws: StreamingJSONEncoder.Unsupported.self) { try StreamingJSONEncoder().encode(WritesLate()) }
        #expect(throws: StreamingJSONEncoder.Unsupported.self) { try StreamingJSONEncoder().encode(UsesSuper()) }
        #expect(throws: EncodingError.self) { try StreamingJSONEncoder().encode([Double.nan]) }
        // The response still carries JSONEncoder's bytes.
        let body = Response.body(of: WritesLate())
        #expect(String(buffer: body).utf8.count == (try Self.foundation(WritesLate())).utf8.count)
        #expect(String(buffer: body).contains(#""a":2"#))
    }
}
