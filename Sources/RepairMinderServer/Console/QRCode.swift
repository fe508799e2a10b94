import Foundation

/// A QR code (ISO/IEC 18004) of some bytes, made here so the console can show an authenticator
/// app's `otpauth://` URI as a picture to scan (docs/API.md §15.6) without a dependency or an
/// outside request: byte mode, error correction level M (15% of the symbol can be lost), the
/// smallest of versions 1 to 40 that holds the bytes, and the mask of the eight with the lowest
/// penalty (the standard's four rules).
///
/// The steps are the standard's, in its order: the data bits, the Reed–Solomon error
/// correction of each block, the blocks interleaved, the function patterns (finders, timing,
/// alignment, format and version information), the data placed in the two-column zigzag, then
/// the mask. `modules[y][x]` is true for a dark module.
struct QRCode: Sendable, Equatable {
    /// 1 to 40: the symbol is `17 + 4 × version` modules wide.
    let version: Int
    /// The mask pattern chosen, 0 to 7.
    let mask: Int
    /// Rows of modules, top to bottom; true is dark.
    let modules: [[Bool]]

    var size: Int { modules.count }

    /// Too many bytes for the largest symbol (2,331 at level M).
    struct TooLong: Error {}

    /// The code of `text`'s UTF-8 bytes.
    init(text: String, forcedMask: Int? = nil) throws { try self.init(bytes: Array(text.utf8), forcedMask: forcedMask) }

    /// The code of `bytes`; `forcedMask` picks a mask instead of the lowest penalty (for tests).
    init(bytes: [UInt8], forcedMask: Int? = nil) throws {
        guard let version = (1...40).first(where: { Self.fits(bytes.count, version: $0) }) else { throw TooLong() }
        let codewords = Self.interleaved(Self.dataCodewords(bytes, version: version), version: version)
        var symbol = Symbol(version: version)
        symbol.placeFunctionPatterns()
        symbol.placeData(codewords)
        // Each mask is tried on the unmasked symbol; the lowest penalty wins, the first on a tie.
        func masked(_ mask: Int) -> Symbol {
            var candidate = symbol
            candidate.apply(mask: mask)
            candidate.placeFormat(mask: mask)
            return candidate
        }
        var best = (mask: forcedMask ?? 0, symbol: masked(forcedMask ?? 0))
        if forcedMask == nil {
            var lowest = best.symbol.penalty()
            for mask in 1..<8 {
                let candidate = masked(mask), penalty = candidate.penalty()
                if penalty < lowest { (best, lowest) = ((mask, candidate), penalty) }
            }
        }
        self.version = version
        mask = best.mask
        modules = best.symbol.modules
    }

    // MARK: The data

    /// Level M's error correction codewords per block, by version (ISO/IEC 18004 table 9).
    private static let eccPerBlock = [
        0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26,
        26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
    ]
    /// Level M's number of blocks, by version (the same table).
    private static let blockCount = [
        0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16,
        17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49,
    ]

    /// The modules left for codewords once the function patterns are drawn (a few of which may
    /// be remainder bits that hold no codeword).
    static func rawDataModules(version v: Int) -> Int {
        var modules = (16 * v + 128) * v + 64
        if v >= 2 {
            let alignments = v / 7 + 2
            modules -= (25 * alignments - 10) * alignments - 55
            if v >= 7 { modules -= 36 }  // the two version information blocks
        }
        return modules
    }

    /// Data codewords (error correction excluded) of `version` at level M.
    static func dataCapacity(version: Int) -> Int {
        rawDataModules(version: version) / 8 - eccPerBlock[version] * blockCount[version]
    }

    /// The byte mode's character count takes 8 bits up to version 9, 16 after.
    private static func countBits(version: Int) -> Int { version <= 9 ? 8 : 16 }

    static func fits(_ byteCount: Int, version: Int) -> Bool {
        byteCount < 1 << countBits(version: version) && 4 + countBits(version: version) + 8 * byteCount <= 8 * dataCapacity(version: version)
    }

    /// The mode indicator (0100, bytes), the count, the bytes, a terminator of up to four zero
    /// bits, zeros to the byte, then the pad bytes 0xEC and 0x11 in turn to the capacity.
    static func dataCodewords(_ bytes: [UInt8], version: Int) -> [UInt8] {
        var bits: [Bool] = []
        func append(_ value: Int, _ count: Int) {
            for i in stride(from: count - 1, through: 0, by: -1) { bits.append((value >> i) & 1 == 1) }
        }
        append(0b0100, 4)
        append(bytes.count, countBits(version: version))
        for byte in bytes { append(Int(byte), 8) }
        let capacity = 8 * dataCapacity(version: version)
        append(0, min(4, capacity - bits.count))
        append(0, (8 - bits.count % 8) % 8)
        var codewords = stride(from: 0, to: bits.count, by: 8).map { start in
            bits[start..<start + 8].reduce(UInt8(0)) { $0 << 1 | ($1 ? 1 : 0) }
        }
        var pad: UInt8 = 0xEC
        while codewords.count < capacity / 8 {
            codewords.append(pad)
            pad ^= 0xEC ^ 0x11
        }
        return codewords
    }

    /// The data split into the version's blocks (the short ones first, the long ones one
    /// codeword longer), each followed by its error correction, then interleaved: the i-th
    /// codeword of every block in turn, then the error correction codewords the same way.
    static func interleaved(_ data: [UInt8], version: Int) -> [UInt8] {
        let blocks = blockCount[version], eccLength = eccPerBlock[version]
        let total = rawDataModules(version: version) / 8
        let longBlocks = total % blocks, shortLength = total / blocks - eccLength
        let divisor = ReedSolomon.divisor(degree: eccLength)
        var dataBlocks: [[UInt8]] = [], eccBlocks: [[UInt8]] = []
        var start = 0
        for index in 0..<blocks {
            let length = shortLength + (index >= blocks - longBlocks ? 1 : 0)
            let block = Array(data[start..<start + length])
            start += length
            dataBlocks.append(block)
            eccBlocks.append(ReedSolomon.remainder(of: block, by: divisor))
        }
        var result: [UInt8] = []
        for i in 0...shortLength {
            for block in dataBlocks where i < block.count { result.append(block[i]) }
        }
        for i in 0..<eccLength {
            for block in eccBlocks { result.append(block[i]) }
        }
        return result
    }
}

/// Reed–Solomon over GF(2⁸) with the QR code's polynomial x⁸ + x⁴ + x³ + x² + 1 (0x11D).
enum ReedSolomon {
    static func multiply(_ x: UInt8, _ y: UInt8) -> UInt8 {
        var product = 0
        for i in stride(from: 7, through: 0, by: -1) {
            product = (product << 1) ^ ((product >> 7) * 0x11D)
            product ^= Int((y >> UInt8(i)) & 1) * Int(x)
        }
        return UInt8(product)
    }

    /// The generator polynomial (x − α⁰)(x − α¹)…(x − α^(degree−1)), highest term (always 1) left out.
    static func divisor(degree: Int) -> [UInt8] {
        var coefficients = [UInt8](repeating: 0, count: degree)
        coefficients[degree - 1] = 1
        var root: UInt8 = 1
        for _ in 0..<degree {
            for j in 0..<degree {
                coefficients[j] = multiply(coefficients[j], root)
                if j + 1 < degree { coefficients[j] ^= coefficients[j + 1] }
            }
            root = multiply(root, 0x02)
        }
        return coefficients
    }

    /// The remainder of `data` × x^degree divided by the generator: the error correction codewords.
    static func remainder(of data: [UInt8], by divisor: [UInt8]) -> [UInt8] {
        var remainder = [UInt8](repeating: 0, count: divisor.count)
        for byte in data {
            let factor = byte ^ remainder.removeFirst()
            remainder.append(0)
            for i in remainder.indices { remainder[i] ^= multiply(divisor[i], factor) }
        }
        return remainder
    }
}

/// A symbol being drawn: its modules, and which of them belong to function patterns (which
/// the data and the mask leave alone).
private struct Symbol {
    let version: Int
    let size: Int
    var modules: [[Bool]]
    var isFunction: [[Bool]]

    init(version: Int) {
        self.version = version
        size = 17 + 4 * version
        modules = Array(repeating: Array(repeating: false, count: size), count: size)
        isFunction = modules
    }

    mutating func set(_ x: Int, _ y: Int, _ dark: Bool) {
        modules[y][x] = dark
        isFunction[y][x] = true
    }

    /// Timing lines, the three finders with their separators, the alignment patterns, and the
    /// format and version areas (the format drawn for real once the mask is known).
    mutating func placeFunctionPatterns() {
        for i in 0..<size {
            set(6, i, i % 2 == 0)
            set(i, 6, i % 2 == 0)
        }
        for (x, y) in [(3, 3), (size - 4, 3), (3, size - 4)] {
            for dy in -4...4 {
                for dx in -4...4 where (0..<size).contains(x + dx) && (0..<size).contains(y + dy) {
                    let ring = max(abs(dx), abs(dy))
                    set(x + dx, y + dy, ring != 2 && ring != 4)
                }
            }
        }
        let centres = alignmentCentres()
        for (i, x) in centres.enumerated() {
            for (j, y) in centres.enumerated() {
                // Not where a finder is.
                let last = centres.count - 1
                if (i == 0 && j == 0) || (i == 0 && j == last) || (i == last && j == 0) { continue }
                for dy in -2...2 {
                    for dx in -2...2 { set(x + dx, y + dy, max(abs(dx), abs(dy)) != 1) }
                }
            }
        }
        placeFormat(mask: 0)
        placeVersion()
    }

    /// The rows and columns of alignment patterns' centres: 6, then evenly spaced (even
    /// steps, the last at size − 7).
    func alignmentCentres() -> [Int] {
        guard version > 1 else { return [] }
        let count = version / 7 + 2
        let step = version == 32 ? 26 : (version * 4 + count * 2 + 1) / (count * 2 - 2) * 2
        var centres = [6]
        for index in 0..<(count - 1) { centres.insert(size - 7 - index * step, at: 1) }
        return centres
    }

    /// The 15 format bits (level M is 00, then the mask; BCH(15,5); XOR 0x5412), twice: around
    /// the top-left finder, and split between the other two; plus the always-dark module.
    mutating func placeFormat(mask: Int) {
        let data = 0b00 << 3 | mask
        var remainder = data
        for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
        let bits = (data << 10 | remainder) ^ 0x5412
        func bit(_ i: Int) -> Bool { (bits >> i) & 1 == 1 }
        for i in 0...5 { set(8, i, bit(i)) }
        set(8, 7, bit(6))
        set(8, 8, bit(7))
        set(7, 8, bit(8))
        for i in 9..<15 { set(14 - i, 8, bit(i)) }
        for i in 0..<8 { set(size - 1 - i, 8, bit(i)) }
        for i in 8..<15 { set(8, size - 15 + i, bit(i)) }
        set(8, size - 8, true)
    }

    /// From version 7: the 18 version bits (BCH(18,6)), beside the top-right and bottom-left finders.
    mutating func placeVersion() {
        guard version >= 7 else { return }
        var remainder = version
        for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25) }
        let bits = version << 12 | remainder
        for i in 0..<18 {
            let dark = (bits >> i) & 1 == 1, a = size - 11 + i % 3, b = i / 3
            set(a, b, dark)
            set(b, a, dark)
        }
    }

    /// The codewords' bits, most significant first, up and down two-module columns from the
    /// right (skipping the vertical timing line), over every module that is not a function
    /// pattern; the remainder bits stay light.
    mutating func placeData(_ codewords: [UInt8]) {
        var index = 0
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            let upward = (right + 1) & 2 == 0
            for step in 0..<size {
                let y = upward ? size - 1 - step : step
                for x in [right, right - 1] where !isFunction[y][x] && index < codewords.count * 8 {
                    modules[y][x] = (codewords[index >> 3] >> (7 - UInt8(index & 7))) & 1 == 1
                    index += 1
                }
            }
            right -= 2
        }
    }

    /// Flips every data module where mask pattern `mask` (x the column, y the row) is true.
    mutating func apply(mask: Int) {
        for y in 0..<size {
            for x in 0..<size where !isFunction[y][x] {
                let flip: Bool =
                    switch mask {
                    case 0: (x + y) % 2 == 0
                    case 1: y % 2 == 0
                    case 2: x % 3 == 0
                    case 3: (x + y) % 3 == 0
                    case 4: (x / 3 + y / 2) % 2 == 0
                    case 5: x * y % 2 + x * y % 3 == 0
                    case 6: (x * y % 2 + x * y % 3) % 2 == 0
                    default: ((x + y) % 2 + x * y % 3) % 2 == 0
                    }
                if flip { modules[y][x].toggle() }
            }
        }
    }

    /// The standard's penalty: 3 + (n − 5) for each run of n ≥ 5 modules of one colour in a row or
    /// column; 3 for each 2×2 block of one colour; 40 for each finder-like 1:1:3:1:1 pattern with
    /// four light modules on one side (the quiet zone counts as light); and 10 for each 5% the
    /// dark share is away from half.
    func penalty() -> Int {
        var total = 0
        let columns = (0..<size).map { x in modules.map { $0[x] } }
        let finderLike: [[Bool]] = [
            [true, false, true, true, true, false, true, false, false, false, false],
            [false, false, false, false, true, false, true, true, true, false, true],
        ]
        for line in modules + columns {
            var run = 1
            for i in 1...line.count {
                if i < line.count, line[i] == line[i - 1] {
                    run += 1
                } else {
                    if run >= 5 { total += 3 + run - 5 }
                    run = 1
                }
            }
            let padded = Array(repeating: false, count: 4) + line + Array(repeating: false, count: 4)
            for start in 0...(padded.count - 11) {
                for pattern in finderLike where padded[start..<start + 11].elementsEqual(pattern) { total += 40 }
            }
        }
        for y in 0..<(size - 1) {
            for x in 0..<(size - 1) {
                let colour = modules[y][x]
                if modules[y][x + 1] == colour && modules[y + 1][x] == colour && modules[y + 1][x + 1] == colour { total += 3 }
            }
        }
        let dark = modules.reduce(0) { $0 + $1.filter { $0 }.count }, all = size * size
        // The smallest k with |dark/all − 1/2| ≤ (k + 1) × 5%.
        total += ((abs(dark * 20 - all * 10) + all - 1) / all - 1) * 10
        return total
    }
}

extension QRCode {
    /// The code as an SVG image: one path of unit squares, with the four-module quiet zone
    /// readers need around it, drawn sharp at any scale.
    func svg() -> String {
        let quiet = 4, width = size + 2 * quiet
        var path = ""
        for (y, row) in modules.enumerated() {
            for (x, dark) in row.enumerated() where dark { path += "M\(x + quiet) \(y + quiet)h1v1h-1z" }
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(width) \(width)" shape-rendering="crispEdges">\
            <rect width="\(width)" height="\(width)" fill="#fff"/><path d="\(path)" fill="#000"/></svg>
            """
    }

    /// `svg()` as a `data:` URL for an `<img>`: the console's CSP allows images from `data:`.
    func svgDataURL() -> String {
        "data:image/svg+xml;base64," + Data(svg().utf8).base64EncodedString()
    }
}
