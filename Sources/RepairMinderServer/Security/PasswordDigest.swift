import Crypto
import Foundation
import HummingbirdBcrypt
import RepairMinderModels

/// How a password becomes its stored hash: its NFKC form (`PasswordRules.normalised`), an
/// HMAC-SHA256 of that (base64, 44 bytes), then bcrypt, stored as `$bcrypt-sha256$` followed by
/// bcrypt's own string. bcrypt alone reads at most 72 bytes of a C string, so a longer password
/// (an emoji or CJK password passes 72 bytes long before 64 characters) or one with a NUL would
/// be cut short; the digest has neither. Passlib's `bcrypt_sha256` and Dropbox do the same; the
/// HMAC's fixed key keeps these digests apart from plain SHA-256 ones that leak elsewhere.
///
/// Hashes made before (plain bcrypt of the password as sent) still verify, for passwords that
/// bcrypt could have taken whole, and report that they should be replaced.
enum PasswordDigest {
    static let prefix = "$bcrypt-sha256$"
    private static let keyBytes = Array("repairminder password digest v1".utf8)

    /// What checking a password against a stored hash found.
    enum Verdict: Equatable {
        case mismatch
        /// The password is right; `outdated` when its hash is of the old plain-bcrypt kind.
        case match(outdated: Bool)
    }

    static func hash(_ password: String, cost: UInt8) -> String {
        prefix + Bcrypt.hash(digest(password), cost: cost)
    }

    static func verify(_ password: String, against stored: String) -> Verdict {
        if stored.hasPrefix(prefix) {
            return Bcrypt.verify(digest(password), hash: String(stored.dropFirst(prefix.count))) ? .match(outdated: false) : .mismatch
        }
        // An old hash saw the password as sent, cut at NUL and after 72 bytes: only a password
        // it saw whole can match it, or eight NULs would be the empty password.
        guard !password.unicodeScalars.contains("\u{0}"), password.utf8.count <= 72 else {
            // As long as a check that runs: "no such password" must not answer faster.
            _ = Bcrypt.verify("", hash: stored)
            return .mismatch
        }
        return Bcrypt.verify(password, hash: stored) ? .match(outdated: true) : .mismatch
    }

    private static func digest(_ password: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Array(PasswordRules.normalised(password).utf8), using: SymmetricKey(data: keyBytes))
        return Data(mac).base64EncodedString()
    }
}
