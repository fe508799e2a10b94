import Foundation
import RepairMinderModels
import SQLKit

/// The authenticator-app second factor (docs/API.md §2.10): TOTP codes with replay protection and
/// single-use recovery codes.
struct AuthenticatorApp: Sendable {
    let store: TOTPStore
    let secretBox: SecretBox
    let hashing: SecretHashing
    let generator = TOTPGenerator()

    static let issuer = "Repair Minder"

    /// The `otpauth://` URL of docs/API.md §2.10, which Google Authenticator, 1Password and Authy read.
    static func otpauthURL(secret: String, email: String) -> String {
        let label = "\(issuer):\(email)".addingPercentEncoding(withAllowedCharacters: labelAllowed) ?? email
        let issuerParameter = issuer.addingPercentEncoding(withAllowedCharacters: labelAllowed) ?? issuer
        return "otpauth://totp/\(label)?secret=\(secret)&issuer=\(issuerParameter)&algorithm=SHA1&digits=6&period=30"
    }

    private static let labelAllowed: CharacterSet = {
        var set = CharacterSet.alphanumerics
        set.insert(charactersIn: "-._~@:")
        return set
    }()

    func isEnabled(userId: String) async throws -> Bool {
        try await store.credential(userId: userId)?.isEnabled ?? false
    }

    /// What an accepted code would use up.
    enum Factor: Sendable {
        case totpStep(UInt64)
        case recoveryCode(hash: String)
    }

    /// Accepts `code` as a second factor of an enrolled user: a current TOTP code (refused if its
    /// step, or a later one, was already used) or an unused recovery code (then used up).
    func accept(_ code: String, userId: String, now: Double) async throws -> Bool {
        guard let factor = try await check(code, userId: userId, now: now) else { return false }
        return try await store.database.withConnection { db in try await use(factor, userId: userId, now: now, on: db) }
    }

    /// Whether `code` is a factor the user could use now, without using it up: for a caller that
    /// must win a race of its own (closing a login challenge) before the factor is spent.
    func check(_ code: String, userId: String, now: Double) async throws -> Factor? {
        guard let credential = try await store.credential(userId: userId), credential.isEnabled,
            let sealed = credential.secretSealed
        else { return nil }
        if code.count == 6, code.allSatisfy({ $0.isASCII && $0.isNumber }) {
            let secret = try secretBox.open(sealed, owner: userId)
            guard let step = generator.matchingStep(of: code, secret: secret, at: now),
                credential.lastUsedStep.map({ $0 < Int64(step) }) ?? true
            else { return nil }
            return .totpStep(step)
        }
        guard RecoveryCodeFormat.looksLikeOne(code) else { return nil }
        // Under the previous encryption key too: recovery codes cannot be hashed again.
        for hash in hashing.codeHashes(RecoveryCodeFormat.normalize(code), scope: "recovery:\(userId)")
        where try await store.hasUnusedRecoveryCode(userId: userId, hash: hash) {
            return .recoveryCode(hash: hash)
        }
        return nil
    }

    /// Uses the factor up on `db`, so a caller can make it part of its own transaction (closing
    /// a login challenge); false if a concurrent request already did (exactly one wins).
    func use(_ factor: Factor, userId: String, now: Double, on db: any SQLDatabase) async throws -> Bool {
        switch factor {
        case .totpStep(let step): try await TOTPStore.claimStep(userId: userId, step: step, on: db)
        case .recoveryCode(let hash): try await TOTPStore.consumeRecoveryCode(userId: userId, hash: hash, now: now, on: db)
        }
    }

    func recoveryHash(_ code: String, userId: String) -> String {
        hashing.codeHash(RecoveryCodeFormat.normalize(code), scope: "recovery:\(userId)")
    }
}
