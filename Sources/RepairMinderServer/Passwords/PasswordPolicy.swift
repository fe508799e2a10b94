import Foundation

/// The password rules of docs/API.md §9, applied by every endpoint that sets a password:
/// 8 characters or more, at most 72 bytes of UTF-8 (bcrypt's limit: longer is refused, never
/// silently truncated), not the account's email, not one of the 10,000 most common passwords.
struct PasswordPolicy: Sendable {
    static let minimumCharacters = 8
    static let maximumBytes = 72

    /// The common passwords, lower-cased (`Resources/common-passwords.txt`, source in its README).
    private let common: Set<String>

    init(common: Set<String>) { self.common = common }

    /// The policy with the shipped list; throws if the resource is missing from the build.
    static func bundled() throws -> PasswordPolicy {
        guard let url = Bundle.module.url(forResource: "common-passwords", withExtension: "txt") else {
            throw SettingsError("the common-password list is missing from the build (Resources/common-passwords.txt)")
        }
        let text = try String(contentsOf: url, encoding: .utf8)
        return PasswordPolicy(common: Set(text.split(separator: "\n").map { $0.lowercased() }))
    }

    /// Throws 400 `WEAK_PASSWORD` naming the first rule `password` breaks.
    func check(_ password: String, email: String) throws(APIError) {
        if password.count < Self.minimumCharacters {
            throw .weakPassword("Password must be at least \(Self.minimumCharacters) characters")
        }
        if password.utf8.count > Self.maximumBytes {
            throw .weakPassword("Password must be at most \(Self.maximumBytes) bytes (about 72 letters, fewer with accents or emoji)")
        }
        if password.lowercased() == email.lowercased() {
            throw .weakPassword("Password must not be your email address")
        }
        if common.contains(password.lowercased()) {
            throw .weakPassword("This password is too common. Choose another.")
        }
    }
}
