import Foundation

/// The field rules of docs/API.md §1, each a `StringRule` from which both the OpenAPI document
/// and the server's check are derived; the SDK's forms use the same ones.
public enum FieldRules {
    /// Free text a person reads (a name, a shop's name, a note): at most `maxLength` code points
    /// as sent, non-blank, and none of `TextCharacters.forbidden` (controls, bidi controls,
    /// invisible format characters) inside; a `multiline` field also takes line feeds. Whitespace around it is dropped
    /// and it is handed on in Unicode's canonical composition (NFC), so a composed and a
    /// decomposed "é" are stored alike.
    public static func text(maxLength: Int = 1024, multiline: Bool = false, description: String? = nil) -> StringRule {
        let forbidden = characterClass(multiline ? TextCharacters.forbiddenInMultiline : TextCharacters.forbidden)
        // Whitespace around (trimmed; tab and line breaks too), then a visible character, then
        // anything allowed ending in a visible character.
        let pattern = "^[\(whitespaceClass)]*[^\(whitespaceClass)\(forbidden)]([^\(forbidden)]*[^\(whitespaceClass)\(forbidden)])?[\(whitespaceClass)]*$"
        return StringRule(
            minLength: 1, maxLength: maxLength,
            content: .pattern(
                pattern,
                mismatch: multiline
                    ? "must not contain control characters other than line feeds, invisible or bidirectional formatting characters"
                    : "must not contain control characters, invisible or bidirectional formatting characters"),
            normalisation: .trimmedComposed, description: description)
    }

    /// A token or identifier a client sends back (an id, a challenge, a refresh or device
    /// token): 1 to `maxLength` visible ASCII characters (`!` to `~`), whitespace around
    /// dropped. A wrong one is then a "not found" or "invalid" answer, not a validation error.
    public static func visibleASCII(maxLength: Int, description: String? = nil) -> StringRule {
        StringRule(
            minLength: 1, maxLength: maxLength,
            content: .pattern(
                "^[\(whitespaceClass)]*[\\u0021-\\u007E]+[\(whitespaceClass)]*$", mismatch: "must be printable ASCII characters without spaces"),
            normalisation: .trimmed, description: description)
    }

    /// An identifier: up to 128 visible ASCII characters, so that a wrong id is a "not found"
    /// answer rather than a validation error.
    public static let identifier = visibleASCII(maxLength: 128)

    /// Kept exactly as sent (passwords: spaces are part of them), non-empty.
    public static let secret = StringRule(minLength: 1, maxLength: 1024)

    /// A plain address: one `@`, something before it, a dotted domain after it; no whitespace,
    /// control or invisible format characters (bidi overrides, zero-width spaces) that would
    /// make two addresses look alike, and none of `<>"(),;:`, with which a mail client or an SMTP
    /// library would read `x1<victim@example.org>` as someone else's mailbox (an alias per
    /// address budget, a relay). Whitespace around it is dropped and it is lowercased.
    public static let email = StringRule(
        minLength: 1, maxLength: 254,
        content: .pattern(
            "^[\(whitespaceClass)]*[^\(addressForbidden)]{1,64}@[^\(addressForbidden).]+(\\.[^\(addressForbidden).]+)+[\(whitespaceClass)]*$",
            mismatch: "must be a valid email address"),
        normalisation: .trimmedLowercased, description: "An email address")

    /// A telephone number as people write it (E.164-ish, docs/API.md §14): digits, spaces and
    /// `+`, at most 32 characters, at least one digit; whitespace around dropped.
    public static let phone = StringRule(
        minLength: 1, maxLength: 32,
        content: .pattern(
            "^[\(whitespaceClass)]*[+]?[0-9 ]*[0-9][0-9 ]*[\(whitespaceClass)]*$", mismatch: "must be a phone number (digits, spaces and +)"),
        normalisation: .trimmed, description: "A phone number: digits, spaces and +")

    /// Exactly six decimal digits.
    public static let sixDigitCode = StringRule(
        minLength: 1, content: .pattern("^[\(whitespaceClass)]*[0-9]{6}[\(whitespaceClass)]*$", mismatch: "must be a 6-digit code"),
        normalisation: .trimmed)

    /// Six digits (emailed or authenticator code) or an 8-character recovery code, which may be
    /// typed with a space or a dash in the middle.
    public static let secondFactorCode = StringRule(
        minLength: 1,
        content: .pattern(
            "^[\(whitespaceClass)]*([0-9]{6}|[A-Za-z0-9]{4}[ -]?[A-Za-z0-9]{4})[\(whitespaceClass)]*$",
            mismatch: "must be a 6-digit code or an 8-character recovery code"),
        normalisation: .trimmed, description: "A 6-digit code, or an 8-character recovery code")

    // MARK: Fields of several requests

    /// Login step 1's `challengeToken`, sent back with steps 2 and 3 (docs/API.md §2.3).
    public static let challengeToken = visibleASCII(maxLength: 128, description: "Step 1's challengeToken (opaque, 256 bits)")

    /// A refresh token: any up to 512 characters is looked up (a wrong one is refused by the
    /// route, 401), a longer one is bad input.
    public static let refreshToken = visibleASCII(maxLength: 512)

    /// The token of a REKI reset link (docs/API.md §10), in `POST /auth/reset-password` and on
    /// the link's page: any up to 1 KiB is looked up (a wrong one is "Invalid or expired reset
    /// token", not bad input).
    public static let resetToken = visibleASCII(maxLength: 1024, description: "The token of the emailed link (64 hex characters)")

    /// A push device token (APNs or FCM).
    public static let deviceToken = visibleASCII(maxLength: 512)

    /// Binary WebAuthn values as base64url without padding (docs/API.md §11), at most
    /// `maxLength` characters: a credential id is at most 1023 bytes, a signature (RSA-4096)
    /// 512, a user handle 64.
    public static func base64URL(maxLength: Int? = nil, description: String? = nil) -> StringRule {
        StringRule(
            minLength: 1, maxLength: maxLength,
            content: .pattern("^[A-Za-z0-9_-]+$", mismatch: "must be base64url without padding"), description: description)
    }

    /// A WebAuthn credential's `type`: always `public-key`.
    public static let publicKeyCredentialType = StringRule(
        minLength: 1, content: .pattern("^public-key$", mismatch: "must be \"public-key\""))

    /// A passkey's name as the user gives it.
    public static let passkeyName = text(maxLength: 100)

    /// A person's first or last name: staff (registration, invitations, the team) and clients.
    public static let personName = text(maxLength: 100)

    /// A role an admin may give a member (docs/API.md §12): every role but `master_admin`,
    /// which only the platform's operators give.
    public static let assignableRole = StringRule(
        content: .oneOf(UserRole.allCases.filter { $0 != .masterAdmin }.map(\.rawValue)), normalisation: .trimmed,
        description: "The member's role in the shop")

    /// A new password as sent; the policy (§9, `PasswordRules`: 8 to 128 characters, no NUL,
    /// not common, not the email) answers 400 `WEAK_PASSWORD`, not a validation error.
    public static let newPassword = secret.described(
        "8 to 128 characters (code points after NFKC), no NUL, not a common password, not the email")

    // MARK: Characters

    /// What trimming drops: Swift's whitespace and newlines (Unicode's separators, tab to
    /// carriage return, next line), listed so that the document's patterns say the same.
    public static let whitespace: [ClosedRange<UInt32>] = [
        0x09...0x0D, 0x20...0x20, 0x85...0x85, 0xA0...0xA0, 0x1680...0x1680, 0x2000...0x200A, 0x2028...0x2029,
        0x202F...0x202F, 0x205F...0x205F, 0x3000...0x3000,
    ]

    /// Control characters and the invisible format characters (Unicode's Cf) of the Basic
    /// Multilingual Plane. Those beyond it (tag characters, U+E0000 and up) are left out: a
    /// pattern that names a character beyond it is not ECMA-262 without the `u` flag, which
    /// JavaScript tools reading the document may not use.
    static let invisible: [ClosedRange<UInt32>] = [
        0x00...0x1F, 0x7F...0x9F, 0xAD...0xAD, 0x600...0x605, 0x61C...0x61C, 0x6DD...0x6DD, 0x70F...0x70F,
        0x890...0x891, 0x8E2...0x8E2, 0x180E...0x180E, 0x200B...0x200F, 0x202A...0x202E, 0x2060...0x2064,
        0x2066...0x206F, 0xFEFF...0xFEFF, 0xFFF9...0xFFFB,
    ]

    /// `whitespace` as the inside of a regular-expression character class.
    public static let whitespaceClass = characterClass(whitespace)
    /// What an address may not contain, as the inside of a character class: `@` aside, which
    /// the pattern places itself.
    private static let addressForbidden = characterClass(whitespace + invisible) + "@<>\"(),;:"

    /// The inside of a character class: `\uXXXX` escapes, which ECMA-262 (with or without the
    /// `u` flag), Python and ICU read alike. Only the Basic Multilingual Plane can be named so.
    static func characterClass(_ ranges: [ClosedRange<UInt32>]) -> String {
        func one(_ scalar: UInt32) -> String {
            precondition(scalar <= 0xFFFF, "a character class of the document names the Basic Multilingual Plane only")
            return "\\u" + String(format: "%04X", scalar)
        }
        return ranges.map { $0.count == 1 ? one($0.lowerBound) : one($0.lowerBound) + "-" + one($0.upperBound) }.joined()
    }

    private static let whitespaceScalars = Set(whitespace.flatMap { $0 })

    /// `value` without the `whitespace` around it.
    public static func trimmingWhitespace(_ value: String) -> String {
        let scalars = value.unicodeScalars
        guard let first = scalars.firstIndex(where: { !whitespaceScalars.contains($0.value) }),
            let last = scalars.lastIndex(where: { !whitespaceScalars.contains($0.value) })
        else { return "" }
        if first == scalars.startIndex, last == scalars.index(before: scalars.endIndex) { return value }
        return String(scalars[first...last])
    }
}

/// The email rule as a yes-or-no question, for forms and fixture files.
public enum EmailAddress {
    public static func isValid(_ value: String) -> Bool {
        (try? FieldRules.email.check(value, "email")) != nil
    }
}

/// The shape of a recovery code: 8 letters and digits once spaces and dashes are dropped.
public enum RecoveryCodeFormat {
    public static let length = 8

    /// The canonical form of what a person typed: uppercase, spaces and dashes removed.
    public static func normalize(_ input: String) -> String {
        input.uppercased().filter { $0 != " " && $0 != "-" }
    }

    public static func looksLikeOne(_ input: String) -> Bool {
        let code = normalize(input)
        return code.count == length && code.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }
}
