import Foundation
import Testing

@testable import RepairMinderServer

/// The console's QR encoder (`QRCode`, for the authenticator app's `otpauth://` URI): the
/// standard's own examples for the error correction, format and version information, and a
/// reader we did not write (zbar's `zbarimg`, Debian's zbar-tools) decoding every mask and a
/// range of sizes back to the bytes.
@Suite struct QRCodeTests {
    static let uri =
        "otpauth://totp/Repair%20Minder:admin@acme.test?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Repair%20Minder&algorithm=SHA1&digits=6&period=30"

    /// ISO/IEC 18004's worked example (version 1-M, "01234567"): its 16 data codewords and the
    /// 10 error correction codewords the standard gives for them.
    @Test func errorCorrectionIsTheStandardsExample() {
        let data: [UInt8] = [16, 32, 12, 86, 97, 128, 236, 17, 236, 17, 236, 17, 236, 17, 236, 17]
        #expect(ReedSolomon.remainder(of: data, by: ReedSolomon.divisor(degree: 10)) == [165, 36, 212, 193, 237, 54, 199, 135, 44, 85])
    }

    /// Level M's byte capacities: 14 bytes in version 1, 213 in 10, 2,331 in 40, and no more.
    @Test func eachVersionHoldsWhatTheStandardSays() throws {
        for (version, bytes) in [(1, 14), (2, 26), (5, 84), (7, 122), (10, 213), (40, 2331)] {
            #expect(QRCode.fits(bytes, version: version), "\(version)")
            #expect(!QRCode.fits(bytes + 1, version: version), "\(version)")
        }
        #expect(try QRCode(bytes: Array(repeating: 0x41, count: 14)).version == 1)
        #expect(try QRCode(bytes: Array(repeating: 0x41, count: 15)).version == 2)
        #expect(throws: QRCode.TooLong.self) { try QRCode(bytes: Array(repeating: 0x41, count: 2332)) }
        // An authenticator URI with a long address still fits version 10.
        let long = Self.uri.replacingOccurrences(of: "admin@acme.test", with: String(repeating: "a", count: 64) + "@example.com")
        #expect(try QRCode(text: long).version <= 10)
    }

    /// The 15 format bits around the top-left finder, for level M and each mask (the standard's table).
    @Test func formatInformationIsTheStandards() throws {
        let expected = [
            "101010000010010", "101000100100101", "101111001111100", "101101101001011",
            "100010111111001", "100000011001110", "100111110010111", "100101010100000",
        ]
        for mask in 0..<8 {
            let code = try QRCode(text: "HELLO", forcedMask: mask)
            #expect(code.mask == mask)
            let m = code.modules
            var positions = (0...5).map { (8, $0) } + [(8, 7), (8, 8), (7, 8)]
            positions += (9..<15).map { (14 - $0, 8) }
            let bits = positions.enumerated().reduce(0) { $0 | (m[$1.element.1][$1.element.0] ? 1 << $1.offset : 0) }
            #expect(bits == Int(expected[mask], radix: 2), "mask \(mask)")
        }
    }

    /// From version 7, the 18 version bits (the standard's value for 7: 000111110010010100).
    @Test func versionInformationIsTheStandards() throws {
        let code = try QRCode(bytes: Array(repeating: 0x61, count: 120))
        #expect(code.version == 7)
        var bits = 0
        for i in 0..<18 where code.modules[i / 3][code.size - 11 + i % 3] { bits |= 1 << i }
        #expect(bits == 0b000111110010010100)
    }

    /// The SVG draws exactly the modules, inside a quiet zone of four.
    @Test func theImageIsTheModules() throws {
        let code = try QRCode(text: Self.uri)
        let drawn = try Self.modules(ofSVGDataURL: code.svgDataURL())
        #expect(drawn.count == code.size + 8)
        #expect(drawn[4..<(code.size + 4)].map { Array($0[4..<(code.size + 4)]) } == code.modules)
        #expect(drawn.prefix(4).allSatisfy { !$0.contains(true) })
    }

    /// Under CI a missing zbar fails rather than skips (.ci/run installs it).
    @Test(.enabled(if: zbarimg != nil || PythonScript.isCI, "needs zbar's zbarimg: apt-get install zbar-tools"))
    func aReaderDecodesEveryMaskAndSize() throws {
        try #require(Self.zbarimg != nil, "zbarimg is not installed: apt-get install zbar-tools")
        for mask in 0..<8 {
            let code = try QRCode(text: Self.uri, forcedMask: mask)
            #expect(try Self.decodeWithZbar(Self.withQuietZone(code.modules)) == Self.uri, "mask \(mask)")
        }
        for length in [1, 20, 100, 200, 400, 1000, 2331] {
            let text = String((0..<length).map { index in Character(UnicodeScalar(UInt8(0x21 + (index * 7) % 90))) })
            let code = try QRCode(text: text)
            #expect(try Self.decodeWithZbar(Self.withQuietZone(code.modules)) == text, "\(length) bytes, version \(code.version)")
        }
        let utf8 = "Repair Minder: répare, ремонт, 修理"
        #expect(try Self.decodeWithZbar(Self.withQuietZone(QRCode(text: utf8).modules)) == utf8)
    }

    // MARK: Reading codes back

    /// zbar's reader, when installed.
    static let zbarimg: String? = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        .map { "\($0)/zbarimg" }.first { FileManager.default.isExecutableFile(atPath: $0) }

    static func withQuietZone(_ modules: [[Bool]]) -> [[Bool]] {
        let light = Array(repeating: false, count: modules.count + 8)
        return Array(repeating: light, count: 4) + modules.map { [false, false, false, false] + $0 + [false, false, false, false] }
            + Array(repeating: light, count: 4)
    }

    /// The modules an SVG of `QRCode.svg()` draws (its unit squares), quiet zone included.
    static func modules(ofSVGDataURL url: String) throws -> [[Bool]] {
        let base64 = try #require(url.split(separator: ",", maxSplits: 1).last)
        let svg = String(decoding: try #require(Data(base64Encoded: String(base64))), as: UTF8.self)
        let width = try #require(svg.firstMatch(of: /viewBox="0 0 (\d+) \d+"/).flatMap { Int($0.1) })
        var modules = Array(repeating: Array(repeating: false, count: width), count: width)
        for square in svg.matches(of: /M(\d+) (\d+)h1v1h-1z/) {
            modules[try #require(Int(square.2))][try #require(Int(square.1))] = true
        }
        return modules
    }

    /// What `zbarimg` reads in `modules` (quiet zone included), drawn 4 pixels a module as a
    /// plain PBM; nil when zbar is not installed.
    static func decodeWithZbar(_ modules: [[Bool]]) throws -> String? {
        guard let zbarimg else { return nil }
        let scale = 4, width = modules.count * scale
        var image = "P1\n\(width) \(width)\n"
        for row in modules {
            let line = row.flatMap { Array(repeating: $0 ? "1" : "0", count: scale) }.joined(separator: " ") + "\n"
            image += String(repeating: line, count: scale)
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("qr-\(UUID().uuidString).pbm")
        try image.write(to: file, atomically: true, encoding: .ascii)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: zbarimg)
        // Binary: the bytes as encoded, not a guess at their character set.
        process.arguments = ["--quiet", "--raw", "-Sbinary", file.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        var text = String(decoding: data, as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}
