/// A proof a staff sign-in took, and the RFC 8176 `amr` values it stands for (docs/API.md §13.2).
enum SignInFactor: String, Sendable, CaseIterable {
    case password
    /// A code or link sent to the user's mailbox (magic link, login step 2, registration, an invitation).
    case emailedCode
    /// A TOTP code or a recovery code of the authenticator app.
    case authenticatorApp
    /// A user-verified passkey.
    case passkey

    /// Its `amr` values. A passkey is `swk` (a key the user holds, proven by a signature) and
    /// `user` (the authenticator verified the user): attestation is not requested (§11.2), so
    /// nothing shows that the key lives in hardware (`hwk`), and synced passkeys do not.
    var methods: [String] {
        switch self {
        case .password: ["pwd"]
        case .emailedCode: ["email"]
        case .authenticatorApp: ["otp"]
        case .passkey: ["swk", "user"]
        }
    }
}

/// The `amr` claim of a session whose sign-in took `factors`, in the order they were taken:
/// their methods, then `mfa` when two factors were used. A user-verified passkey is two by
/// itself (the key, and the PIN or biometric that unlocked it: a multi-factor authenticator in
/// NIST SP 800-63B's terms).
enum AuthenticationMethods {
    static let multiFactor = "mfa"

    static func amr(_ factors: [SignInFactor]) -> [String] {
        var methods: [String] = []
        for method in factors.flatMap(\.methods) where !methods.contains(method) { methods.append(method) }
        // Two kinds of factor: a second emailed code is the same mailbox again.
        if Set(factors).count > 1 || factors.contains(.passkey) { methods.append(multiFactor) }
        return methods
    }

    /// The column `sessions.amr` keeps them in.
    static func stored(_ amr: [String]) -> String { amr.joined(separator: ",") }

    /// The claim from the column; nil for a session from before it was recorded.
    static func claim(stored: String?) -> [String]? {
        stored.map { $0.split(separator: ",").map(String.init) }
    }
}
