import Crypto
import Foundation

/// RFC 6238 time-based one-time passwords: HMAC-SHA-1, 30-second steps (RFC 4226 truncation).
struct TOTPGenerator: Sendable {
    var period: Double = 30
    var digits = 6

    /// The time step `time` falls in.
    func step(at time: Double) -> UInt64 { UInt64(max(0, time) / period) }

    /// The code for `secret` in time step `step`.
    func code(secret: [UInt8], step: UInt64) -> String {
        var counter = step.bigEndian
        let message = withUnsafeBytes(of: &counter) { Data($0) }
        let mac = Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: SymmetricKey(data: secret)))
        let offset = Int(mac[mac.count - 1] & 0x0F)
        let binary = (UInt32(mac[offset] & 0x7F) << 24) | (UInt32(mac[offset + 1]) << 16)
            | (UInt32(mac[offset + 2]) << 8) | UInt32(mac[offset + 3])
        var modulus: UInt32 = 1
        for _ in 0..<digits { modulus *= 10 }
        let value = String(binary % modulus)
        return String(repeating: "0", count: digits - value.count) + value
    }

    /// The step whose code `code` is, looking `window` steps either side of `time`, or nil.
    /// Every candidate is compared, in constant time, so timing does not tell which matched.
    func matchingStep(of code: String, secret: [UInt8], at time: Double, window: Int = 1) -> UInt64? {
        let current = step(at: time)
        var match: UInt64?
        for offset in -window...window {
            let candidate = Int64(current) + Int64(offset)
            guard candidate >= 0 else { continue }
            if SecretHashing.constantTimeEquals(self.code(secret: secret, step: UInt64(candidate)), code), match == nil {
                match = UInt64(candidate)
            }
        }
        return match
    }
}
