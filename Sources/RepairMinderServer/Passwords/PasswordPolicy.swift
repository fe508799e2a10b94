import Foundation
import RepairMinderModels

/// The password rules of docs/API.md §9, applied by every endpoint that sets a password:
/// `PasswordRules` (8 to 128 characters, no NUL, not the account's email), and not one of the
/// 10,000 most common passwords.
struct PasswordPolicy: Sendable {
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
        if let problem = PasswordRules.problem(password, email: email) { throw .weakPassword(problem) }
        if common.contains(PasswordRules.normalised(password).lowercased()) {
            throw .weakPassword("This password is too common. Choose another.")
        }
    }
}
