import Foundation
import TestSupport
import Testing

@testable import RepairMinderServer

/// The strict CBOR decoder (RFC 8949) that reads attestation objects and COSE keys: RFC 8949
/// Appendix A's examples of the subset it takes, refusals of everything else, and a fuzz.
@Suite struct CBORTests {
    static func hex(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }

    /// RFC 8949 Appendix A, the rows within the subset.
    @Test(arguments: [
        ("00", CBOR.unsigned(0)), ("17", .unsigned(23)), ("1818", .unsigned(24)), ("1903e8", .unsigned(1000)),
        ("1a000f4240", .unsigned(1_000_000)), ("1b000000e8d4a51000", .unsigned(1_000_000_000_000)),
        ("20", .negative(0)), ("3863", .negative(99)), ("3903e7", .negative(999)), ("f4", .bool(false)), ("f5", .bool(true)),
        ("f6", .null), ("40", .bytes([])), ("4401020304", .bytes([1, 2, 3, 4])), ("60", .text("")), ("6161", .text("a")),
        ("6449455446", .text("IETF")), ("62c3bc", .text("ü")), ("80", .array([])),
        ("83010203", .array([.unsigned(1), .unsigned(2), .unsigned(3)])),
        ("8301820203820405", .array([.unsigned(1), .array([.unsigned(2), .unsigned(3)]), .array([.unsigned(4), .unsigned(5)])])),
        ("a0", .map([])), ("a201020304", .map([(.unsigned(1), .unsigned(2)), (.unsigned(3), .unsigned(4))])),
        ("a26161016162820203", .map([(.text("a"), .unsigned(1)), (.text("b"), .array([.unsigned(2), .unsigned(3)]))])),
    ])
    func rfc8949Examples(_ encoded: String, _ expected: CBOR) throws {
        #expect(try CBORDecoder.decode(Self.hex(encoded)) == expected)
    }

    @Test(arguments: [
        ("", "ends early"), ("18", "ends early"), ("1817", "an integer is not in its shortest form"),
        ("190017", "an integer is not in its shortest form"), ("5f4101ff", "indefinite lengths are not accepted"),
        ("c11a514b67b0", "tags are not accepted"), ("f93c00", "simple value or float 25 is not accepted"),
        ("f7", "simple value or float 23 is not accepted"), ("1c", "reserved additional information 28"),
        ("62c3", "a length runs past the end"), ("62ff00", "text is not UTF-8"), ("a201020103", "a map key appears twice"),
        ("0000", "1 bytes after the value"), ("9b0000000100000000", "a length runs past the end"),
        ("bb7fffffffffffffff", "a length runs past the end"),
    ])
    func refusesWhatItDoesNotTake(_ encoded: String, _ problem: String) {
        #expect(throws: CBORError(problem)) { try CBORDecoder.decode(Self.hex(encoded)) }
    }

    @Test func nestingIsBounded() {
        let deep = [UInt8](repeating: 0x81, count: 100) + [0x00]
        #expect(throws: CBORError("nested deeper than 16")) { try CBORDecoder.decode(deep) }
        let wide = [0x99, 0x20, 0x00] + [UInt8](repeating: 0x00, count: 8192)
        #expect(throws: CBORError("more than 4096 items")) { try CBORDecoder.decode(wide) }
    }

    /// An RSA key whose signatures could not fit the sign-in's signature field is refused at
    /// enrolment (RSA-4096 at most), before any key is built.
    @Test func rsaKeysLargerThan4096BitsAreRefused() throws {
        let modulus = [UInt8](repeating: 0xff, count: 513)
        let key = CBORWriter.map([
            (CBORWriter.int(1), CBORWriter.int(3)), (CBORWriter.int(3), CBORWriter.int(-257)),
            (CBORWriter.int(-1), CBORWriter.bytes(modulus)), (CBORWriter.int(-2), CBORWriter.bytes([1, 0, 1])),
        ])
        #expect(throws: PasskeyProblem("the RS256 key is larger than 4096 bits")) { try COSEKey(stored: key) }
    }

    /// What the software authenticator writes reads back the same.
    @Test func roundTripsTheWriter() throws {
        let written = CBORWriter.map([
            (CBORWriter.int(1), CBORWriter.int(2)), (CBORWriter.int(-1), CBORWriter.int(-300)),
            (CBORWriter.text("bytes"), CBORWriter.bytes([UInt8](repeating: 7, count: 300))),
            (CBORWriter.text("list"), CBORWriter.array([CBORWriter.int(70_000), CBORWriter.int(5_000_000_000)])),
        ])
        let decoded = try CBORDecoder.decode(written)
        #expect(decoded[1] == .unsigned(2))
        #expect(decoded[-1]?.integer == -300)
        #expect(decoded["bytes"]?.bytes?.count == 300)
        #expect(decoded["list"] == .array([.unsigned(70_000), .unsigned(5_000_000_000)]))
    }

    /// Random bytes and mutations of real attestation objects: the decoder and the
    /// authenticator-data parser either answer or refuse, never crash or run away.
    @Test func fuzz() throws {
        var generator = SystemRandomNumberGenerator()
        let seeds = WebAuthnVectorTests.vectors.compactMap { $0.attestationObject }.compactMap { Data(base64URLEncoded: $0) }
            .map(Array.init)
        #expect(!seeds.isEmpty)
        for round in 0..<20_000 {
            var input: [UInt8]
            if round % 2 == 0 || seeds.isEmpty {
                input = (0..<Int.random(in: 0...64, using: &generator)).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            } else {
                input = seeds[round % seeds.count]
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    let position = Int.random(in: 0..<input.count, using: &generator)
                    switch Int.random(in: 0..<3, using: &generator) {
                    case 0: input[position] = UInt8.random(in: .min ... .max, using: &generator)
                    case 1: input.removeSubrange(position..<min(input.count, position + Int.random(in: 1...16, using: &generator)))
                    default: input.insert(UInt8.random(in: .min ... .max, using: &generator), at: position)
                    }
                    if input.isEmpty { break }
                }
            }
            if let value = try? CBORDecoder.decode(input), let authData = value["authData"]?.bytes {
                _ = try? AuthenticatorData(authData)
            }
            _ = try? AuthenticatorData(input)
        }
    }
}
