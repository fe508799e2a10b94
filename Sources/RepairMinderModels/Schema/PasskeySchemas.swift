/// Passkeys (docs/API.md §11): WebAuthn Level 3's JSON forms and our bodies.

extension JSONSchema {
    /// Base64url without padding (`FieldRules.base64URL`'s rule).
    static func base64URL(_ description: String) -> JSONSchema {
        FieldRules.base64URL(description: description).schema
    }
}

extension WireExample {
    static let passkeyChallenge = "mE3kVq8s0T1xYb6Rz2Nc4Hw7Jp9Ld5Fa3Gu0Qe8Ko1"
    static let credentialId = "b3Y0ZXJsYXktY3JlZGVudGlhbC1pZC1leGFtcGxl"
    static let userHandle = "c2FtcGxlLXVzZXItaGFuZGxlLTMyLWJ5dGVzLWxvbmc"
    static let passkeyChallengeId = "7b1e4c9a-3d2f-4a8b-9c6e-5f0a1d2b3c4e"
    static let rpId = "acme.test"
}
