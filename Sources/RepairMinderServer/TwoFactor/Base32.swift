/// RFC 4648 base32 (uppercase, no padding): how authenticator apps take TOTP secrets.
enum Base32 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        var buffer = 0, bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | Int(byte)
            bits += 8
            while bits >= 5 {
                output.append(alphabet[(buffer >> (bits - 5)) & 31])
                bits -= 5
            }
        }
        if bits > 0 { output.append(alphabet[(buffer << (5 - bits)) & 31]) }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes, ignoring case, spaces and padding; nil for any other character.
    static func decode(_ string: String) -> [UInt8]? {
        var output: [UInt8] = []
        var buffer = 0, bits = 0
        for character in string.uppercased().utf8 where character != UInt8(ascii: " ") && character != UInt8(ascii: "=") {
            guard let value = alphabet.firstIndex(of: character) else { return nil }
            buffer = ((buffer << 5) | value) & 0xFFFF
            bits += 5
            if bits >= 8 {
                output.append(UInt8((buffer >> (bits - 8)) & 0xFF))
                bits -= 8
            }
        }
        return output
    }
}
