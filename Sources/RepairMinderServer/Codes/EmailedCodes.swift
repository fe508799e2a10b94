import Foundation
import RepairMinderModels
import SQLKit

/// What an emailed code is for: keeps one purpose's codes from working for another.
enum CodePurpose: String, Sendable {
    case staffMagicLink = "staff"
    case customerSignIn = "customer"
    case passwordReset = "reset"
    case registration
}

/// A code that matched, not yet used up.
struct MatchedCode: Sendable {
    fileprivate let code: EmailedCode
    fileprivate let submittedHash: String
    /// The company a customer code was requested for, if only one.
    var companyId: String? { code.companyId }
}

/// One service for every 6-digit code sent by email (staff magic link, customer sign-in, reset,
/// registration): it issues and hashes the code, stores it and queues its email in one
/// transaction, and verifies and consumes it with one attempt policy (docs/API.md §2.4–§2.5,
/// §3.1–§3.2). The per-address budgets of §7 (code emails, wrong codes) are the routes'
/// declarations (`RouteBudget`), spent and settled by the route mounter. Flows differ only in
/// their purpose and in what a success does.
struct EmailedCodes: Sendable {
    let store: EmailedCodeStore
    let hashing: SecretHashing
    let mail: MailQueue
    let clock: ServerClock
    /// Seconds a code stays valid.
    let lifetime: Int
    /// Wrong tries that close a code.
    let maxAttempts: Int
    /// The least time a send takes, whether or not the address has an account: issuing a code
    /// and queueing its mail costs a few milliseconds more than finding no account, which would
    /// otherwise tell the two apart (docs/API.md §2.4, §9.1, §9.2).
    var minimumDuration: Duration = .zero

    /// If `compose` writes a message (the address has an account), issues a fresh code,
    /// replacing the previous one, and queues its email, in one transaction with whatever
    /// `alongside` stores for the code (a pending registration); in about the same time either
    /// way, so the answer never tells known and unknown addresses apart.
    func send(
        _ purpose: CodePurpose, to email: String, companyId: String? = nil,
        alongside: @Sendable @escaping (_ now: Double, _ db: any SQLDatabase) async throws -> Void = { _, _ in },
        compose: @Sendable (_ code: String, _ validMinutes: Int, _ now: Double) async throws -> MailMessage?
    ) async throws {
        try await takingAtLeast(minimumDuration) {
            let now = clock.now()
            let code = RandomToken.digits(6)
            guard let message = try await compose(code, lifetime / 60, now) else { return }
            try await store.issue(
                purpose: purpose.rawValue, email: email, companyId: companyId,
                codeHash: hashing.codeHash(code, scope: purpose.rawValue), now: now, ttl: Double(lifetime),
                mail: try mail.seal(message, now: now), alongside: { try await alongside(now, $0) })
            mail.deliverSoon()
        }
    }

    /// The live code of `email` if `code` is it and `accept` agrees (a customer's company
    /// choice, say); otherwise the wrong try is counted against the code and the answer is 401
    /// `INVALID_CODE`. The code is not used up: `consume` does that.
    func match(
        _ purpose: CodePurpose, email: String, code: String,
        accept: (MatchedCode) async throws -> Bool = { _ in true }
    ) async throws -> MatchedCode {
        let now = clock.now()
        guard let live = try await store.live(purpose: purpose.rawValue, email: email, now: now) else {
            throw APIError.invalidOrExpiredCode
        }
        let submitted = hashing.matchingHash(code, scope: purpose.rawValue, stored: live.codeHash) ?? hashing.codeHash(code, scope: purpose.rawValue)
        let matched = MatchedCode(code: live, submittedHash: submitted)
        guard SecretHashing.constantTimeEquals(live.codeHash, matched.submittedHash), try await accept(matched) else {
            try await store.recordFailure(id: live.id, maxAttempts: maxAttempts, now: now)
            throw APIError.invalidOrExpiredCode
        }
        return matched
    }

    /// Uses the code up on `db`, inside the caller's transaction with what the code allows (a
    /// new password, say): of concurrent callers exactly one gets true.
    func consume(_ matched: MatchedCode, now: Double, on db: any SQLDatabase) async throws -> Bool {
        try await EmailedCodeStore.consume(id: matched.code.id, codeHash: matched.submittedHash, now: now, on: db)
    }

    /// Uses the code up; of concurrent callers exactly one succeeds, the others get 401.
    func consume(_ matched: MatchedCode) async throws {
        guard try await store.consume(id: matched.code.id, codeHash: matched.submittedHash, now: clock.now()) else {
            throw APIError.invalidOrExpiredCode
        }
    }
}
