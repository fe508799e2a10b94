import Foundation

/// The rules of a new password (docs/API.md §9) that need no server: its length, no NUL, not
/// the email. The server adds the common-password list; the SDK's forms check these first.
///
/// A password is taken in Unicode's compatibility composition (NFKC): a composed and a
/// decomposed "é", or "ﬁ" and "fi", are one password, whichever keyboard typed it. Its length
/// is counted in code points of that form, as NIST SP 800-63B asks, so any script gets the
/// same room; bcrypt's 72-byte limit does not apply (the server hashes a digest of it).
public enum PasswordRules {
    public static let minimumCharacters = 8
    public static let maximumCharacters = 128

    /// The form a password is counted, compared and hashed in.
    public static func normalised(_ password: String) -> String {
        password.precomposedStringWithCompatibilityMapping
    }

    /// The first rule `password` breaks, as the message `WEAK_PASSWORD` carries; nil when none.
    public static func problem(_ password: String, email: String) -> String? {
        // A C string ends at NUL: refused outright rather than ever reaching a hash that way.
        if password.unicodeScalars.contains("\u{0}") { return "Password must not contain the NUL character" }
        let normalised = normalised(password)
        let length = normalised.unicodeScalars.count
        if length < minimumCharacters { return "Password must be at least \(minimumCharacters) characters" }
        if length > maximumCharacters { return "Password must be at most \(maximumCharacters) characters" }
        let address = email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        if !address.isEmpty, normalised.lowercased() == address { return "Password must not be your email address" }
        return nil
    }
}
