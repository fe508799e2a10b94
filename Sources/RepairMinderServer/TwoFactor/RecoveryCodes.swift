/// Recovery codes: 8 characters from an alphabet without look-alikes (no 0/O, 1/I/L).
enum RecoveryCodes {
    static let alphabet = Array("ABCDEFGHJKMNPQRSTUVWXYZ23456789")
    static let length = 8
    static let count = 10

    static func generate() -> [String] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in
            String((0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
        }
    }

    /// The canonical form of what a person typed: uppercase, spaces and dashes removed.
    static func normalize(_ input: String) -> String {
        input.uppercased().filter { $0 != " " && $0 != "-" }
    }

    static func looksLikeOne(_ input: String) -> Bool {
        let code = normalize(input)
        return code.count == length && code.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }
}
