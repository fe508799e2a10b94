import RepairMinderModels

/// Recovery codes: 8 characters from an alphabet without look-alikes (no 0/O, 1/I/L).
enum RecoveryCodes {
    static let alphabet = Array("ABCDEFGHJKMNPQRSTUVWXYZ23456789")
    static let length = RecoveryCodeFormat.length
    static let count = 10

    static func generate() -> [String] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in
            String((0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
        }
    }
}
