import Foundation

/// The numbers of an RSA private key as a JWK holds them (RFC 7518 §6.3: `n`, `e`, `d`, `p`,
/// `q`, `dp`, `dq`, `qi`), read from its PKCS #1 DER (RFC 8017 A.1.2: a SEQUENCE of a version
/// and those eight INTEGERs), which is what swift-crypto hands out; big-endian, without the
/// sign byte DER puts before a high bit.
struct RSAKeyComponents: Equatable {
    let n: Data, e: Data, d: Data, p: Data, q: Data, dp: Data, dq: Data, qi: Data

    struct Malformed: Error {}

    init(pkcs1 der: Data) throws {
        var reader = DERReader(bytes: [UInt8](der))
        var sequence = DERReader(bytes: try reader.read(tag: 0x30))
        var numbers: [Data] = []
        for _ in 0..<9 {
            let integer = try sequence.read(tag: 0x02)
            numbers.append(Data(integer.drop { $0 == 0 }))
        }
        guard numbers[0].isEmpty else { throw Malformed() }  // version 0: two primes
        (n, e, d, p, q, dp, dq, qi) = (numbers[1], numbers[2], numbers[3], numbers[4], numbers[5], numbers[6], numbers[7], numbers[8])
    }

    /// Reads DER's tag-length-value items one after another.
    private struct DERReader {
        let bytes: [UInt8]
        var offset = 0

        mutating func read(tag: UInt8) throws -> [UInt8] {
            guard offset + 2 <= bytes.count, bytes[offset] == tag else { throw Malformed() }
            var length = Int(bytes[offset + 1])
            offset += 2
            if length & 0x80 != 0 {
                let count = length & 0x7f
                guard (1...4).contains(count), offset + count <= bytes.count else { throw Malformed() }
                length = bytes[offset..<offset + count].reduce(0) { $0 << 8 | Int($1) }
                offset += count
            }
            guard offset + length <= bytes.count else { throw Malformed() }
            defer { offset += length }
            return Array(bytes[offset..<offset + length])
        }
    }
}
